// Who is asking, for every request a flow answers (a tool call, a prompt, a read): the JSON-RPC id,
// the client's name and version (from the 2026-07-28 envelope, else the 2025 handshake), and the
// signal that fires when the client cancels or disconnects.
import { CLIENT_INFO_META_KEY, type Server, type ServerContext } from '@modelcontextprotocol/server';

export interface Caller {
  requestId: string | number;
  client: { name?: string; version?: string };
  signal: AbortSignal;
}

export function callerOf(server: Server, ctx: ServerContext): Caller {
  const envelopeClient = ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY as keyof typeof ctx.mcpReq.envelope] as { name?: string; version?: string } | undefined;
  const client = envelopeClient ?? server.getClientVersion() ?? {};
  return { requestId: ctx.mcpReq.id, client: { name: client.name, version: client.version }, signal: ctx.mcpReq.signal };
}
