// Mcp-Param-* headers (2026-07-28, SEP-2243): a tool may mark an argument with `x-mcp-header`, and
// the client then repeats that argument's value in an `Mcp-Param-<Name>` HTTP header, so a gateway can
// route on it without reading the body. A server may turn a call without the header away (the server
// SDK does: -32020, HTTP 400). The client SDK mirrors the headers from the tool's definition, which it
// looks up in a tools/list cache of its own; this session pages tools itself, so that cache is empty,
// and each connection's first call to such a tool used to be refused and then answered only after the
// SDK had listed every tool again. The session's own listing is handed to the SDK with each call.
import type { Tool } from '../protocol/sdk';

/** JSON-RPC error code of a call whose Mcp-Param-* headers and body disagree. */
export const HEADER_MISMATCH = -32020;

const NO_DECLARATIONS: Tool['inputSchema'] = Object.freeze({ type: 'object' as const });
const handed = new WeakMap<Tool, Tool>();

/**
 * What the SDK's callTool is told of a listed tool. Only the inputSchema: given an outputSchema, the
 * SDK compiles a validator for it on every call and throws the result away on a mismatch, where the
 * session warns and delivers (session.ts). A schema that declares no header is handed over empty, as
 * the SDK scans the schema it is given on every call. Made once per listed tool.
 */
export function definitionForHeaders(tool: Tool | undefined): Tool | undefined {
  if (!tool) return undefined;
  let definition = handed.get(tool);
  if (!definition) {
    const declares = JSON.stringify(tool.inputSchema ?? {}).includes('"x-mcp-header"');
    definition = { name: tool.name, inputSchema: declares ? tool.inputSchema : NO_DECLARATIONS };
    handed.set(tool, definition);
  }
  return definition;
}

/**
 * Runs a call with the listed definition. A server that refuses it for its headers has changed the
 * tool since it was listed: the tools are listed again and the call is sent once more (a refused call
 * never ran, so sending it again cannot do anything twice).
 */
export async function withParamHeaders<T>(
  listed: Tool | undefined,
  call: (definition: Tool | undefined) => Promise<T>,
  relist: () => Promise<Tool | undefined>,
): Promise<T> {
  try {
    return await call(definitionForHeaders(listed));
  } catch (err) {
    if (!listed || (err as { code?: unknown } | undefined)?.code !== HEADER_MISMATCH) throw err;
    return call(definitionForHeaders(await relist()));
  }
}
