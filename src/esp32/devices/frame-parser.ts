// Parsing what a xiaozhi device sends. The firmware builds its MCP error replies by string
// concatenation without JSON-escaping the message (mcp_server.cc ReplyError), so a tool name with
// `"` or `\` in it yields an invalid frame; that one shape is repaired instead of dropped, because
// dropping it would leave the caller waiting for its timeout.

export type DeviceFrame = { type?: unknown; session_id?: unknown; payload?: unknown; [k: string]: unknown };

const UNESCAPED_ERROR = /^\{"session_id":"([^"\\]*)","type":"mcp","payload":\{"jsonrpc":"2\.0","id":(-?\d+),"error":\{"message":"([\s\S]*)"\}\}\}$/;

export function parseDeviceFrame(text: string): DeviceFrame | undefined {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as DeviceFrame) : undefined;
  } catch {
    const m = UNESCAPED_ERROR.exec(text);
    if (!m) return undefined;
    return {
      session_id: m[1],
      type: 'mcp',
      payload: { jsonrpc: '2.0', id: Number(m[2]), error: { message: m[3] } },
    };
  }
}
