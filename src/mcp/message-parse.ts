// The MCP SDK's check of each JSON-RPC message it reads (a reply, an event-stream event, a stdio line),
// with the same answer for less work. The SDK parses every message with the union of the four
// message schemas (request, notification, result, error), tried in that order: a result, the most
// common message a client reads, is first refused by the request and the notification schemas,
// each building its issues, before the result schema accepts it (about 4 % of a tool call's CPU in
// the side-by-side bench's profile). Here the one member that can accept the message is tried first;
// the build points the SDK's parse calls here (scripts/sdk-patches.mjs).
//
// Why the answer is the same: a union answers with its first member that accepts. A message with
// `method` and `id` can only be accepted first by the request schema; with `method` and no `id`, the
// request schema refuses it (it requires an id), so the notification schema is the first that can;
// without `method`, the request and notification schemas both refuse (method is required), so a
// message with `result` goes to the result schema and one with only `error` to the error schema
// (the result schema requires `result`). Anything the chosen member refuses goes through the SDK's
// own union, so malformed messages fail with exactly the SDK's error.

/** What of a Zod schema is used here. */
interface Schema {
  parse(value: unknown): unknown;
  safeParse(value: unknown): { success: true; data: unknown } | { success: false };
}

/** The four member schemas and their union, as @modelcontextprotocol/core/internal exports them. */
export interface MessageSchemas {
  JSONRPCMessageSchema: Schema;
  JSONRPCRequestSchema: Schema;
  JSONRPCNotificationSchema: Schema;
  JSONRPCResultResponseSchema: Schema;
  JSONRPCErrorResponseSchema: Schema;
}

export function parseMessage(core: MessageSchemas, value: unknown): unknown {
  const member = likelyMember(core, value);
  if (member) {
    const parsed = member.safeParse(value);
    if (parsed.success) return parsed.data;
  }
  return core.JSONRPCMessageSchema.parse(value);
}

function likelyMember(core: MessageSchemas, value: unknown): Schema | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if ('method' in value) return 'id' in value ? core.JSONRPCRequestSchema : core.JSONRPCNotificationSchema;
  if ('result' in value) return core.JSONRPCResultResponseSchema;
  if ('error' in value) return core.JSONRPCErrorResponseSchema;
  return undefined;
}
