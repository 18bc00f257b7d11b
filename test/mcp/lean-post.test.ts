// The Streamable HTTP transport's POSTs over node:http (src/mcp/transport/lean-post.ts) against a real
// node:http server, each behaviour compared with what Node's fetch does for the same request:
// compressed replies, kept-alive connections, an abort in flight, an event stream read as it comes,
// a refused connection, and requests it leaves to fetch.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { leanFetch } from '../../src/mcp/transport/lean-post';
import { freePort } from '../peers/free-port';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

async function serve(handler: Handler): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, res, body));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    connections: () => connections,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const post = (body: string, signal?: AbortSignal): RequestInit => ({
  method: 'POST',
  body,
  redirect: 'manual',
  signal,
  headers: new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
});

describe('lean POSTs for the Streamable HTTP transport (node:http, compared with fetch)', function () {
  this.timeout(10000);
  const lean = leanFetch(fetch);

  it('sends the body and headers as given, inflates a gzip reply, and keeps one connection for consecutive calls', async () => {
    const seen: Array<{ type?: string; body: string }> = [];
    const s = await serve((req, res, body) => {
      seen.push({ type: req.headers['content-type'], body });
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { echoed: body.length } })));
    });
    try {
      for (const f of [lean, fetch]) {
        const r = await f(s.url, post('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'application/json');
        assert.deepEqual(await r.json(), { jsonrpc: '2.0', id: 1, result: { echoed: 40 } });
      }
      await lean(s.url, post('{}')).then((r) => r.text());
      assert.deepEqual(seen[0], { type: 'application/json', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      // lean: 2 calls on 1 connection; fetch: 1 of its own.
      assert.equal(s.connections(), 2);
    } finally {
      await s.close();
    }
  });

  it("an abort in flight rejects with the signal's reason and closes the request, as fetch does", async () => {
    let closed = 0;
    const s = await serve((_req, res) => res.on('close', () => closed++)); // never answers
    try {
      for (const f of [lean, fetch]) {
        const controller = new AbortController();
        const call = f(s.url, post('{}', controller.signal));
        setTimeout(() => controller.abort(new Error('stop now')), 50);
        await assert.rejects(call, (err: Error) => err.message === 'stop now');
      }
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(closed, 2, 'the server saw both requests end');
    } finally {
      await s.close();
    }
  });

  it('an event-stream reply is readable event by event before the server ends it', async () => {
    let finish: () => void = () => undefined;
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\ndata: {"first":true}\n\n');
      finish = () => res.end('event: message\ndata: {"last":true}\n\n');
    });
    try {
      const r = await lean(s.url, post('{}'));
      const reader = r.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      assert.match(first, /"first":true/);
      finish();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
      assert.match(rest, /"last":true/);
    } finally {
      await s.close();
    }
  });

  it('an event-stream reply that is only its answer (after a priming event) is handed on as that JSON answer', async () => {
    const answer = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'ok' }] } };
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: prime-1\nretry: 500\ndata:\n\n');
      res.end(`event: message\nid: e-2\ndata: ${JSON.stringify(answer)}\n\n`);
    });
    try {
      const r = await lean(s.url, post('{"jsonrpc":"2.0","id":7,"method":"tools/call"}'));
      assert.equal(r.headers.get('content-type'), 'application/json');
      assert.deepEqual(await r.json(), answer);
    } finally {
      await s.close();
    }
  });

  it('an answer whose characters arrive split across chunks comes out whole', async () => {
    const answer = { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'Küche 21 °C ☀' }] } };
    const bytes = Buffer.from(`data: ${JSON.stringify(answer)}\n\n`);
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // One byte at a time: every multi-byte character is split.
      let i = 0;
      const next = () => (i < bytes.length ? res.write(bytes.subarray(i, ++i), () => setImmediate(next)) : res.end());
      next();
    });
    try {
      assert.deepEqual(await (await lean(s.url, post('{}'))).json(), answer);
    } finally {
      await s.close();
    }
  });

  it('anything before the answer (progress), or no answer at all, keeps the reply a stream with every byte in order', async () => {
    const progress = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n';
    const answer = 'event: message\ndata: {"jsonrpc":"2.0","id":8,"result":{"content":[]}}\n\n';
    const priming = 'id: p\nretry: 500\ndata:\n\n';
    const replies = [priming + progress + answer, priming];
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(replies.shift());
    });
    try {
      for (const expected of [priming + progress + answer, priming]) {
        const r = await lean(s.url, post('{}'));
        assert.equal(r.headers.get('content-type'), 'text/event-stream');
        assert.equal(await r.text(), expected);
      }
    } finally {
      await s.close();
    }
  });

  it('a refused connection fails as fetch fails: TypeError "fetch failed" with the socket error as cause', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const errors: Array<{ name: string; message: string; code?: string }> = [];
    for (const f of [lean, fetch]) {
      await f(url, post('{}')).catch((err: Error & { cause?: { code?: string } }) =>
        errors.push({ name: err.name, message: err.message, code: err.cause?.code }),
      );
    }
    assert.deepEqual(errors[0], { name: 'TypeError', message: 'fetch failed', code: 'ECONNREFUSED' });
    assert.deepEqual(errors[0], errors[1]);
  });

  it('leaves to fetch what is not a manual-redirect POST with a string body', async () => {
    const calls: string[] = [];
    const base = (async (input: string | URL | Request, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${typeof init?.body} ${init?.redirect ?? '-'}`);
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const f = leanFetch(base);
    await f('http://127.0.0.1:1/mcp', { method: 'GET' });
    await f('http://127.0.0.1:1/mcp', { method: 'DELETE', redirect: 'manual' });
    await f('http://127.0.0.1:1/mcp', { method: 'POST', body: '{}' });
    await f('http://127.0.0.1:1/mcp', { method: 'POST', body: new URLSearchParams({ a: '1' }), redirect: 'manual' });
    assert.deepEqual(calls, ['GET undefined -', 'DELETE undefined manual', 'POST string -', 'POST object manual']);
  });
});
