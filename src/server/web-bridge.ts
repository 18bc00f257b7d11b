// Carries one request between Node-RED's Express (node:http req/res) and the MCP server SDK, which
// speaks web-standard Request/Response and ships no node:http adapter of its own.
import type { IncomingMessage, ServerResponse } from 'node:http';

async function readBody(req: IncomingMessage & { body?: unknown }): Promise<Uint8Array> {
  // A body parser in httpNodeMiddleware may have drained the stream already.
  if (req.body !== undefined && req.readableEnded) {
    return new TextEncoder().encode(typeof req.body === 'string' ? req.body : JSON.stringify(req.body));
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

export async function toWebRequest(req: IncomingMessage & { originalUrl?: string }, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
  // Host may be foreign (DNS rebinding); the URL is built on a fixed origin and Host stays a header.
  return new Request(new URL(req.originalUrl ?? req.url ?? '/', 'http://node-red.invalid'), {
    method: req.method,
    headers,
    body: hasBody ? ((await readBody(req)) as unknown as BodyInit) : undefined,
    signal,
  });
}

export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  // Streamed chunk by chunk: an SSE answer (progress, then the result) must reach the client as produced.
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } finally {
    res.end();
  }
}
