// Conversation memory: the `contents` of earlier requests, cut to the last N turns. A turn starts at
// a user content that is not a function response (a prompt), so a cut never separates a function
// call from its responses, and never leaves a thought signature without the call it belongs to.
import type { Content } from '@google/genai';
import { inlineMediaPart } from './inline-media';
import { AGENT_SETTINGS } from './agent-settings-declaration';

export const DEFAULT_HISTORY_TURNS = AGENT_SETTINGS.historyTurns.value;

function isPromptTurn(c: Content): boolean {
  return c.role === 'user' && !(c.parts ?? []).some((p) => p.functionResponse);
}

export function trimHistory(contents: Content[], maxTurns: number): Content[] {
  if (maxTurns <= 0) return [];
  const starts: number[] = [];
  contents.forEach((c, i) => {
    if (isPromptTurn(c)) starts.push(i);
  });
  if (starts.length <= maxTurns) return starts.length ? contents.slice(starts[0]) : [];
  return contents.slice(starts[starts.length - maxTurns]);
}

/** Which memory slot a message uses: msg.sessionId, else msg.topic, else "default". */
export function sessionKey(sessionId: unknown, topic: unknown): string {
  for (const v of [sessionId, topic]) {
    if ((typeof v === 'string' && v !== '') || typeof v === 'number') return String(v);
  }
  return 'default';
}

/**
 * The node-context key for a session. Node-RED reads "." and "[" in context keys as property paths,
 * so those are escaped to keep one flat key per session.
 */
export function contextKey(session: string): string {
  return 'gemini_history_' + session.replace(/[%.[\]]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/**
 * `msg.payload` as new user content: a prompt string, a Gemini `contents` array as given, or an
 * audio/image Buffer (type from `contentType` or its header) as one inline part.
 */
export function promptContents(payload: unknown, contentType?: unknown): Content[] | undefined {
  if (Buffer.isBuffer(payload)) {
    const part = inlineMediaPart(payload, contentType);
    return part ? [{ role: 'user', parts: [part] }] : undefined;
  }
  if (typeof payload === 'string') return payload.trim() ? [{ role: 'user', parts: [{ text: payload }] }] : undefined;
  if (Array.isArray(payload) && payload.length > 0 && payload.every((c) => c && typeof c === 'object' && Array.isArray((c as Content).parts))) {
    return (payload as Content[]).map((c) => ({ role: c.role ?? 'user', parts: c.parts }));
  }
  return undefined;
}
