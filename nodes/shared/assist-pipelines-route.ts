// Admin HTTP route behind the Assist pipeline lists of the esp32-listener and ha-assist dialogs
// (registered once, by whichever of the two node sets loads first):
//   GET /esp32-listener/assist/pipelines?server=<mcp-server id>
// Home Assistant's pipelines (assist_pipeline/pipeline/list) through the deployed mcp-server's URL
// and bearer, which never leave the runtime. Answer: {ok:true, pipelines:[{id, name, language}],
// preferred} or {ok:false, error} with what to fix. Home Assistant's answer passes the secret
// scrubber like every answer of our routes: a name or error echoing the bearer shows it masked.
import { HomeAssistantLink } from '../../src/home-assistant/connection';
import { listPipelines } from '../../src/home-assistant/pipeline-run';
import { errorMessage } from '../../src/errors';
import { homeAssistantUrls } from '../../src/home-assistant/urls';
import { homeAssistantBearer } from './home-assistant-bearer';
import { scrubAnswers } from './secret-gate';
import type { RED } from './red-types';

const REGISTERED = new WeakSet<object>();

export function registerAssistPipelinesRoute(RED: RED): void {
  if (REGISTERED.has(RED.httpAdmin)) return;
  REGISTERED.add(RED.httpAdmin);
  RED.httpAdmin.get('/esp32-listener/assist/pipelines', RED.auth.needsPermission('esp32-listener.read'), scrubAnswers(), async (req, res) => {
    let link: HomeAssistantLink | undefined;
    try {
      const bearer = homeAssistantBearer(RED, String(req.query.server ?? ''))();
      link = new HomeAssistantLink({ websocketUrl: homeAssistantUrls(bearer.url).websocket, token: bearer.token });
      const { pipelines, preferred } = await listPipelines(await link.connection());
      res.json({ ok: true, pipelines, preferred });
    } catch (err) {
      res.json({ ok: false, error: errorMessage(err) });
    } finally {
      link?.close();
    }
  });
}
