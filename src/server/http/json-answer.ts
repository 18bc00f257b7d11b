// A JSON answer that is a Response to whoever holds it, without a web stream until one is asked for.
// The MCP server SDK answers every JSON-reply request with `Response.json()`, which makes undici's
// Response, its Headers and a ReadableStream around the text; the endpoint then read that stream back
// to write the bytes to Node's socket (together 7 % of the endpoint's CPU per call in bench:endpoint's
// profile). The build points those two `Response.json()` calls here (scripts/sdk-patches.mjs), and
// the bridge writes the answer's text (`JsonAnswer.unread`) straight to the socket. Anything else a Response has (its
// body, text(), clone(), …) is answered by a real Response made on first use, the same idea as
// RequestHead for the request side; `instanceof Response` holds either way.
import { answerTheRestWith } from './lazy-web-object';

// Registered symbols: should the bundle ever hold two copies of this file (the SDK's and the
// bridge's import), each still reads the other's answers.
const real = Symbol.for('mcp-gemini.json-answer.response');
const text = Symbol.for('mcp-gemini.json-answer.text');
const plain = Symbol.for('mcp-gemini.json-answer.plain-headers');
const built = Symbol.for('mcp-gemini.json-answer.headers');

type HeadersInit = Record<string, string>;

export class JsonAnswer {
  private [real]?: Response;
  private [built]?: Headers;
  private readonly [text]: string;
  private readonly [plain]: HeadersInit;

  constructor(
    json: string,
    readonly status: number,
    headers: HeadersInit,
  ) {
    this[text] = json;
    this[plain] = headers;
  }

  get statusText(): string {
    return '';
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get headers(): Headers {
    return (this[built] ??= new Headers(this[plain]));
  }

  /** The full Response, built the first time something beyond status and headers is asked for. */
  static full(answer: JsonAnswer): Response {
    return (answer[real] ??= new Response(answer[text], { status: answer.status, headers: answer.headers }));
  }

  /**
   * The answer's text and headers for writing it out directly, or undefined when it is not a
   * JsonAnswer or something already asked for more than its head (then the Response speaks for it).
   */
  static unread(response: Response): { body: string; headers: Headers | HeadersInit } | undefined {
    const answer = response as unknown as JsonAnswer;
    if (typeof answer[text] !== 'string' || answer[real]) return undefined;
    return { body: answer[text], headers: answer[built] ?? answer[plain] };
  }
}

// Everything else a Response has is answered by the full one.
answerTheRestWith(JsonAnswer, Response, ['status', 'statusText', 'ok', 'headers'], (x) => JsonAnswer.full(x));

/**
 * What the patched SDK calls instead of `Response.json(data, init)`: the same answer (the data as
 * JSON, `content-type: application/json` unless given, the status), as a JsonAnswer.
 */
export function jsonAnswer(data: unknown, init: { status?: number; headers?: HeadersInit } = {}): Response {
  // Only plain header objects are carried as they are; anything else is the SDK's own way.
  if (init.headers !== undefined && Object.getPrototypeOf(init.headers) !== Object.prototype) return Response.json(data, init);
  const json = JSON.stringify(data);
  if (json === undefined) throw new TypeError('Value is not JSON serializable');
  const status = init.status ?? 200;
  if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
  const headers: HeadersInit = { ...init.headers };
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  return new JsonAnswer(json, status, headers) as unknown as Response;
}
