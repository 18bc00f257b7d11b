// What a test scripts the fake to answer, one step per model request.
export interface CallSpec {
  name: string;
  args?: Record<string, unknown>;
}

export type Step =
  | { kind: 'text'; text: string; chunks?: string[]; finishReason?: string }
  | { kind: 'calls'; calls: CallSpec[]; ids?: boolean | string[]; signature?: string | false; text?: string; splitFinal?: boolean }
  | { kind: 'blocked'; reason: string }
  | { kind: 'raw'; body: unknown }
  | { kind: 'audio'; data: Buffer; mimeType: string }
  | { kind: 'error'; status: number; googleStatus: string; message: string; details?: unknown[] }
  | { kind: 'midStreamError'; status: number; googleStatus: string; message: string }
  /** 200 with the given body text as the answer: not JSON (a proxy, a truncated answer). */
  | { kind: 'unreadable'; body: string }
  /** Streaming: a text chunk every `everyMs` that never ends; not streaming: no answer at all. */
  | { kind: 'endless'; everyMs: number };

export type ScriptEntry = (Step & { delayMs?: number }) | ((request: RecordedRequest) => Step & { delayMs?: number });

export interface RecordedRequest {
  version: string;
  model: string;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  /** 400 texts of the strict rules this request broke (it was answered with the first). */
  violations: string[];
  /** The client closed the connection before a (delayed) answer was sent. */
  aborted?: boolean;
}

export const reply = {
  /** A final text answer; when streamed, sent in `chunks` (default: two halves). */
  text: (text: string, options: { chunks?: string[]; finishReason?: string } = {}): Step => ({ kind: 'text', text, ...options }),
  /** Function calls in one model turn. gemini-3* models get ids and a signature on the first call unless told otherwise. */
  calls: (calls: CallSpec[], options: { ids?: boolean | string[]; signature?: string | false; text?: string; splitFinal?: boolean } = {}): Step => ({
    kind: 'calls',
    calls,
    ...options,
  }),
  call: (name: string, args: Record<string, unknown> = {}): Step => ({ kind: 'calls', calls: [{ name, args }] }),
  blocked: (reason = 'SAFETY'): Step => ({ kind: 'blocked', reason }),
  raw: (body: unknown): Step => ({ kind: 'raw', body }),
  /** A TTS answer: 16-bit LE PCM labelled as Gemini 2.5/3.1 TTS labels it (or any mimeType, e.g. audio/wav). */
  audio: (data: Buffer, mimeType = 'audio/L16;codec=pcm;rate=24000'): Step => ({ kind: 'audio', data, mimeType }),
  error: (status: number, googleStatus: string, message: string, details?: unknown[]): Step => ({ kind: 'error', status, googleStatus, message, details }),
  midStreamError: (status: number, googleStatus: string, message: string): Step => ({ kind: 'midStreamError', status, googleStatus, message }),
  unreadable: (body = '{"candidates": [ {"content": oops'): Step => ({ kind: 'unreadable', body }),
  endless: (everyMs = 50): Step => ({ kind: 'endless', everyMs }),
};
