// The fetch the MCP HTTP transports use (src/mcp/transport/per-request-signal-fetch.ts): one long-lived
// caller signal, as the SDK's Streamable HTTP transport hands to every request, must end up with
// one abort listener however many requests ran on it (Node's fetch alone leaves one per request
// until GC, and warns after 1,500), and aborting it must still abort the requests in flight.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { perRequestSignalFetch } from '../../src/mcp/transport/per-request-signal-fetch';

describe('per-request abort signals for the MCP HTTP transports', () => {
  let server: Server;
  let url: string;
  const held: Array<() => void> = [];
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/hold') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n'); // a stream that stays open, like an SSE answer
        held.push(() => res.end());
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    held.forEach((end) => end());
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('2,000 requests on one signal leave one listener on it and no warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const transportSignal = new AbortController().signal;
    const wrapped = perRequestSignalFetch();
    let next = 0;
    const worker = async () => {
      while (next++ < 2000) {
        const res = await wrapped(`${url}/json`, { method: 'POST', body: '{}', signal: transportSignal });
        assert.deepEqual(await res.json(), { ok: true });
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    process.off('warning', onWarning);
    assert.equal(getEventListeners(transportSignal, 'abort').length, 1);
    assert.deepEqual(
      warnings.filter((w) => w === 'MaxListenersExceededWarning'),
      [],
    );
  });

  it('aborting the caller signal aborts the requests still open, streams included', async () => {
    const transport = new AbortController();
    const wrapped = perRequestSignalFetch();
    const streams = await Promise.all([1, 2, 3].map(() => wrapped(`${url}/hold`, { signal: transport.signal })));
    const readers = streams.map((r) => r.body!.getReader());
    for (const reader of readers) assert.equal(new TextDecoder().decode((await reader.read()).value), 'data: first\n\n');
    transport.abort(new Error('session closed'));
    for (const reader of readers) await assert.rejects(reader.read(), /session closed|aborted/i);
  });

  it('a request on an already aborted signal never goes out', async () => {
    const transport = new AbortController();
    transport.abort(new Error('closed before'));
    await assert.rejects(perRequestSignalFetch()(`${url}/json`, { signal: transport.signal }), /closed before|aborted/i);
  });
});
