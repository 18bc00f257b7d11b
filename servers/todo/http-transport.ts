// Streamable HTTP on plain node:http: the SDK's createMcpHandler speaks web-standard
// Request/Response (both protocol eras: 2026-07-28 stateless and the 2025 stateless fallback);
// this file only carries requests and responses between node:http and that handler.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  type McpServerFactory,
} from '@modelcontextprotocol/server';

import { bodyErrorResponse, RequestBodyError, requestHead, sendWebResponse, toWebRequest } from '../../src/server/http/web-bridge';

export const MCP_PATH = '/mcp';

export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

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
      const options = { origin: `http://${req.headers.host ?? 'localhost'}`, signal: controller.signal };
      const head = requestHead(req, options); // checked before a byte of the body is read
      if (new URL(head.url).pathname !== MCP_PATH) {
        return sendWebResponse(new Response('Not found: the MCP endpoint is /mcp\n', { status: 404 }), res);
      }
      const rejected = guardLocal
        ? (hostHeaderValidationResponse(head, localhostAllowedHostnames()) ?? originValidationResponse(head, localhostAllowedOrigins()))
        : undefined;
      if (rejected) return sendWebResponse(rejected, res);
      const request = await toWebRequest(req, options).catch((err) => (err instanceof RequestBodyError ? bodyErrorResponse(err) : Promise.reject(err)));
      await sendWebResponse(request instanceof Response ? request : await handler.fetch(request), res);
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
