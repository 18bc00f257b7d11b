// The requests the endpoint specs make by hand: a JSON-RPC POST with a bearer token, in a 2025
// session when one is named; a 2025 initialize with a bearer token (200 when the endpoint takes the
// token, 401 when not); waiting until a freshly deployed endpoint answers at all (Node-RED's
// deploy answers before the nodes have started); and the SDK's client connected to it then.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** One JSON-RPC message POSTed with `token`, inside `session` (a 2025 session id, of `version`) when given. */
export function postAs(url: string, token: string, message: unknown, session?: string, version = '2025-11-25'): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': version } : {}),
    },
    body: JSON.stringify(message),
  });
}

export function initializeWith(url: string, token: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sign-in spec', version: '1' } },
    }),
  });
}

/** Resolves once the endpoint at `url` challenges a caller without a token (401). */
export async function untilEndpointStarted(url: string, ms = 20_000): Promise<void> {
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
    const res = await fetch(url, { method: 'POST', body: '{}' }).catch(() => undefined);
    if (res?.status === 401) return;
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${url} to start (last answer: ${res?.status ?? 'none'})`);
  }
}

/** The MCP SDK's client connected with `token` to the endpoint at `url`, once it has started. */
export async function connectWhenStarted(url: string, token: string, name = 'endpoint-spec'): Promise<Client> {
  await untilEndpointStarted(url);
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}
