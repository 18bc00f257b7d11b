// Carries one request between node:http (Node-RED's Express, the example servers, the test peers) and
// a handler that speaks web-standard Request/Response (the MCP server SDK's transports), since the
// SDK ships no node:http adapter of its own.
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

export interface WebRequestOptions {
  /** Aborts the handler's work when the client goes away. */
  signal?: AbortSignal;
  /**
   * The origin the request URL is built on. The default is a fixed one: Host may be foreign (DNS
   * rebinding), so it stays a header and never becomes the URL. A server that builds absolute URLs
   * from the request (OAuth metadata) passes its own public origin.
   */
  origin?: string;
}

export async function toWebRequest(req: IncomingMessage & { originalUrl?: string }, options: WebRequestOptions = {}): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
  return new Request(new URL(req.originalUrl ?? req.url ?? '/', options.origin ?? 'http://node-red.invalid'), {
    method: req.method,
    headers,
    body: hasBody ? ((await readBody(req)) as unknown as BodyInit) : undefined,
    signal: options.signal,
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
