// Admin HTTP route behind the gemini-agent dialog's server rows:
//   POST /gemini-agent/tools  the function names each server row gives Gemini after its include /
//                             exclude filters and prefix, so the filters can be checked before deploy
// Body: {config:{servers}}. Answer: {ok:true, servers:[{server, name, total, functions:[…]} | {server, error}],
// warnings}. Every server is listed once; a server that is down or not deployed answers with its own
// error and the other rows still answer.
import { errorMessage } from '../../src/errors';
import { assembleCatalog, listSources } from '../../src/gemini/tool-catalog';
import { agentServers } from './servers';
import type { RED } from '../shared/red-types';
import { scrubAnswers, secretsInBody } from '../shared/secret-gate';

export function notDeployed(ids: string[]): string {
  return `mcp-server not deployed: ${ids.join(', ')}. Deploy the flow first (the dialog uses the deployed servers)`;
}

export function registerGeminiToolsRoute(RED: RED): void {
  RED.httpAdmin.post('/gemini-agent/tools', RED.auth.needsPermission('gemini-agent.write'), scrubAnswers(secretsInBody), async (req, res) => {
    try {
      const { servers, missing } = agentServers(RED, ((req.body ?? {}).config ?? {}).servers);
      const sources = servers.map((s) => s.source);
      const catalog = assembleCatalog(sources, await listSources(sources));
      const rows: Array<Record<string, unknown>> = servers.map((s, i) => {
        const summary = catalog.bySource![i];
        return 'error' in summary
          ? { server: s.id, error: summary.error }
          : { server: s.id, name: summary.server || s.id, total: summary.total, functions: summary.functions };
      });
      for (const id of missing) rows.push({ server: id, error: notDeployed([id]) });
      res.json({ ok: true, servers: rows, warnings: catalog.warnings });
    } catch (err) {
      res.json({ ok: false, error: errorMessage(err) });
    }
  });
}
