// Shapes a tools/call result into msg.payload as the node's `output` setting asks, and lifts
// image/audio content out as Buffers so flows can save or play them without base64 handling.
import type { CallToolResult } from '../protocol/sdk';

export type OutputMode = 'auto' | 'content' | 'text';

export interface ToolFile {
  mimeType: string;
  data: Buffer;
}

export function resultPayload(result: CallToolResult, mode: OutputMode): unknown {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  const texts = content.filter((c) => c.type === 'text').map((c) => c.text ?? '');
  if (mode === 'content') return content;
  if (mode === 'text') return texts.join('\n');
  // auto: structuredContent, else a single text item parsed as JSON, else text, else the content array
  if (result.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
  if (content.length === 1 && texts.length === 1) {
    const parsed = tryJson(texts[0]);
    return parsed === undefined ? texts[0] : parsed;
  }
  if (texts.length > 0 && texts.length === content.length) return texts.join('\n');
  return content;
}

export function resultFiles(result: CallToolResult): ToolFile[] {
  const files: ToolFile[] = [];
  // Read loosely: a lenient read may keep blocks the SDK's types do not describe.
  type LooseBlock = { type?: unknown; data?: unknown; mimeType?: string; resource?: { blob?: unknown; mimeType?: string } };
  for (const c of (result.content ?? []) as LooseBlock[]) {
    if ((c.type === 'image' || c.type === 'audio') && typeof c.data === 'string') {
      files.push({ mimeType: c.mimeType ?? 'application/octet-stream', data: Buffer.from(c.data, 'base64') });
    } else if (c.type === 'resource' && typeof c.resource?.blob === 'string') {
      files.push({ mimeType: c.resource.mimeType ?? 'application/octet-stream', data: Buffer.from(c.resource.blob, 'base64') });
    }
  }
  return files;
}

/** The text a tool error carries, for error messages and for the model. */
export function resultText(result: CallToolResult): string {
  return ((result.content ?? []) as Array<{ type: string; text?: string }>)
    .filter((c) => c.type === 'text')
    .map((c) => c.text ?? '')
    .join('\n');
}

const JSON_START = /^[{["\-0-9]/;

/** Any JSON value counts (the call-tool help: "a single text item parsed as JSON"), so a device's "true" becomes true. */
function tryJson(text: string): unknown {
  const t = text.trim();
  if (!t) return undefined;
  if (t === 'true' || t === 'false' || t === 'null') return JSON.parse(t);
  // Most answers are prose: a failed JSON.parse (a thrown SyntaxError) cost ~50 µs per call.
  if (!JSON_START.test(t)) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}
