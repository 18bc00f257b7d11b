// The one node:http ⇄ web Request/Response bridge (the endpoint, the example servers, the test
// peers): a body a middleware already parsed, the URL origin, and a streamed answer, over a real socket.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebResponse, toWebRequest, type WebRequestOptions } from '../../src/server/http/web-bridge';
import { jsonAnswer } from '../../src/server/http/json-answer';

function serve(options: WebRequestOptions, parseFirst: boolean, handle: (r: Request) => Promise<Response>): Promise<Server> {
  const server = createServer((req: IncomingMessage & { body?: unknown }, res) => {
    void (async () => {
      if (parseFirst) {
        // What a JSON body parser in httpNodeMiddleware leaves behind: the stream drained, req.body set.
        let text = '';
        for await (const chunk of req) text += String(chunk);
        req.body = JSON.parse(text);
      }
      await sendWebResponse(await handle(await toWebRequest(req, options)), res);
    })();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

describe('web-bridge: node:http to web Request/Response', () => {
  it('rebuilds the request on a fixed origin by default (Host stays a header), with a body a parser already read', async () => {
    const server = await serve({}, true, async (r) => Response.json({ url: r.url, host: r.headers.get('host'), body: await r.json() }));
    try {
      const answer = await (
        await fetch(`${urlOf(server)}/mcp?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
      ).json();
      assert.deepEqual(answer, { url: 'http://node-red.invalid/mcp?x=1', host: urlOf(server).slice('http://'.length), body: { a: 1 } });
    } finally {
      await close(server);
    }
  });

  it('uses the given origin, sends no body for DELETE, and streams the answer as it is produced', async () => {
    let sawBody: boolean | undefined;
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    const server = await serve({ origin: 'https://public.example' }, false, async (r) => {
      sawBody = r.body !== null;
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new TextEncoder().encode(`first ${r.url}\n`));
          await later;
          controller.enqueue(new TextEncoder().encode('second\n'));
          controller.close();
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
    });
    try {
      const response = await fetch(`${urlOf(server)}/mcp`, { method: 'DELETE' });
      const reader = response.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      assert.equal(first, 'first https://public.example/mcp\n', 'the first chunk arrives before the handler finished');
      release();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
      assert.equal(rest, 'second\n');
      assert.equal(sawBody, false);
    } finally {
      await close(server);
    }
  });

  it("writes the SDK's JSON answer as the same bytes Response.json() gives, with its length, whether or not its headers were touched", async () => {
    const message = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'grüße 🌍' }] } };
    const answers: Record<string, () => Response> = {
      '/plain': () => Response.json(message, { status: 200, headers: { 'Content-Type': 'application/json' } }),
      '/answer': () => jsonAnswer(message, { status: 200, headers: { 'Content-Type': 'application/json' } }),
      '/answer-with-header': () => {
        const answer = jsonAnswer(message, { status: 404, headers: { 'Content-Type': 'application/json' } });
        answer.headers.set('x-extra', 'kept');
        return answer;
      },
      '/answer-read': () => {
        const answer = jsonAnswer(message, { status: 200, headers: { 'Content-Type': 'application/json' } });
        void answer.clone(); // read beyond its head: the real Response answers for it
        return answer;
      },
    };
    const server = await serve({}, false, async (r) => answers[new URL(r.url).pathname]!());
    try {
      const got = async (path: string) => {
        const response = await fetch(`${urlOf(server)}${path}`);
        const bytes = Buffer.from(await response.arrayBuffer());
        return {
          status: response.status,
          type: response.headers.get('content-type'),
          length: response.headers.get('content-length'),
          extra: response.headers.get('x-extra'),
          bytes: bytes.toString('base64'),
        };
      };
      const plain = await got('/plain');
      assert.equal(plain.length, String(Buffer.byteLength(JSON.stringify(message))));
      assert.deepEqual(await got('/answer'), plain);
      assert.deepEqual(await got('/answer-read'), plain);
      assert.deepEqual(await got('/answer-with-header'), { ...plain, status: 404, extra: 'kept' });
    } finally {
      await close(server);
    }
  });
});
