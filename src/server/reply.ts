// What a flow's answer becomes on the wire (nodes/mcp-tool-out/help.html): a string is text; an object is
// structuredContent plus its JSON as text (an array is wrapped as {items}: structuredContent must
// be an object); a Buffer with an image/* or audio/* type is image/audio content. `content` given
// explicitly (MCP content blocks) is used as it is, for embedded resources and mixed answers.
import type { CallToolResult } from './calls/types';

export interface Reply {
  payload: unknown;
  contentType?: unknown;
  isError?: unknown;
  content?: unknown;
}

/** The error a Catch node hands on: `msg.error` with the node that threw. */
export interface CaughtError {
  message?: unknown;
  source?: { id?: unknown; type?: unknown; name?: unknown };
}

export function resultFromReply(reply: Reply): CallToolResult {
  const result: CallToolResult = { content: [] };
  const { payload } = reply;
  const mime = typeof reply.contentType === 'string' ? reply.contentType.toLowerCase() : '';
  if (Buffer.isBuffer(payload) || payload instanceof Uint8Array) {
    const data = Buffer.from(payload).toString('base64');
    if (mime.startsWith('image/')) result.content.push({ type: 'image', data, mimeType: mime });
    else if (mime.startsWith('audio/')) result.content.push({ type: 'audio', data, mimeType: mime });
    else result.content.push({ type: 'resource', resource: { uri: 'data:payload', mimeType: mime || 'application/octet-stream', blob: data } });
  } else if (typeof payload === 'string') {
    result.content.push({ type: 'text', text: payload });
  } else if (payload !== null && typeof payload === 'object') {
    result.structuredContent = Array.isArray(payload) ? { items: payload } : (payload as Record<string, unknown>);
    result.content.push({ type: 'text', text: JSON.stringify(payload) });
  } else if (payload !== undefined && payload !== null) {
    result.content.push({ type: 'text', text: String(payload) });
  }
  if (Array.isArray(reply.content)) result.content = reply.content as CallToolResult['content'];
  if (reply.isError === true) result.isError = true;
  return result;
}

/** "Error in node "Fetch" (http request 1a2b): timeout": what a caught error tells the client. */
export function caughtErrorText(error: CaughtError): string {
  const source = error.source ?? {};
  const who = source.name
    ? `"${String(source.name)}" (${String(source.type ?? 'node')} ${String(source.id ?? '')})`
    : `${String(source.type ?? 'node')} ${String(source.id ?? '')}`;
  return `Error in node ${who.trim()}: ${String(error.message ?? 'unknown error')}`;
}

/** Catch → mcp-tool-out: the call fails with the error text and the node that raised it. */
export function resultFromCaughtError(error: CaughtError): CallToolResult {
  return { content: [{ type: 'text', text: caughtErrorText(error) }], isError: true };
}
