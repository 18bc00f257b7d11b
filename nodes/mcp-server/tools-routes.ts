// Admin HTTP routes behind the mcp-server, mcp-list-tools and mcp-call-tool dialogs:
//   GET  /mcp-server/:id/tools   tools of a deployed server, optionally compiled (?format=gemini…)
//                                with the compiler's warnings, for dropdowns and before-deploy hints
//   POST /mcp-server/test        "Test connection" with the dialog's current, undeployed settings
//   POST /mcp-server/tools       the same tools answer as GET …/:id/tools, from settings the editor
//                                sends (a server not deployed yet, or changed since), so dropdowns
//                                and compiler warnings work before the first deploy. Kept per settings
//                                for a short time (src/mcp/settings/settings-tool-cache): a dialog refresh does
//                                not start another stdio process; each listing closes its session.
// Both tools routes take `near` (a tool name the dialog has): the answer's `near` lists the closest
// tool names, from the runtime's one suggestion function (src/mcp/tool-names), as errors give them.
// Every answer passes the secret gate, with the secrets typed into the dialog masked too.
import { errorMessage } from '../../src/errors';
import { McpSession } from '../../src/mcp/session';
import { SettingsToolCache } from '../../src/mcp/settings/settings-tool-cache';
import { closeMatches } from '../../src/mcp/tool-names';
import type { ListToolsResult, Tool } from '../../src/mcp/call/tool-provider';
import { compileTools, isToolFormat } from '../../src/schema';
import type { RED } from '../shared/red-types';
import { scrubAnswers, secretsInBody } from '../shared/secret-gate';
import { getServerNode } from '../shared/server-config';
import { dialogSettings } from './dialog-settings';

const ESP32_HINT = 'ESP32 devices connect to an esp32-listener';

export function registerServerToolRoutes(RED: RED): void {
  const undeployed = new SettingsToolCache();

  RED.httpAdmin.get('/mcp-server/:id/tools', RED.auth.needsPermission('mcp-server.read'), scrubAnswers(), async (req, res) => {
    const server = getServerNode(RED, req.params.id);
    if (!server) return res.status(404).json({ error: 'mcp-server not deployed: deploy the flow first, or use Test connection' });
    try {
      const listed = await server.provider.listTools({ refresh: req.query.refresh === 'true' });
      res.json(toolsAnswer(listed, req.query));
    } catch (err) {
      res.status(502).json({ error: errorMessage(err) });
    }
  });

  RED.httpAdmin.post('/mcp-server/test', RED.auth.needsPermission('mcp-server.write'), scrubAnswers(secretsInBody), async (req, res) => {
    let session: McpSession | undefined;
    try {
      const settings = dialogSettings(RED, req.body ?? {}, 'test-connection');
      if (settings.transport === 'esp32') return res.json({ ok: false, error: `${ESP32_HINT}; deploy it and see its device list` });
      session = new McpSession(settings);
      const listed = await session.listTools();
      res.json({
        ok: true,
        transport: session.activeTransport,
        protocolVersion: listed.server.protocolVersion,
        serverInfo: listed.server.serverInfo,
        toolCount: listed.tools.length,
        pages: listed.pages,
        tools: listed.tools.map((t) => t.name),
      });
    } catch (err) {
      res.json({ ok: false, error: errorMessage(err) });
    } finally {
      await session?.close();
    }
  });

  RED.httpAdmin.post('/mcp-server/tools', RED.auth.needsPermission('mcp-server.write'), scrubAnswers(secretsInBody), async (req, res) => {
    const body = req.body ?? {};
    try {
      const settings = dialogSettings(RED, body, 'editor-tools');
      if (settings.transport === 'esp32') return res.status(404).json({ error: `${ESP32_HINT}: deploy it first` });
      // The OAuth provider is an object with state, not a setting: the node id (in the key) stands for it.
      const listed = await undeployed.get({ ...settings, authProvider: undefined }, () => listOnce(settings));
      res.json(toolsAnswer(listed, body));
    } catch (err) {
      res.status(502).json({ error: errorMessage(err) });
    }
  });
}

async function listOnce(settings: ConstructorParameters<typeof McpSession>[0]): Promise<ListToolsResult> {
  const session = new McpSession(settings);
  try {
    return await session.listTools();
  } finally {
    await session.close(); // the stdio process ends here, not when the cache entry expires
  }
}

interface ToolsQuery {
  format?: unknown;
  prefix?: unknown;
  near?: unknown;
}

function toolsAnswer(listed: ListToolsResult, query: ToolsQuery): Record<string, unknown> {
  const answer: Record<string, unknown> = { server: listed.server, pages: listed.pages, tools: listed.tools, warnings: listed.warnings ?? [] };
  const { format, prefix, near } = query;
  if (typeof near === 'string' && near)
    answer.near = closeMatches(
      near,
      listed.tools.map((t) => t.name),
    );
  if (typeof format !== 'string' || !format || format === 'mcp') return answer;
  if (!isToolFormat(format)) throw new Error(`unknown format "${format}"`);
  const compiled = compileTools(listed.tools as Tool[], format, { prefix: typeof prefix === 'string' && prefix ? prefix : undefined });
  answer.warnings = [...(answer.warnings as unknown[]), ...compiled.warnings];
  answer.names = compiled.names;
  return answer;
}
