// POST /mcp-server/home-assistant/apis: the LLM APIs a Home Assistant serves over MCP, for the
// dialog's "Home Assistant's APIs" list. It takes the dialog's current settings, as Test connection
// does (its URL and token, ${VAR} resolved as the deployed node would), and answers
// {ok, version, apis:[{id, name, url}]} or {ok:false, error} in words; the answer passes the secret gate.
import { errorMessage } from '../../src/errors';
import { listLlmApis } from '../../src/home-assistant/llm-apis';
import type { RED } from '../shared/red-types';
import { scrubAnswers, secretsInBody } from '../shared/secret-gate';
import { dialogSettings } from './dialog-settings';

export function registerHomeAssistantRoutes(RED: RED): void {
  RED.httpAdmin.post('/mcp-server/home-assistant/apis', RED.auth.needsPermission('mcp-server.write'), scrubAnswers(secretsInBody), async (req, res) => {
    try {
      const settings = dialogSettings(RED, req.body ?? {}, 'home-assistant-apis');
      if (settings.transport !== 'http' || !settings.url)
        return res.json({ ok: false, error: "Home Assistant's APIs are listed for a Streamable HTTP URL ending in /api/mcp" });
      const listed = await listLlmApis(settings.url, settings.token);
      res.json({ ok: true, ...listed });
    } catch (err) {
      res.json({ ok: false, error: errorMessage(err) });
    }
  });
}
