// A Streamable HTTP MCP server that misbehaves on demand, for the reliability specs and the soak
// bench. When `mode` is "ok" it is a plain stateless server (official SDK low-level `Server`, JSON
// responses) with tools:
//   echo {text}         answers the text
//   slow {ms}           answers after `ms` milliseconds (a server slower than the client's timeout)
//   whoami              answers with the Authorization and X-Api-Key headers it received
//                       (a server that echoes credentials into a tool result)
//   bomb {mb}           answers with a gzip body that inflates to `mb` MB (concatenated gzip
//                       members of 1 MB of zeros each, as RFC 1952 allows: a ~1 KB per MB bomb)
//   endless {mb}        answers with an event stream whose one event never ends: `data: ` and
//                       then `mb` MB without a line break, and then it keeps the connection open
//   big {kb}            answers a text result of `kb` KB (a large but honest reply)
// Other modes answer every POST the wrong way, as broken servers and proxies do:
//   "garbage-json"   200 application/json whose body is not JSON
//   "html"           200 text/html (a login page or proxy error page)
//   "echo-headers"   500 text/plain echoing the request headers, credentials included
// stop() kills every open connection (a server killed mid-call); start() listens again on the same port.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, WebStandardStreamableHTTPServerTransport, type Tool } from '@modelcontextprotocol/server';
import { gzipSync } from 'node:zlib';
import { sendWebResponse } from '../../src/server/http/web-bridge';

export type HostileMode = 'ok' | 'garbage-json' | 'html' | 'echo-headers';

export interface HostileHttpServer {
  /** http://127.0.0.1:PORT/mcp */
  url: string;
  port: number;
  mode: HostileMode;
  /** POST requests received (all modes). */
  posts: number;
  /** tools/call requests that reached a tool. */
  calls: number;
  /** POSTs whose connection the client closed before the answer was complete (an aborted fetch). */
  abortedRequests: number;
  /** notifications/cancelled received, with the request id each names. */
  cancelled: unknown[];
  /** The headers of the last POST (to prove what the client sent). */
  lastHeaders: IncomingHttpHeaders;
  /** Kill every connection and stop listening. */
  stop(): Promise<void>;
  /** Listen again on the same port. */
  start(): Promise<void>;
}

const object = (properties: Record<string, any>, required: string[] = []) => ({ type: 'object' as const, properties, required });
const TOOLS: Tool[] = [
  { name: 'echo', description: 'Echoes the text.', inputSchema: object({ text: { type: 'string' } }, ['text']) },
  { name: 'slow', description: 'Answers after ms milliseconds.', inputSchema: object({ ms: { type: 'number' } }, ['ms']) },
  { name: 'whoami', description: 'Answers with the credentials the request carried.', inputSchema: object({}) },
  { name: 'bomb', description: 'A gzip reply that inflates to mb MB.', inputSchema: object({ mb: { type: 'number' } }, ['mb']) },
  { name: 'endless', description: 'An event that never ends.', inputSchema: object({ mb: { type: 'number' } }, ['mb']) },
  { name: 'big', description: 'A text result of kb KB.', inputSchema: object({ kb: { type: 'number' } }, ['kb']) },
];

/** One gzip member of 1 MB of zeros (about 1 KB); members may be concatenated (RFC 1952 2.2). */
const ZERO_MB_GZIP = gzipSync(Buffer.alloc(1024 * 1024));

export async function startHostileHttpServer(mode: HostileMode = 'ok', port = 0): Promise<HostileHttpServer> {
  let http: HttpServer | undefined;
  const peer: HostileHttpServer = {
    url: '',
    port,
    mode,
    posts: 0,
    calls: 0,
    lastHeaders: {},
    abortedRequests: 0,
    cancelled: [],
    async start() {
      http = createServer((req, res) => void handle(req, res));
      await new Promise<void>((resolve, reject) => {
        http!.once('error', reject);
        http!.listen(peer.port, '127.0.0.1', () => resolve());
      });
      peer.port = (http.address() as AddressInfo).port;
      peer.url = `http://127.0.0.1:${peer.port}/mcp`;
    },
    async stop() {
      const h = http;
      http = undefined;
      if (!h) return;
      h.closeAllConnections();
      await new Promise<void>((resolve) => h.close(() => resolve()));
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if ((req.url ?? '').split('?')[0] !== '/mcp') return void res.writeHead(404).end();
    if (req.method === 'POST') {
      peer.posts++;
      peer.lastHeaders = req.headers;
    }
    if (req.method === 'POST' && peer.mode !== 'ok') {
      for await (const _ of req); // read the request before answering, as a real server does
      if (peer.mode === 'garbage-json') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{jsonrpc: 2.0, oops');
      if (peer.mode === 'html') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Please log in</body></html>');
      return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`cannot handle request with headers ${headerLine(req.headers)}`);
    }
    // Ends a `slow` call whose client went away (or the peer stopped), so no wait outlives its request.
    const gone = new AbortController();
    const server = buildServer(req.headers, gone.signal);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      if (req.method === 'POST' && !res.writableFinished) peer.abortedRequests++;
      gone.abort();
    });
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST' && attack(text, res)) return;
      await server.connect(transport);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, {
        method: req.method,
        headers,
        body: req.method === 'POST' ? text : undefined,
      });
      noteCancellations(text);
      const response = await transport.handleRequest(request);
      await sendWebResponse(response, res);
    } catch (err) {
      if (!res.headersSent && !res.destroyed) res.writeHead(500, { 'Content-Type': 'text/plain' });
      if (!res.destroyed) res.end(err instanceof Error ? err.message : String(err));
    } finally {
      await server.close().catch(() => undefined);
    }
  }

  /** The two replies that attack the client's memory, written by hand below the SDK. */
  function attack(body: string, res: ServerResponse): boolean {
    let m: { id?: unknown; method?: string; params?: { name?: string; arguments?: { mb?: number } } };
    try {
      m = JSON.parse(body);
    } catch {
      return false;
    }
    const name = m.method === 'tools/call' ? m.params?.name : undefined;
    const mb = Number(m.params?.arguments?.mb) || 1;
    if (name === 'bomb') {
      peer.calls++;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      let sent = 0;
      const more = () => {
        while (sent < mb && !res.destroyed) {
          sent++;
          if (!res.write(ZERO_MB_GZIP)) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end();
      };
      res.on('error', () => undefined);
      more();
      return true;
    }
    if (name === 'endless') {
      peer.calls++;
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write('data: ');
      const piece = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      const more = () => {
        while (sent < mb * 16 && !res.destroyed) {
          sent++;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        // then it stays open, as a server that means harm would
      };
      res.on('error', () => undefined);
      more();
      return true;
    }
    return false;
  }

  function noteCancellations(body: string): void {
    try {
      const sent = JSON.parse(body) as unknown;
      for (const m of Array.isArray(sent) ? sent : [sent]) {
        if (m?.method === 'notifications/cancelled') peer.cancelled.push(m.params?.requestId);
      }
    } catch {
      /* not JSON: the SDK transport answers it */
    }
  }

  function buildServer(headers: IncomingHttpHeaders, clientGone: AbortSignal): Server {
    const server = new Server({ name: 'hostile-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
    server.setRequestHandler('tools/call', async (request) => {
      peer.calls++;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      switch (request.params.name) {
        case 'echo':
          return { content: [{ type: 'text', text: String(args.text ?? '') }] };
        case 'slow':
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Number(args.ms) || 0);
            clientGone.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
          });
          return { content: [{ type: 'text', text: 'slow answer' }] };
        case 'whoami':
          return { content: [{ type: 'text', text: `you sent ${headerLine(headers)}` }] };
        case 'big':
          return { content: [{ type: 'text', text: 'y'.repeat(Math.round(Number(args.kb) * 1024)) }] };
        default:
          return { content: [{ type: 'text', text: `unknown tool ${request.params.name}` }], isError: true };
      }
    });
    return server;
  }

  await peer.start();
  return peer;
}

/** What a careless server prints: the credentials exactly as they came. */
function headerLine(headers: IncomingHttpHeaders): string {
  return `authorization=${headers.authorization ?? ''} x-api-key=${headers['x-api-key'] ?? ''}`;
}
