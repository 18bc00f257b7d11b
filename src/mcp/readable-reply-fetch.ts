// A `fetch` for the Streamable HTTP transport that checks a reply can be read before the SDK parses
// it. Why: a proxy's HTML page or a broken server's JSON otherwise surfaces as the bare parser text
// (`Expected double-quoted property name in JSON at position 1`) or `Unexpected content type:
// text/html`, with no URL and nothing of what came; this error names both.
import { McpNodeError } from '../errors';
import { shorten } from '../text';

type Fetch = typeof fetch;
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

export function readableReplyFetch(base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || response.status !== 200 || !carriesRequest(init?.body)) return response;
    const contentType = response.headers.get('content-type') ?? '';
    const essence = contentType.split(';')[0].trim().toLowerCase();
    if (essence === 'text/event-stream') return response;
    const url = urlOf(input);
    const text = await response.text();
    if (essence !== 'application/json') throw new UnreadableReplyError(url, contentType, text, 'not JSON or an event stream');
    try {
      JSON.parse(text);
    } catch (err) {
      throw new UnreadableReplyError(url, contentType, text, `invalid JSON: ${(err as Error).message}`);
    }
    const copy = new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    Object.defineProperty(copy, 'url', { value: response.url });
    return copy;
  };
}

/** Only a POST carrying a request waits for an answer; notifications may get any body. */
function carriesRequest(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    const sent = JSON.parse(body) as unknown;
    return (Array.isArray(sent) ? sent : [sent]).some((m) => m && typeof m === 'object' && 'method' in m && 'id' in m);
  } catch {
    return false;
  }
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
