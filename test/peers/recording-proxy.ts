// A pass-through HTTP proxy in front of a real MCP server that records the JSON-RPC method of every
// request it forwards, so a test can prove what the client sent (tasks/cancel, tasks/get …) without
// trusting the client's own account. Responses, SSE streams included, are piped back as they come.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

export interface RecordingProxy {
  url: string;
  /** Every JSON-RPC request forwarded, in order: method and params. */
  requests: Array<{ method: string; params?: Record<string, unknown> }>;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const requests: RecordingProxy['requests'] = [];
  const http = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      try {
        const message = JSON.parse(body.toString('utf8')) as { method?: unknown; params?: Record<string, unknown> };
        if (typeof message.method === 'string') requests.push({ method: message.method, params: message.params });
      } catch {
        // not JSON (a GET, an empty body): forwarded all the same
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers.set(k, v);
      const upstream = await fetch(target, { method: req.method, headers, body: body.length ? new Uint8Array(body) : undefined });
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'content-encoding') out[k] = v;
      });
      res.writeHead(upstream.status, out);
      if (!upstream.body) return void res.end();
      const stream = Readable.fromWeb(upstream.body as never);
      res.on('close', () => stream.destroy());
      stream.pipe(res);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    requests,
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
