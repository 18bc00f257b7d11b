// Which LLM APIs a Home Assistant serves over MCP. Since 2026.8 its MCP Server integration serves one
// MCP URL per registered LLM API, <base>/api/mcp/<API id> (administrators only, except Assist), beside
// <base>/api/mcp, which serves the APIs chosen in the integration's options. The WebSocket API's
// admin-only `llm/api/list` command names them: {apis: [{id, name}]} in registration order (core's
// llm/websocket_api.py; developers.home-assistant.io, "LLM API" → "Listing the registered APIs").
import { HomeAssistantLink, HomeAssistantUnavailable } from './connection';
import { homeAssistantUrls, llmApiUrl, mcpBaseUrl } from './urls';

export interface LlmApi {
  id: string;
  /** The name Home Assistant shows for it. */
  name: string;
  /** Its own MCP URL. */
  url: string;
}

export interface LlmApiList {
  /** Home Assistant's version, as its WebSocket API said. */
  version: string;
  apis: LlmApi[];
}

const LIST_TIMEOUT_MS = 10_000;

/** Asks Home Assistant which LLM APIs it serves, with the token the mcp-server would use. */
export async function listLlmApis(mcpUrl: string, token: string | undefined): Promise<LlmApiList> {
  const urls = homeAssistantUrls(mcpBaseUrl(mcpUrl));
  if (!token) throw new Error("listing Home Assistant's LLM APIs needs the server's access token: set Token first");
  const link = new HomeAssistantLink({ websocketUrl: urls.websocket, token: async () => token });
  try {
    const conn = await link.connection();
    const answer = await withTimeout(conn.sendMessagePromise<{ apis?: Array<{ id?: unknown; name?: unknown }> }>({ type: 'llm/api/list' }));
    const apis = (answer?.apis ?? [])
      .filter((a): a is { id: string; name: unknown } => typeof a.id === 'string' && a.id !== '')
      .map((a) => ({ id: a.id, name: typeof a.name === 'string' && a.name ? a.name : a.id, url: llmApiUrl(mcpUrl, a.id) }));
    return { version: conn.haVersion, apis };
  } catch (err) {
    throw explain(err);
  } finally {
    link.close();
  }
}

function withTimeout<T>(answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Home Assistant did not answer llm/api/list within ${LIST_TIMEOUT_MS / 1000} s`)), LIST_TIMEOUT_MS);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/** The WebSocket API's error answers ({code, message}) and the link's failures, in words to act on. */
function explain(err: unknown): Error {
  if (err instanceof Error) {
    if (err instanceof HomeAssistantUnavailable && err.auth) return new Error(`Home Assistant refused the token: ${err.message}`);
    return err;
  }
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'unauthorized')
    return new Error(
      "only an administrator's token can list Home Assistant's LLM APIs, and this token's user is not one: " +
        'use /api/mcp/assist (Assist, open to every user), or a long-lived token made by an administrator',
    );
  if (code === 'unknown_command')
    return new Error(
      'this Home Assistant cannot list its LLM APIs (it is older than the per-API MCP URLs of 2026.8): ' +
        "use /api/mcp, which serves the APIs chosen in the Model Context Protocol Server integration's options",
    );
  return new Error(`Home Assistant answered llm/api/list with ${String(code ?? 'an error')}${message ? `: ${String(message)}` : ''}`);
}
