// Carries one request between node:http (Node-RED's Express, the example servers, the test peers) and
// a handler that speaks web-standard Request/Response (the MCP server SDK's transports), since the
// SDK ships no node:http adapter of its own. A server checks who is calling on the headers alone
// (`requestHead`) before it reads a byte of the body, and the body is read up to a limit only.
import { RequestHead } from './request-head';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { JsonAnswer } from './json-answer';

/** The MCP server SDK's own limit for a Streamable HTTP message body. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Deeper JSON is refused before anything walks it recursively (serialising, validating). */
export const MAX_JSON_DEPTH = 100;

/** A body the bridge refuses to carry: over the size limit (413) or nested too deep (400). */
export class RequestBodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
  }
}

const tooLarge = (limit: number) => new RequestBodyError(413, `The request body is larger than ${Math.round(limit / 1024)} KiB.`);

/** How deeply a parsed JSON value nests, counted without recursion, stopping once past `limit`. */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** The request body's bytes, read up to `limit` (rejects with a RequestBodyError past it). */
export async function readBody(req: IncomingMessage & { body?: unknown }, limit: number = DEFAULT_MAX_BODY_BYTES): Promise<Uint8Array> {
  // A body parser in httpNodeMiddleware may have drained the stream already (with its own limit).
  if (req.body !== undefined && req.readableEnded) {
    if (typeof req.body === 'string') return new TextEncoder().encode(req.body);
    if (jsonDepthExceeds(req.body, MAX_JSON_DEPTH)) throw new RequestBodyError(400, `The request nests deeper than ${MAX_JSON_DEPTH} levels.`);
    return new TextEncoder().encode(JSON.stringify(req.body));
  }
  const announced = Number(req.headers['content-length']);
  if (announced > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit); // stop reading: the caller answers 413 and closes the connection
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size); // a Buffer is a Uint8Array: no second copy
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
  /** The largest body read; a larger one rejects with a 413 RequestBodyError. Default 4 MiB. */
  maxBodyBytes?: number;
}

function requestInit(req: IncomingMessage & { originalUrl?: string }, options: WebRequestOptions): [URL, RequestInit] {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return [new URL(req.originalUrl ?? req.url ?? '/', options.origin ?? 'http://node-red.invalid'), { method: req.method, headers, signal: options.signal }];
}

/** The request's method, URL and headers, without reading its body: for the checks that come first. */
export function requestHead(req: IncomingMessage & { originalUrl?: string }, options: WebRequestOptions = {}): Request {
  const [url, init] = requestInit(req, options);
  return new RequestHead(url.href, req.method ?? 'GET', init.headers as Headers, options.signal ?? new AbortController().signal) as unknown as Request;
}

/** The whole request, its body read up to `maxBodyBytes` (rejects with a RequestBodyError). */
export async function toWebRequest(req: IncomingMessage & { originalUrl?: string }, options: WebRequestOptions = {}): Promise<Request> {
  return (await readWebRequest(req, options)).request;
}

/** The web Request and the body's bytes as read: JSON is parsed from these, not from a clone of the Request's stream. */
export async function readWebRequest(
  req: IncomingMessage & { originalUrl?: string },
  options: WebRequestOptions = {},
): Promise<{ request: Request; body: Buffer | undefined }> {
  const [url, init] = requestInit(req, options);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
  const body = hasBody ? await readBody(req, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) : undefined;
  return {
    request: new Request(url, { ...init, body: body as unknown as BodyInit }),
    body: body && Buffer.from(body.buffer, body.byteOffset, body.byteLength),
  };
}

export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  if (res.req && !res.req.complete) closeAfterAnswer(res);
  const answer = JsonAnswer.unread(response);
  if (answer) {
    // The SDK's JSON answer, as text: written as it is, with no stream made to carry it.
    const head: Record<string, string> = {};
    if (answer.headers instanceof Headers) answer.headers.forEach((value, name) => void (head[name] = value));
    else Object.assign(head, answer.headers);
    head['content-length'] = String(Buffer.byteLength(answer.body));
    res.writeHead(response.status, head);
    return void res.end(answer.body);
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (response.body && !isEventStream(response)) {
    // A JSON (or other whole) answer is already complete when the handler returns it: one write with
    // its length instead of chunked encoding, chunk by chunk (several socket writes per answer).
    const whole = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(whole.length);
    res.writeHead(response.status, headers);
    return void res.end(whole);
  }
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

const isEventStream = (response: Response) => (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');

/** What of an unread body is discarded after the answer, at most, before the connection is cut. */
const LINGER_BYTES = 1024 * 1024;
const LINGER_MS = 2000;

/**
 * A body left unread (a refused caller's, or one over the limit) is not read to its end: after the
 * answer, Node discards what still arrives; past 1 MiB or 2 s the connection is cut. Cutting it at
 * once would lose the answer itself: a TCP reset makes the client drop what it had not read yet.
 */
function closeAfterAnswer(res: ServerResponse): void {
  const req = res.req;
  res.once('finish', () => {
    let discarded = 0;
    const cut = () => req.socket.destroy();
    const timer = setTimeout(cut, LINGER_MS);
    timer.unref();
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > LINGER_BYTES) cut();
    });
    req.once('end', () => clearTimeout(timer));
    req.socket.once('close', () => clearTimeout(timer));
    req.resume();
  });
}

/** The JSON-RPC error answer for a refused body. */
export function bodyErrorResponse(err: RequestBodyError): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32600, message: err.message }, id: null }, { status: err.status });
}
