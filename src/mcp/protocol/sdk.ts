// The MCP client SDK's classes the session and its transports use (v2 split package), re-exported
// from one module. Not the only importer: the OAuth helpers (oauth/) and the lenient readers take
// what they need from '@modelcontextprotocol/client' directly, and types are imported where used.
export {
  Client,
  StreamableHTTPClientTransport,
  SSEClientTransport,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  ProtocolError,
  ReadBuffer,
  serializeMessage,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/client';
export type { JSONRPCMessage, Transport, Tool, CallToolResult, Implementation } from '@modelcontextprotocol/client';
export { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
