// The Streamable HTTP transport checks each reply before the SDK parses it (its fetch reads every
// reply that is not a stream whole: ./per-request-signal-fetch.ts). Why: a proxy's HTML page or a
// broken server's JSON otherwise surfaces as the bare parser text (`Expected double-quoted property
// name in JSON at position 1`) or `Unexpected content type: text/html`, with no URL and nothing of
// what came; this error names both.
import { McpNodeError } from '../../errors';
import { shorten } from '../../text';
import { replyCopy, type WholeReply } from './per-request-signal-fetch';

const SHOWN_BYTES = 80;

export class UnreadableReplyError extends McpNodeError {
  constructor(url: string, contentType: string, body: string, problem: string) {
    super(
      `${url}: the server's reply is not an MCP answer (${problem}; content type ${contentType || 'none'}, ` +
        `starts with ${JSON.stringify(firstBytes(body))}): check that the URL is the server's MCP endpoint and not a web page or proxy`,
      'unreadable reply',
      'UNREADABLE_REPLY',
      { contentType },
    );
  }
}

/**
 * A reply read whole (./per-request-signal-fetch.ts) checked before the SDK parses it. The copy
 * handed on answers `json()` with the value parsed here, so the body is parsed once, not twice.
 */
export const readableReply: WholeReply = (input, init, response, text) => {
  const copy = replyCopy(response, text);
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || response.status !== 200 || !carriesRequest(init?.body)) return copy;
  const contentType = response.headers.get('content-type') ?? '';
  const essence = contentType.split(';')[0].trim().toLowerCase();
  const url = urlOf(input);
  if (essence !== 'application/json') throw new UnreadableReplyError(url, contentType, text, 'not JSON or an event stream');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UnreadableReplyError(url, contentType, text, `invalid JSON: ${(err as Error).message}`);
  }
  Object.defineProperty(copy, 'json', { value: () => Promise.resolve(parsed) });
  return copy;
};

/** Only a POST carrying a request waits for an answer; notifications may get any body. */
function carriesRequest(body: unknown): boolean {
  // The SDK sends JSON.stringify(message): a request has both keys. A notification that merely
  // mentions them is harmless here: it is answered 202, which is not checked.
  return typeof body === 'string' && body.includes('"method"') && body.includes('"id"');
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function firstBytes(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return shorten(flat, SHOWN_BYTES);
}
