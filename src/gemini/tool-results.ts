// MCP CallToolResult → what the model reads in `functionResponse.response`. Gemini wants an object:
// `{output: …}` on success, `{error: …}` on failure. The output is the result as mcp-call-tool's
// "auto" mode shapes it (structuredContent, else the JSON in a single text item, else the text), so
// the model does not have to dig through MCP's content array; binary items are described, not inlined.
import type { CallToolResult } from '../mcp/call/tool-provider';
import { resultPayload, resultText } from '../mcp/call/tool-result';
import { errorMessage } from '../errors';
import type { CallOutcome } from './types';

function resultValue(result: CallToolResult): unknown {
  const value = resultPayload(result, 'auto');
  if (!Array.isArray(value) || value !== result.content) return value;
  return value.map((c: { type?: string; text?: string; mimeType?: string; resource?: { mimeType?: string } } | null) =>
    c?.type === 'text' ? { type: 'text', text: c.text } : { type: c?.type, mimeType: c?.mimeType ?? c?.resource?.mimeType, note: 'binary content omitted' },
  );
}

export function outcomeFromResult(result: CallToolResult): CallOutcome {
  if (result.isError) return { response: { error: resultText(result) || 'The tool reported an error' }, isError: true };
  return { response: { output: resultValue(result) }, isError: false };
}

export function outcomeFromError(err: unknown): CallOutcome {
  return { response: { error: errorMessage(err) }, isError: true };
}

/** True when a value looks like an MCP CallToolResult (a flow handing back an mcp-call-tool result as is). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return !!value && typeof value === 'object' && Array.isArray((value as { content?: unknown }).content);
}
