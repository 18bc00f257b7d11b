// Streamable HTTP on plain node:http: the SDK's createMcpHandler speaks web-standard
// Request/Response (both protocol eras: 2026-07-28 stateless and the 2025 stateless fallback);
// this file only carries requests and responses between node:http and that handler.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpServerFactory,
} from '@modelcontextprotocol/server';

export const MCP_PATH = '/mcp';

export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function toWebRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    body: hasBody ? new Uint8Array(await readBody(req)) : undefined,
    signal,
  });
}

async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => { headers[name] = value; });
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  // Streamed chunk by chunk: an SSE answer must reach the client as it is produced.
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

export async function serveHttp(factory: McpServerFactory, port: number, host: string): Promise<HttpEndpoint> {
  const handler = createMcpHandler(factory, {
    onerror: (err) => process.stderr.write(`todo server: ${err.message}\n`),
  });
  // Bound to loopback, refuse other Host/Origin headers: a web page must not reach the todo list
  // through DNS rebinding. Bound elsewhere on purpose, the operator decides who may connect.
  const guardLocal = LOOPBACK.has(host);
  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    void (async () => {
      const request = await toWebRequest(req, `http://${req.headers.host ?? 'localhost'}`, controller.signal);
      if (new URL(request.url).pathname !== MCP_PATH) {
        return sendWebResponse(new Response('Not found: the MCP endpoint is /mcp\n', { status: 404 }), res);
      }
      const rejected = guardLocal
        ? (hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
          originValidationResponse(request, localhostAllowedOrigins()))
        : undefined;
      await sendWebResponse(rejected ?? (await handler.fetch(request)), res);
    })().catch((err: Error) => {
      process.stderr.write(`todo server: HTTP request failed: ${err.message}\n`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    async close() {
      server.closeAllConnections();
      await Promise.all([new Promise((resolve) => server.close(resolve)), handler.close()]);
    },
  };
}
