// One place that imports the MCP client SDK (v2 split package), so the rest of the engine does not
// care which entry point a symbol lives in.
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
