// Prompts a flow offers (`mcp-prompt-in`): the node's settings turned into a prompt definition,
// checked, and the flow's answer (`mcp-prompt-out`'s msg.payload) turned into prompts/get's result.
// Throws with what to fix.
import type { GetPromptResult, Prompt, PromptMessage } from '@modelcontextprotocol/server';
import { TOOL_NAME } from './tool-in-settings-declaration';
import type { WaitingRequest } from '../calls/pending-requests';
import { textSetting } from '../../settings-values';

/** One prompts/get as the flow sees it. */
export interface PromptRequest extends WaitingRequest {
  prompt: string;
  arguments: Record<string, string>;
  requestId: string | number;
  client: { name?: string; version?: string };
}

export interface FlowPrompt {
  owner: string;
  definition: Prompt;
  get(request: PromptRequest): Promise<GetPromptResult>;
}

export interface FlowPromptSettings {
  definition: Prompt;
  timeoutMs: number;
}

/** Text only: a number where a name or URI belongs is a mistake in the flow, not a name. */
const text = (v: unknown) => (typeof v === 'string' && textSetting(v)) || undefined;

/**
 * Arguments as the dialog holds them: `room, day?` (a `?` marks an optional one) or a JSON array of
 * `{name, description, required}`.
 */
export function promptArguments(value: unknown): NonNullable<Prompt['arguments']> {
  if (value === undefined || value === null || value === '') return [];
  let list: unknown = value;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[')) {
      try {
        list = JSON.parse(trimmed);
      } catch (err) {
        throw new Error(`arguments are not valid JSON (${(err as Error).message})`, { cause: err });
      }
    } else {
      list = trimmed
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => (s.endsWith('?') ? { name: s.slice(0, -1).trim(), required: false } : { name: s, required: true }));
    }
  }
  if (!Array.isArray(list)) throw new Error('arguments must be a list such as "room, day?" or a JSON array of {name, description, required}');
  const seen = new Set<string>();
  return list.map((a: unknown) => {
    const item = (typeof a === 'string' ? { name: a } : a) as { name?: unknown; description?: unknown; required?: unknown };
    const name = text(item?.name);
    if (!name || !/^[A-Za-z0-9_.-]{1,64}$/.test(name))
      throw new Error(`argument name "${String(item?.name ?? '')}" must be 1-64 letters, digits, "_", "." or "-"`);
    if (seen.has(name)) throw new Error(`argument "${name}" is listed twice`);
    seen.add(name);
    const description = text(item.description);
    return { name, ...(description ? { description } : {}), required: item.required !== false };
  });
}

export function flowPromptSettings(def: Record<string, unknown>, defaultTimeoutS: number): FlowPromptSettings {
  const name = text(def.name) ?? '';
  if (!TOOL_NAME.test(name)) throw new Error(`prompt name "${name}" must be 1-128 letters, digits, "_", "." or "-"`);
  const title = text(def.title);
  const description = text(def.description);
  const args = promptArguments(def.arguments);
  const seconds = Number(def.timeout);
  return {
    definition: { name, ...(title ? { title } : {}), ...(description ? { description } : {}), ...(args.length ? { arguments: args } : {}) },
    timeoutMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : defaultTimeoutS) * 1000,
  };
}

/** What a prompts/get must carry: every required argument, and only declared ones. */
export function promptArgumentProblem(definition: Prompt, given: Record<string, unknown>): string | undefined {
  const declared = definition.arguments ?? [];
  const missing = declared.filter((a) => a.required && (given[a.name] === undefined || given[a.name] === '')).map((a) => a.name);
  if (missing.length) return `prompt ${definition.name} needs ${missing.join(', ')}`;
  const unknown = Object.keys(given).filter((k) => !declared.some((a) => a.name === k));
  if (unknown.length) return `prompt ${definition.name} has no argument ${unknown.join(', ')}`;
  return undefined;
}

function messageOf(item: unknown, index: number): PromptMessage {
  if (typeof item === 'string') return { role: 'user', content: { type: 'text', text: item } };
  const m = item as { role?: unknown; content?: unknown } | null;
  if (!m || typeof m !== 'object' || (m.role !== 'user' && m.role !== 'assistant')) {
    throw new Error(`message ${index + 1} needs role "user" or "assistant" and content (a string or an MCP content block)`);
  }
  if (typeof m.content === 'string') return { role: m.role, content: { type: 'text', text: m.content } };
  const content = m.content as { type?: unknown } | null;
  if (!content || typeof content !== 'object' || typeof content.type !== 'string') {
    throw new Error(`message ${index + 1}: content must be a string or an MCP content block ({type: "text", text})`);
  }
  return { role: m.role, content: content as PromptMessage['content'] };
}

/**
 * msg.payload → the prompt's messages: a string is one user message; an array holds strings or
 * `{role, content}`; an object `{description, messages}` is taken as the result itself.
 */
export function promptResultFromReply(payload: unknown, description?: unknown): GetPromptResult {
  const shaped =
    payload && typeof payload === 'object' && !Array.isArray(payload) && !Buffer.isBuffer(payload) ? (payload as Record<string, unknown>) : undefined;
  const list = shaped ? shaped.messages : payload;
  const items = Array.isArray(list) ? list : typeof list === 'string' ? [list] : undefined;
  if (!items) throw new Error('msg.payload must be the prompt text, an array of messages, or {messages: [...]}');
  const desc = text(shaped?.description) ?? text(description);
  return { ...(desc ? { description: desc } : {}), messages: items.map(messageOf) };
}
