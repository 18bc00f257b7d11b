// The session's liveness probe and its re-initialize against real servers over HTTP, as they
// meet requests under way. A probe ping that fails (socket cut) while a slow call runs must not
// close the connection under the call; with nothing under way the same failure does mark the
// server down. Two calls on a session the server forgot (restart) both come back, not only the
// first to notice: the second used to end in "Connection closed" when the first closed the session.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { McpSession } from '../../src/mcp/session';
import type { ProviderState } from '../../src/mcp/call/tool-provider';
import { sendWebResponse, toWebRequest } from '../../src/server/http/web-bridge';
import { startEverything, type EverythingServer } from '../peers/everything';

const PROBE_MS = 100;

interface PingCutter {
  url: string;
  /** Cut the socket of every probe from now on: ping, or server/discover on 2026-07-28 (which has no ping). */
  cutPings: boolean;
  /** Pings whose socket was cut. */
  cut: number;
  /** Probes seen (ping or server/discover), cut or answered. */
  probes: number;
  /** Resolves when a ping was cut, or after `ms` without one. */
  pingCutOr(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** The server SDK's handler with one slow tool, behind node:http that can cut the socket of a ping. */
async function startPingCutter(): Promise<PingCutter> {
  const waiters = new Set<() => void>();
  const handler = createMcpHandler(() => {
    const server = new Server({ name: 'ping-cutter', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'slow', inputSchema: { type: 'object' as const } }] }));
    server.setRequestHandler('tools/call', async () => {
      // Long enough for several probe intervals, so an unguarded probe pings (and is cut) meanwhile.
      await state.pingCutOr(PROBE_MS * 6);
      await new Promise((r) => setTimeout(r, 200)); // the client has seen its ping fail by now
      return { content: [{ type: 'text', text: 'done' }] };
    });
    return server;
  });
  const http = createServer((req, res) => {
    void (async () => {
      const request = await toWebRequest(req, { origin: `http://${req.headers.host ?? 'localhost'}` });
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const probe = /"method"\s*:\s*"(ping|server\/discover)"/.test(body);
      if (probe) state.probes++;
      if (state.cutPings && probe) {
        state.cut++;
        for (const w of waiters) w();
        req.socket.destroy();
        return;
      }
      await sendWebResponse(await handler.fetch(request), res);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const state: PingCutter = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    cutPings: false,
    cut: 0,
    probes: 0,
    pingCutOr: (ms) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiters.add(done);
      }),
    async close() {
      http.closeAllConnections();
      await Promise.all([new Promise((resolve) => http.close(resolve)), handler.close()]);
    },
  };
  return state;
}

function untilState(session: McpSession, wanted: (s: ProviderState) => boolean, ms = 10_000): Promise<ProviderState> {
  if (wanted(session.state())) return Promise.resolve(session.state());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`state stayed ${JSON.stringify(session.state())}`));
    }, ms);
    const off = session.onStateChange((s) => {
      if (!wanted(s)) return;
      clearTimeout(timer);
      off();
      resolve(s);
    });
  });
}

describe('session probe and re-initialize beside requests under way (real servers)', function () {
  this.timeout(60_000);

  for (const protocolVersion of ['2025-11-25', 'auto'] as const) {
    describe(`protocol ${protocolVersion}`, () => {
      let peer: PingCutter;
      let session: McpSession;
      let unwatch: () => void;
      beforeEach(async () => {
        peer = await startPingCutter();
        session = new McpSession({ id: 'p', name: 'probe', transport: 'http', url: peer.url, timeoutMs: 10_000, protocolVersion }, undefined, {
          probeMs: PROBE_MS,
        });
        unwatch = session.watch();
        await untilState(session, (s) => s.kind === 'ready');
      });
      afterEach(async () => {
        unwatch();
        await session.close();
        await peer.close();
      });

      it('a healthy server stays ready across probes (2026-07-28 has no ping: it is asked server/discover)', async () => {
        const seen: ProviderState[] = [];
        const off = session.onStateChange((s) => seen.push(s));
        const from = peer.probes;
        while (peer.probes < from + 3) await new Promise((r) => setTimeout(r, PROBE_MS));
        off();
        assert.deepEqual(
          seen.filter((s) => s.kind !== 'ready'),
          [],
          'no state but ready while probed',
        );
        assert.equal(session.state().kind, 'ready');
      });

      it('a ping cut while a call runs does not close the connection under the call', async () => {
        peer.cutPings = true;
        const result = await session.callTool('slow', {});
        assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
        assert.equal(peer.cut, 0, 'no ping went out while the call was under way');
      });

      it('with nothing under way, a cut ping marks the server down (the probe still works)', async () => {
        peer.cutPings = true;
        const down = await untilState(session, (s) => s.kind === 'error');
        assert.ok(peer.cut >= 1, `a ping was cut (${JSON.stringify(down)})`);
        assert.equal(down.kind, 'error');
      });
    });
  }

  describe('a restarted server (Streamable HTTP sessions in memory)', () => {
    let ev: EverythingServer;
    let session: McpSession;
    before(async () => {
      ev = await startEverything('streamableHttp');
    });
    after(async () => {
      await session?.close();
      await ev?.stop();
    });

    it('three calls at once on the forgotten session all come back, over one new session', async () => {
      const debug: string[] = [];
      session = new McpSession(
        { id: 'ev', name: 'everything', transport: 'http', url: ev.url, timeoutMs: 20_000, protocolVersion: '2025-11-25' },
        { debug: (m) => debug.push(m), warn: (m) => debug.push(m) },
      );
      const first = await session.callTool('echo', { message: 'zero' });
      assert.deepEqual(first.content, [{ type: 'text', text: 'Echo: zero' }]);
      await ev.restart();
      const results = await Promise.all(['one', 'two', 'three'].map((message) => session.callTool('echo', { message })));
      assert.deepEqual(
        results.map((r) => r.content),
        ['one', 'two', 'three'].map((m) => [{ type: 'text', text: `Echo: ${m}` }]),
      );
      assert.equal(debug.filter((l) => /re-initializing once/.test(l)).length, 1, debug.join('\n'));
    });
  });
});
