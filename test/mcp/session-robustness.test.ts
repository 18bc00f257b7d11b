// Session behaviour through the real runtime: paginated discovery, a looping cursor, an expired
// session after a server restart, a server that is down, and `${VAR:-default}` expansion.
import assert from 'node:assert/strict';
import { startPaginatedServer, type PaginatedServer } from '../peers/paginated-server';
import { startEverything, type EverythingServer } from '../peers/everything';
import { freePort } from '../peers/free-port';
import { createServer, type Socket } from 'node:net';
import { helper, load, nextMessage, send, setEnv, startRuntime, stopRuntime } from '../helpers/runtime';

function flow(server: Record<string, unknown>, call: Record<string, unknown> = {}) {
  return [
    { id: 'srv', type: 'mcp-server', ...server },
    { id: 'list', type: 'mcp-list-tools', server: 'srv', wires: [['out']] },
    { id: 'call', type: 'mcp-call-tool', server: 'srv', ...call, wires: [['out'], []] },
    { id: 'out', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

describe('session robustness', function () {
  this.timeout(60000);
  before(startRuntime);
  after(stopRuntime);
  afterEach(() => helper.unload());

  describe('pagination', () => {
    let peer: PaginatedServer;
    afterEach(() => peer?.close());

    it('follows nextCursor over 3 pages and sends all tools in one message', async () => {
      peer = await startPaginatedServer({ toolCount: 7, pageSize: 3 });
      await load(flow({ transport: 'http', url: peer.url }));
      const got = nextMessage('out');
      send('list', {});
      const msg = await got;
      assert.equal(msg.mcp.pages, 3);
      assert.deepEqual(
        msg.payload.map((t: any) => t.name),
        peer.tools.map((t) => t.name),
      );
      assert.deepEqual(peer.listRequests.slice(-3), [undefined, 'tool-04', 'tool-07']);
    });

    it('a repeating cursor is an error at the Catch node, not a hang', async () => {
      peer = await startPaginatedServer({ toolCount: 7, pageSize: 3, repeatCursor: true });
      await load(flow({ transport: 'http', url: peer.url }));
      const caught = nextMessage('caught');
      send('list', {});
      const msg = await caught;
      assert.match(msg.error.message, /cursor "tool-04" twice/);
      assert.ok(peer.listRequests.length <= 3, `stopped after ${peer.listRequests.length} requests`);
    });
  });

  describe('Streamable HTTP session expiry', () => {
    let ev: EverythingServer;
    after(() => ev?.stop());

    it('re-initializes once transparently when the server restarted between two calls', async () => {
      ev = await startEverything('streamableHttp');
      await load(flow({ transport: 'http', url: ev.url }, { tool: 'echo' }));
      let got = nextMessage('out');
      send('call', { payload: { message: 'one' } });
      assert.equal((await got).payload, 'Echo: one');
      const pidBefore = ev.pid();
      await ev.restart();
      assert.notEqual(ev.pid(), pidBefore);
      const logs = helper.log();
      got = nextMessage('out');
      send('call', { payload: { message: 'two' } });
      const msg = await got;
      assert.equal(msg.payload, 'Echo: two');
      const reinits = logs.args.filter((a: any[]) => /re-initializing once/.test(JSON.stringify(a[0])));
      assert.equal(reinits.length, 1, 'exactly one transparent re-initialize');
    });
  });

  describe('server down', () => {
    it('a refused connection fails at once with the cause, not at the configured timeout, and names the URL', async () => {
      const port = await freePort(); // nothing listens here
      const url = `http://127.0.0.1:${port}/mcp`;
      // The configured timeout (60 s) is longer than this wait for Catch (10 s): only a call that
      // fails on the refusal itself, without waiting out its timeout, reaches Catch in time.
      await load(flow({ transport: 'http', url, timeout: 60 }, { tool: 'echo' }));
      const caught = nextMessage('caught', 10000);
      send('call', { payload: { message: 'x' } });
      const msg = await caught;
      assert.ok(msg.error.message.includes(url), msg.error.message);
      assert.match(msg.error.message, /ECONNREFUSED/);
      assert.doesNotMatch(msg.error.message, /no answer within/);
    });

    it('a server that accepts the connection and never answers: the call ends at the configured timeout, naming it', async () => {
      const sockets = new Set<Socket>();
      const silent = createServer((socket) => sockets.add(socket)); // reads the request, never answers
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/mcp`;
      try {
        // 0.3 s configured; Catch is awaited for 20 s, so only the configured timeout can end the call.
        // Counted from the deploy: the session's own first request (initialize) starts then, and on a
        // busy machine the call may meet that request's timeout rather than its own.
        const started = Date.now();
        await load(flow({ transport: 'http', url, timeout: 0.3 }, { tool: 'echo' }));
        const caught = nextMessage('caught', 20000);
        send('call', { payload: { message: 'x' } });
        const msg = await caught;
        const elapsed = Date.now() - started;
        assert.match(msg.error.message, /no answer within 0\.3 s \(request timed out\)/, msg.error.message);
        assert.equal(msg.error.code, 'TIMEOUT');
        assert.ok(msg.error.message.includes(url), msg.error.message);
        assert.ok(elapsed >= 300, `not before the configured 0.3 s (${elapsed} ms)`);
      } finally {
        for (const s of sockets) s.destroy();
        await new Promise((resolve) => silent.close(resolve));
      }
    });

    it('a stdio command that does not exist says spawn ENOENT and names the command', async () => {
      await load(flow({ transport: 'stdio', command: 'definitely-not-a-command-4711', args: ['--x'] }, { tool: 'echo' }));
      const caught = nextMessage('caught', 10000);
      send('call', { payload: {} });
      const msg = await caught;
      assert.match(msg.error.message, /definitely-not-a-command-4711 --x: spawn ENOENT/);
    });
  });

  describe('minimal config and environment expansion', () => {
    let peer: PaginatedServer;
    let restoreEnv = () => {};
    after(() => {
      restoreEnv();
      return peer?.close();
    });

    it('a config node with only transport and url (from ${VAR:-default}) works with defaults', async () => {
      peer = await startPaginatedServer({ toolCount: 2, pageSize: 5 });
      const u = new URL(peer.url);
      restoreEnv = setEnv({ MCP_TEST_PORT: u.port, MCP_TEST_HOST: undefined });
      await helper.unload();
      await load([
        { id: 'srv', type: 'mcp-server', transport: 'http', url: 'http://${MCP_TEST_HOST:-127.0.0.1}:${MCP_TEST_PORT}/mcp' },
        { id: 'call', type: 'mcp-call-tool', server: 'srv', tool: 'tool-01', wires: [['out']] },
        { id: 'out', type: 'helper' },
      ]);
      const got = nextMessage('out');
      send('call', { payload: { text: 'hi' } });
      const msg = await got;
      assert.equal(msg.payload, 'tool-01: hi');
      assert.equal(msg.mcp.server.id, 'srv');
    });

    it('an invalid config does not throw at deploy; each message fails with the reason', async () => {
      await load(flow({ transport: 'http', url: 'not a url' }, { tool: 'echo' }));
      const caught = nextMessage('caught');
      send('call', { payload: {} });
      const msg = await caught;
      assert.match(msg.error.message, /misconfigured: url "not a url" is not a valid URL/);
    });

    it('a URL with a scheme fetch cannot use (a typo such as htp://) says so, not "fetch failed"', async () => {
      await load(flow({ transport: 'http', url: 'htp://homeassistant.local:8123/api/mcp' }, { tool: 'echo' }));
      const caught = nextMessage('caught');
      send('call', { payload: {} });
      const msg = await caught;
      assert.match(msg.error.message, /url "htp:\/\/homeassistant\.local:8123\/api\/mcp" must start with http:\/\/ or https:\/\//);
      assert.doesNotMatch(msg.error.message, /fetch failed/);
    });
  });
});
