// A `fetch` for the MCP SDK's HTTP transports that gives every request its own AbortSignal.
// Why: the Streamable HTTP transport hands its one long-lived signal to every request, and Node's
// fetch (undici) adds an abort listener to that signal per request that is only removed when the
// Request is garbage collected; after 1,500 of them Node prints MaxListenersExceededWarning, over
// and over on a busy session (13,958 lines in 40,000 calls). Here the caller's signal gets ONE
// listener however many requests run on it, that listener aborts the requests still open, and a
// request leaves the open set as soon as it ends: fetch failed, body read to the end, body
// cancelled or errored, or (as a last resort) the response garbage collected unread.
// Replies are held to the server's reply limit here too (./reply-limit.ts).
import { Readable } from 'node:stream';
import { WholeResponse, asResponse } from './whole-response';
import { EventStreamBound } from './event-stream-bound';
import { DEFAULT_MAX_REPLY_MB, ReplyTooLargeError, boundedText, bytesOfMB } from './reply-limit';

type Fetch = typeof fetch;

/** What to do for each request still open on a caller signal; the signal's one listener runs them. */
const openRequests = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `onAbort` when `signal` aborts, through one listener per signal however many requests wait
 * on it. Returns the release: call it when the request ends.
 */
export function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  let open = openRequests.get(signal);
  if (!open) {
    const set = new Set<() => void>();
    open = set;
    openRequests.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        for (const abort of set) abort();
        set.clear();
      },
      { once: true },
    );
  }
  const entry = () => onAbort();
  open.add(entry);
  return () => open.delete(entry);
}

/** Drops a request from its signal's open set when a response nobody read is collected. */
const unreadResponses = new FinalizationRegistry<() => void>((release) => release());

/**
 * What becomes of a reply that is not an event stream, read whole: `text` is its body. The default
 * hands on a copy; the Streamable HTTP transport checks it is an MCP answer (./readable-reply-fetch.ts).
 */
export type WholeReply = (input: string | URL | Request, init: RequestInit | undefined, response: Response, text: string) => Response;

export const copyReply: WholeReply = (_input, _init, response, text) => replyCopy(response, text);

/** A response with the same status, headers and URL whose body is `text`. */
export function replyCopy(response: Response, text: string): Response {
  return asResponse(new WholeResponse(response.status, response.statusText, response.headers, response.url, text));
}

export function perRequestSignalFetch(base: Fetch = fetch, whole: WholeReply = copyReply, limit = bytesOfMB(DEFAULT_MAX_REPLY_MB)): Fetch {
  return async (input, init) => {
    const callerSignal = init?.signal ?? undefined;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const tooLarge = () => new ReplyTooLargeError(url, limit, 'reply');
    if (!callerSignal) {
      const response = await base(input, init);
      if (!response.body) return response;
      if (isEventStream(response)) return withEndHook(response, () => undefined, url, limit);
      return whole(input, init, response, await boundedText(response, limit, tooLarge));
    }
    const own = new AbortController();
    if (callerSignal.aborted) own.abort(callerSignal.reason);
    const release = whenAborted(callerSignal, () => own.abort(callerSignal.reason));
    let response: Response;
    try {
      response = await base(input, { ...init, signal: own.signal });
    } catch (err) {
      release();
      throw err;
    }
    if (!response.body || (response.status >= 300 && response.status < 400)) {
      release();
      return response;
    }
    // Anything but an event stream is one short reply: read it now and let go of the request (a
    // wrapping stream per call cost more than the call's own JSON).
    if (!isEventStream(response)) {
      let text: string;
      try {
        text = await boundedText(response, limit, tooLarge);
      } finally {
        release();
      }
      return whole(input, init, response, text);
    }
    const wrapped = withEndHook(response, release, url, limit);
    unreadResponses.register(wrapped, release);
    return wrapped;
  };
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === 'text/event-stream';
}

/**
 * The same event-stream response, each event held to `limit`, whose body calls `onEnd` once it is
 * finished, cancelled or failed.
 */
function withEndHook(response: Response, onEnd: () => void, url: string, limit: number): Response {
  const source = Readable.fromWeb(response.body! as import('node:stream/web').ReadableStream<Uint8Array>);
  const bounded = source.pipe(
    new EventStreamBound({
      limit,
      onExceeded: () => source.destroy(),
      replacement: () => undefined,
      error: () => new ReplyTooLargeError(url, limit, 'event'),
    }),
  );
  source.once('error', (err) => bounded.destroy(err));
  bounded.once('close', () => source.destroy());
  const reader = (Readable.toWeb(bounded) as ReadableStream<Uint8Array>).getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          onEnd();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        onEnd();
        controller.error(err);
      }
    },
    cancel(reason) {
      onEnd();
      return reader.cancel(reason);
    },
  });
  const wrapped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  // The SDK reads `url` to describe redirects; a constructed Response has none of its own.
  Object.defineProperty(wrapped, 'url', { value: response.url });
  return wrapped;
}
