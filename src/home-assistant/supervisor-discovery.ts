// Inside the Home Assistant app (add-on), Node-RED can tell Home Assistant that it serves MCP: the
// Supervisor's discovery service takes `{service: "mcp", config: {url}}` from an app whose config
// lists `mcp` under `discovery:` and Home Assistant offers the server for confirmation (Supervisor
// API docs, "Discovery"; fixtures/home-assistant/2026.10 notes). It answers 403 to an app that does
// not list it, which the Node-RED app does not today: that answer is returned, not thrown, so the
// node can say once what to do instead. Requests go through undici's EnvHttpProxyAgent, so a proxy
// in HTTP_PROXY is honoured (none in the app: the host name `supervisor` resolves there).
import { EnvHttpProxyAgent, request } from 'undici';

export const SUPERVISOR = 'http://supervisor';
const TIMEOUT_MS = 10_000;

export type Announcement = { ok: true; uuid: string } | { ok: false; status: number; message: string };

/** One agent per request: a deploy announces once, and the proxy settings are read as they are now. */
async function withAgent<T>(use: (dispatcher: EnvHttpProxyAgent) => Promise<T>): Promise<T> {
  const agent = new EnvHttpProxyAgent();
  try {
    return await use(agent);
  } finally {
    await agent.close();
  }
}

export function announceMcpServer(url: string, token: string): Promise<Announcement> {
  return withAgent((dispatcher) => announce(url, token, dispatcher));
}

async function announce(url: string, token: string, dispatcher: EnvHttpProxyAgent): Promise<Announcement> {
  const res = await request(`${SUPERVISOR}/discovery`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ service: 'mcp', config: { url } }),
    dispatcher,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const text = await res.body.text();
  let body: { result?: string; message?: string; data?: { uuid?: string } } = {};
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the status says it */
  }
  if (res.statusCode === 200 && body.result === 'ok' && typeof body.data?.uuid === 'string') return { ok: true, uuid: body.data.uuid };
  return { ok: false, status: res.statusCode, message: body.message ?? text.slice(0, 200) };
}

export function withdrawMcpServer(uuid: string, token: string): Promise<void> {
  return withAgent(async (dispatcher) => {
    const res = await request(`${SUPERVISOR}/discovery/${encodeURIComponent(uuid)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
      dispatcher,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    await res.body.dump();
  });
}
