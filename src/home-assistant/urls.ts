// Where Home Assistant's other APIs are, from the MCP URL an mcp-server already has: the MCP Server
// integration serves <base>/api/mcp, the WebSocket API is <base>/api/websocket, and files such as
// the TTS proxy's are under <base>. Inside an add-on the Supervisor proxies Home Assistant at
// http://supervisor/core, where the WebSocket API is /core/websocket (HA developer docs, "App
// communication"). Since 2026.8 each LLM API also has its own MCP URL, <base>/api/mcp/<API id>.
// Plain functions: the editor uses them too.

export interface HomeAssistantUrls {
  /** http(s)://host[:port][/core] */
  base: string;
  /** ws(s)://…/api/websocket, or ws://supervisor/core/websocket */
  websocket: string;
}

export function homeAssistantUrls(mcpUrl: string): HomeAssistantUrls {
  let url: URL;
  try {
    url = new URL(mcpUrl);
  } catch {
    throw new Error(`"${mcpUrl}" is not a URL: the Home Assistant server needs its MCP URL, such as http://homeassistant.local:8123/api/mcp`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${mcpUrl}" is not an http(s) URL`);
  const path = url.pathname.replace(/\/+$/, '');
  if (!/\/api\/mcp$/.test(path)) throw new Error(`${url.origin}${path} is not Home Assistant's MCP URL (it ends in /api/mcp)`);
  const basePath = path.slice(0, -'/api/mcp'.length);
  const base = url.origin + basePath;
  const wsOrigin = (url.protocol === 'https:' ? 'wss://' : 'ws://') + url.host;
  const supervisor = url.hostname === 'supervisor' && basePath === '/core';
  return { base, websocket: wsOrigin + basePath + (supervisor ? '/websocket' : '/api/websocket') };
}

/** A path Home Assistant answered with (the TTS proxy's `/api/tts_proxy/…`), as a full URL under `base`. */
export function underBase(base: string, pathOrUrl: string): string {
  if (/^https?:\/\//.test(pathOrUrl)) return pathOrUrl;
  return base.replace(/\/+$/, '') + (pathOrUrl.startsWith('/') ? '' : '/') + pathOrUrl;
}

/** `…/api/mcp` or `…/api/mcp/<id>`, down to `…/api/mcp`, which homeAssistantUrls reads. */
export function mcpBaseUrl(mcpUrl: string): string {
  return mcpUrl.trim().replace(/\/api\/mcp\/[^/?#]+\/?(?=[?#]|$)/, '/api/mcp');
}

/** The same URL with `/api/mcp` (or `/api/mcp/<other id>`) pointing at one LLM API ('' for /api/mcp itself). */
export function llmApiUrl(mcpUrl: string, id: string): string {
  if (!id) return mcpBaseUrl(mcpUrl);
  return mcpBaseUrl(mcpUrl).replace(/\/api\/mcp\/?(?=[?#]|$)/, `/api/mcp/${encodeURIComponent(id)}`);
}
