// Prompts and resources (MCP server features beside tools): the shapes the nodes and the Gemini
// loop use, and what a provider offers for them. Additive to ToolProvider: a provider that serves
// tools only (an ESP32 device) simply lacks these methods, and `promptsAndResources()` says so.
import type { GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import { McpNodeError } from '../errors';
import type { ToolProvider } from './call/tool-provider';

export type { GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate };

export interface ListOptions {
  timeoutMs?: number;
}

export interface ResourceUpdate {
  uri: string;
  /** Everything else the server put into the notification's params (title, _meta …). */
  [key: string]: unknown;
}

export interface PromptsAndResources {
  listPrompts(options?: ListOptions): Promise<{ prompts: Prompt[]; pages: number }>;
  /** Prompt arguments are strings on the wire; other values are converted before sending. */
  getPrompt(name: string, args?: Record<string, unknown>, options?: ListOptions): Promise<GetPromptResult>;
  listResources(options?: ListOptions): Promise<{ resources: Resource[]; pages: number }>;
  listResourceTemplates(options?: ListOptions): Promise<{ resourceTemplates: ResourceTemplate[]; pages: number }>;
  readResource(uri: string, options?: ListOptions): Promise<ReadResourceResult>;
  /**
   * Calls `onUpdate` for every notifications/resources/updated about `uri` until the returned
   * function is called (which unsubscribes once the last listener of that uri is gone).
   */
  subscribeResource(uri: string, onUpdate: (update: ResourceUpdate) => void, options?: ListOptions): Promise<() => Promise<void>>;
}

function hasPromptsAndResources(p: ToolProvider): p is ToolProvider & PromptsAndResources {
  return typeof (p as Partial<PromptsAndResources>).getPrompt === 'function';
}

/** The provider's prompt/resource side, or an error that says this kind of server has none. */
export function promptsAndResources(p: ToolProvider): PromptsAndResources {
  if (hasPromptsAndResources(p)) return p;
  const who = p.identity().name || p.identity().id;
  throw new McpNodeError(
    `${who} serves tools only (ESP32 devices have no prompts or resources); use an http, sse or stdio mcp-server`,
    'no prompts/resources',
    'NOT_SUPPORTED',
  );
}

/** MCP prompt arguments are a string map; numbers and booleans are written as text, objects as JSON. */
export function promptArguments(args: unknown): Record<string, string> {
  if (args === undefined || args === null || args === '') return {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new McpNodeError('Prompt arguments must be an object of name: value pairs', 'bad arguments', 'BAD_ARGUMENTS');
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    if (v === undefined || v === null) continue;
    out[k] = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out;
}

/**
 * A prompt's messages as one text: every text item, and the text of embedded text resources, in
 * order, separated by blank lines. Images and audio have no text and are left out.
 */
export function promptText(result: Pick<GetPromptResult, 'messages'>): string {
  const texts: string[] = [];
  for (const m of result.messages ?? []) {
    const content = (m as { content?: unknown }).content;
    for (const c of Array.isArray(content) ? content : [content]) {
      const item = c as { type?: string; text?: unknown; resource?: { text?: unknown } } | undefined;
      if (item?.type === 'text' && typeof item.text === 'string') texts.push(item.text);
      else if (item?.type === 'resource' && typeof item.resource?.text === 'string') texts.push(item.resource.text);
    }
  }
  return texts.join('\n\n');
}

/** One item of a resources/read result, as a flow wants it: a string, or a Buffer for a blob. */
export interface ResourceContent {
  uri: string;
  mimeType?: string;
  value: string | Buffer;
}

export function resourceContents(result: ReadResourceResult): ResourceContent[] {
  return (result.contents ?? []).map((c: { uri?: unknown; mimeType?: unknown; blob?: unknown; text?: unknown }) => ({
    uri: String(c.uri ?? ''),
    ...(typeof c.mimeType === 'string' ? { mimeType: c.mimeType } : {}),
    value: typeof c.blob === 'string' ? Buffer.from(c.blob, 'base64') : typeof c.text === 'string' ? c.text : '',
  }));
}
