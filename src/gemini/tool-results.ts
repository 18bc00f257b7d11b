// MCP CallToolResult → what the model reads in `functionResponse.response`. Gemini wants an object:
// `{output: …}` on success, `{error: …}` on failure. We hand over the most direct form of the result
// (structuredContent, else the JSON in a single text item, else the text) so the model does not
// have to dig through MCP's content array.
import type { CallToolResult } from '../mcp/tool-provider';
import { errorMessage } from '../errors';
import type { CallOutcome } from './types';

function contentText(result: CallToolResult): string | undefined {
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content.filter((c: any) => c?.type === 'text').map((c: any) => String(c.text));
  if (texts.length === 0) return undefined;
  return texts.join('\n');
}

/** The value the model sees for a successful call. */
export function resultValue(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 1 && (content[0] as any)?.type === 'text') {
    const text = String((content[0] as any).text);
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  const text = contentText(result);
  if (text !== undefined && content.every((c: any) => c?.type === 'text')) return text;
  // Mixed or binary content: describe what Gemini cannot read inline instead of dumping base64.
  return content.map((c: any) =>
    c?.type === 'text' ? { type: 'text', text: c.text } : { type: c?.type, mimeType: c?.mimeType, note: 'binary content omitted' },
  );
}

export function outcomeFromResult(result: CallToolResult): CallOutcome {
  if (result.isError) {
    return { response: { error: contentText(result) ?? 'The tool reported an error' }, isError: true };
  }
  return { response: { output: resultValue(result) }, isError: false };
}

export function outcomeFromError(err: unknown): CallOutcome {
  return { response: { error: errorMessage(err) }, isError: true };
}

/** True when a value looks like an MCP CallToolResult (a flow returning an mcp-call-tool result as is). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return !!value && typeof value === 'object' && Array.isArray((value as any).content);
}
