// The Streamable HTTP transport's POSTs (every JSON-RPC request and notification) and its GET
// event stream, sent with undici's request() over a keep-alive Agent instead of Node's fetch. Why:
// fetch (undici's WHATWG layer) wraps every request body and every reply in web streams, four per
// call and a tee; the side-by-side bench's profile showed them as the largest part of our client's
// cost per call that the other Node-RED MCP client does not have. undici's own request() has no web
// streams: `npm run bench:http-post` measured it at 0.80× the latency and 0.71-0.76× the CPU of the
// node:http path this file used before, on Node 20 and 24 (docs/benchmarks.md). Here a string body is
// written as it is, and a reply that is not an event stream is read whole and handed to `whole`
// (the reply check of ./readable-reply-fetch.ts); an event stream is handed on as a web stream, as
// fetch would. The caller's signal (the transport's, shared by every call) gets one listener for
// all its requests (whenAborted). The GET goes this way too so that it shares the warm connections
// of the POSTs. Anything else (DELETE, redirects to follow, a body that is not a string) goes to `base`.
// Every reply is held to the server's reply limit (./reply-limit.ts): a whole reply before and after
// inflating, an event stream per event (./event-stream-bound.ts).
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, request as undiciRequest } from 'undici';
import { WholeResponse, asResponse } from './whole-response';
import { readEventStreamReply } from './event-stream-reply';
import { copyReply, whenAborted, type WholeReply } from './per-request-signal-fetch';
import { EventStreamBound, errorAnswerEvent, requestIdOf } from './event-stream-bound';
import { DEFAULT_MAX_REPLY_MB, ReplyTooLargeError, bytesOfMB } from './reply-limit';

type Fetch = typeof fetch;

// Idle sockets close after 4 s (fetch's own default), sooner when the server's Keep-Alive header asks
// (undici subtracts a margin), so a request never lands on a socket the server is closing.
const IDLE_MS = 4000;
const agent = new Agent({ keepAliveTimeout: IDLE_MS });
/** Headers undici sets itself and refuses from a caller. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length']);

export function leanFetch(base: Fetch = fetch, whole: WholeReply = copyReply, limit = bytesOfMB(DEFAULT_MAX_REPLY_MB)): Fetch {
  // Node's fetch honours HTTP(S)_PROXY when NODE_USE_ENV_PROXY is set; our agent does not, so fetch keeps those requests.
  if (process.env.NODE_USE_ENV_PROXY) return base;
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
    const protocol = url?.slice(0, url.indexOf(':') + 1);
    const method = init?.method ?? 'GET';
    const eligible =
      url &&
      (protocol === 'http:' || protocol === 'https:') &&
      init?.redirect === 'manual' &&
      ((method === 'POST' && typeof init.body === 'string') || (method === 'GET' && init.body === undefined));
    return eligible ? send(url, method, init, whole, limit) : base(input, init);
  };
}

function headersOf(given: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(given).forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) out[name] = value;
  });
  return out;
}

function send(url: string, method: string, init: RequestInit, whole: WholeReply, limit: number): Promise<Response> {
  const signal = init.signal ?? undefined;
  const requestBody = init.body as string | undefined;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    // The request's own signal; the caller's (the transport's, shared by every call) gets one
    // listener for all its requests.
    const own = new AbortController();
    const done = signal ? whenAborted(signal, () => own.abort(abortReason(signal))) : () => undefined;
    // As fetch reports it: an abort as the signal's reason, anything else as "fetch failed" with the cause.
    const failed = (err: unknown) => {
      done();
      reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: err }));
    };
    undiciRequest(url, { method, headers: headersOf(init.headers), body: requestBody, dispatcher: agent, signal: own.signal }).then((res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (Array.isArray(value)) for (const v of value) headers.append(name, v);
        else if (value !== undefined) headers.set(name, value);
      }
      const status = res.statusCode;
      const statusText = STATUS_CODES[status] ?? '';
      // Our own stop (the limit): the body's "aborted" that follows is ours, not news for anyone.
      const stop = () => {
        res.body.on('error', () => undefined);
        own.abort();
      };
      const tooLarge = (what: 'reply' | 'compressed reply' | 'event') => {
        done();
        stop();
        reject(new ReplyTooLargeError(url, limit, what));
      };
      const encoding = String(res.headers['content-encoding'] ?? '');
      const declared = Number(res.headers['content-length']);
      if (declared > limit && !encoding) return tooLarge('reply');
      const decodedBody = decoded(res.body, encoding, headers, limit, () => tooLarge('compressed reply'));
      if ((headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'text/event-stream') {
        const forwardError = (err: Error) => body.destroy(err);
        const body: Readable = decodedBody.pipe(
          new EventStreamBound({
            limit,
            onExceeded: () => {
              decodedBody.off('error', forwardError).on('error', () => undefined);
              stop();
            },
            // A POST's reply ends with an error answer to its request, so the call fails now, saying why.
            replacement: () => {
              const id = method === 'POST' ? requestIdOf(requestBody) : undefined;
              return id === undefined ? undefined : errorAnswerEvent(id, new ReplyTooLargeError(url, limit, 'event').message);
            },
            error: () => new ReplyTooLargeError(url, limit, 'event'),
          }),
        );
        decodedBody.once('error', forwardError);
        // The stream ends when the server ends it or the signal aborts (the request is aborted then).
        body.once('close', done);
        const live = (from: Readable) => {
          const streamed = new Response(Readable.toWeb(from) as ReadableStream<Uint8Array>, { status, statusText, headers });
          Object.defineProperty(streamed, 'url', { value: url });
          resolve(streamed);
        };
        // The GET stream is the SDK's as it comes; a POST's reply may be just its answer (event-stream-reply.ts).
        if (method !== 'POST') return live(body);
        return readEventStreamReply(
          body,
          (json) => {
            headers.set('content-type', 'application/json');
            try {
              resolve(whole(url, init, asResponse(new WholeResponse(status, statusText, headers, url, json)), json));
            } catch (err) {
              reject(err);
            }
          },
          live,
        );
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const onChunk = (c: Buffer) => {
        size += c.length;
        if (size <= limit) return void chunks.push(c);
        decodedBody.off('data', onChunk);
        chunks.length = 0;
        tooLarge('reply');
      };
      decodedBody.on('data', onChunk);
      decodedBody.once('error', failed);
      decodedBody.once('end', () => {
        done();
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve(whole(url, init, asResponse(new WholeResponse(status, statusText, headers, url, text)), text));
        } catch (err) {
          reject(err);
        }
      });
    }, failed);
  });
}

/**
 * A compressed reply (a server may compress without being asked) is inflated, as fetch does. The
 * compressed bytes are held to the limit too (the inflated ones are counted by the reader).
 */
function decoded(body: Readable, contentEncoding: string, headers: Headers, limit: number, tooLarge: () => void): Readable {
  const encoding = contentEncoding.trim().toLowerCase();
  const inflate =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!inflate) return body;
  headers.delete('content-encoding');
  headers.delete('content-length');
  body.once('error', (err) => inflate.destroy(err));
  let raw = 0;
  body.on('data', (c: Buffer) => {
    raw += c.length;
    if (raw > limit) tooLarge();
  });
  return body.pipe(inflate);
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}
