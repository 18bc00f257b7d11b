// Where an MCP client reaches Home Assistant from inside a Home Assistant add-on (Node-RED's add-on
// among them): the Supervisor proxies Home Assistant's API at http://supervisor/core/api/ and accepts
// the add-on's own token, which the Supervisor puts in the add-on's environment as SUPERVISOR_TOKEN
// (add-ons with `homeassistant_api: true`, which the Node-RED add-on has). Home Assistant's MCP Server
// integration serves /api/mcp. The token stays a `${…}` reference, expanded when the server connects,
// so no secret is ever copied into the flow.
export const HOME_ASSISTANT_ADDON = {
  url: 'http://supervisor/core/api/mcp',
  token: '${SUPERVISOR_TOKEN}',
} as const;

/** Home Assistant on the network, as the "Home Assistant URL" button fills it when the URL is blank. */
export const HOME_ASSISTANT_DEFAULT_URL = 'http://homeassistant.local:8123/api/mcp';

/**
 * What the "Home Assistant URL" button makes of what was typed: Home Assistant's MCP URL. A bare
 * host or address (`homeassistant.local`, `192.168.1.20`) is Home Assistant's own web server, so it
 * gets `http://` and port 8123; a URL with a scheme keeps its port (a reverse proxy on 443 has
 * none to add) and any path prefix. `/api/mcp` ends it once. `${VAR}` references stay as typed.
 */
export function homeAssistantMcpUrl(typed: string): string {
  const text = typed.trim();
  if (!text || text === HOME_ASSISTANT_ADDON.url) return HOME_ASSISTANT_DEFAULT_URL;
  const withPath = (base: string) => base.replace(/\/api\/mcp.*$/, '').replace(/\/+$/, '') + '/api/mcp';
  if (text.includes('${')) return withPath(text);
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  try {
    const url = new URL(hasScheme ? text : `http://${text}`);
    if (!hasScheme && !url.port) url.port = '8123';
    return withPath(`${url.protocol}//${url.host}${url.pathname}`);
  } catch {
    return withPath(text);
  }
}
