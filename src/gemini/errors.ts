// Gemini failures as errors a person can act on: HTTP status plus Gemini's own message. The SDK puts
// the response body into ApiError.message as JSON, and wraps it a second time when the body came
// with a non-JSON content type (streaming errors arrive as text/event-stream), so we unwrap up to
// two levels. The API key is scrubbed from every text we build, whatever the server echoed.
import { McpNodeError, errorMessage, rootCause } from '../errors';
import { secrets } from '../secrets';
import type { Usage } from './types';

export interface GeminiErrorContext {
  secrets: Array<string | undefined>;
  timeoutMs?: number;
  /** What the request was aimed at, named when the endpoint cannot be reached. */
  endpoint?: string;
}

interface GoogleError {
  code?: number;
  status?: string;
  message?: string;
}

/** Pulls Gemini's `{error:{code,status,message}}` out of an SDK ApiError message, one or two JSON levels deep. */
export function unwrapGeminiMessage(raw: string): GoogleError {
  let current: GoogleError = { message: raw };
  for (let depth = 0; depth < 3; depth++) {
    const text = current.message ?? '';
    const start = text.indexOf('{');
    if (start < 0) break;
    let parsed: { error?: unknown } | null;
    try {
      parsed = JSON.parse(text.slice(start));
    } catch {
      break;
    }
    const inner = (parsed && typeof parsed === 'object' ? (parsed.error ?? parsed) : undefined) as
      { code?: unknown; status?: unknown; message?: unknown } | undefined;
    if (!inner || typeof inner.message !== 'string') break;
    current = {
      // The outer wrapper the SDK invents carries the HTTP reason phrase ("Not Found") as status;
      // the inner body has Google's canonical code (NOT_FOUND), so inner values win.
      code: typeof inner.code === 'number' ? inner.code : current.code,
      status: typeof inner.status === 'string' ? inner.status : current.status,
      message: inner.message,
    };
  }
  return current;
}

/** The package's one scrubber (src/secrets.ts), with the request's own key added. */
export function scrub(text: string, extra: Array<string | undefined>): string {
  return secrets.scrub(text, extra);
}

const SHORT: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  429: 'quota exceeded',
  500: 'server error',
  503: 'overloaded',
};

/** Turns whatever the SDK threw into an McpNodeError naming the Gemini status and message. */
export function toGeminiError(err: unknown, ctx: GeminiErrorContext): McpNodeError {
  const e = err as { name?: string; status?: unknown; message?: string };
  if (e && (e.name === 'AbortError' || e.name === 'TimeoutError')) {
    if (ctx.timeoutMs !== undefined && e.name === 'TimeoutError') {
      return new McpNodeError(`Gemini did not answer within ${+(ctx.timeoutMs / 1000).toFixed(1)} s`, 'timeout', 'GEMINI_TIMEOUT');
    }
    return new McpNodeError('Gemini request cancelled', 'cancelled', 'GEMINI_CANCELLED');
  }
  if (e && typeof e.status === 'number' && e.name === 'ApiError') {
    const g = unwrapGeminiMessage(e.message ?? '');
    const status = e.status;
    const text = scrub(`Gemini API error ${status}${g.status ? ' ' + g.status : ''}: ${g.message ?? 'no message'}`, ctx.secrets);
    return new McpNodeError(text, `${status} ${SHORT[status] ?? 'error'}`, `GEMINI_HTTP_${status}`, {
      httpStatus: status,
      geminiStatus: g.status,
    });
  }
  const where = ctx.endpoint ? ` at ${ctx.endpoint}` : '';
  if (e && e.name === 'SyntaxError') {
    // The request went through and something answered, just not with Gemini's JSON.
    const text = scrub(
      `Gemini${where} answered, but the answer is unreadable (${errorMessage(err)}): check that the base URL points at the Gemini API and not at a proxy or web page`,
      ctx.secrets,
    );
    return new McpNodeError(text, 'unreadable answer', 'GEMINI_UNREADABLE');
  }
  const cause = rootCause(err);
  const text = scrub(`Cannot reach Gemini${where}: ${cause === errorMessage(err) ? cause : `${errorMessage(err)} (${cause})`}${advice(cause)}`, ctx.secrets);
  return new McpNodeError(text, cause.length > 30 ? 'unreachable' : cause, 'GEMINI_UNREACHABLE');
}

function advice(cause: string): string {
  if (cause === 'ENOTFOUND' || cause === 'EAI_AGAIN') return ': the host name does not resolve, check the base URL and DNS';
  if (cause === 'ECONNREFUSED') return ': nothing listens there, check the base URL';
  if (cause === 'ECONNRESET' || cause.startsWith('UND_ERR')) return ': the connection was cut, try again';
  return '';
}

/** Raised when the model still calls functions after `maxSteps` model turns; carries the partial trace. */
export class MaxStepsError extends McpNodeError {
  constructor(
    maxSteps: number,
    pending: string[],
    readonly trace: { steps: unknown[]; usage: Usage },
  ) {
    super(
      `Gemini still wanted to call ${pending.join(', ')} after ${maxSteps} model turns (maxSteps); the trace so far is in msg.gemini`,
      'max steps',
      'GEMINI_MAX_STEPS',
      { maxSteps },
    );
  }
}
