// Admin HTTP routes the editor uses (namespaced and permissioned like core's nodes):
//   GET  /mcp-server/:id/tools   tools of a deployed server, optionally compiled (?format=gemini…)
//                                with the compiler's warnings, for dropdowns and before-deploy hints
//   POST /mcp-server/test        "Test connection" with the dialog's current, undeployed settings
//   POST /mcp-server/tools       the same tools answer as GET …/:id/tools, from settings the editor
//                                sends (a server not deployed yet, or changed since), so dropdowns
//                                and compiler warnings work before the first deploy
// Tokens stay server-side: the editor sends the placeholder and we read the stored credential.
// Every answer passes the secret gate, with the secrets typed into the dialog masked too.
import { errorMessage } from '../../src/errors';
import { McpSession } from '../../src/mcp/session';
import { normalizeSettings } from '../../src/mcp/settings';
import { withStdioPaths } from './node-env';
import type { Tool } from '../../src/mcp/tool-provider';
import { compileTools, isToolFormat } from '../../src/schema';
import type { RED } from './red-types';
import { getServerNode } from './server-config';
import { scrubAnswers, secretsInBody } from './secret-gate';
import { registerPromptResourceRoutes } from './prompt-resource-routes';
import { applyOAuth } from './oauth-node';

const PASSWORD_PLACEHOLDER = '__PWRD__';
const registeredOn = new WeakSet<object>();

export function registerServerAdminRoutes(RED: RED): void {
  // One registration per admin app (the test helper builds a fresh one per runtime).
  if (!RED.httpAdmin || registeredOn.has(RED.httpAdmin)) return;
  registeredOn.add(RED.httpAdmin);
  registerPromptResourceRoutes(RED); // GET /mcp-server/:id/prompts and /resources

  RED.httpAdmin.get('/mcp-server/:id/tools', RED.auth.needsPermission('mcp-server.read'), scrubAnswers(), async (req, res) => {
    const server = getServerNode(RED, req.params.id);
    if (!server) return res.status(404).json({ error: 'mcp-server not deployed: deploy the flow first, or use Test connection' });
    try {
      const listed = await server.provider.listTools({ refresh: req.query.refresh === 'true' });
      const body: Record<string, unknown> = { server: listed.server, pages: listed.pages, tools: listed.tools, warnings: listed.warnings ?? [] };
      addCompiled(body, listed.tools, req.query.format, req.query.prefix);
      res.json(body);
    } catch (err) {
      res.status(502).json({ error: errorMessage(err) });
    }
  });

  RED.httpAdmin.post('/mcp-server/test', RED.auth.needsPermission('mcp-server.write'), scrubAnswers(secretsInBody), async (req, res) => {
    const body = req.body ?? {};
    const config = body.config ?? {};
    const token = tokenFor(RED, body);
    let session: McpSession | undefined;
    try {
      const settings = applyOAuth(RED, withStdioPaths(RED, normalizeSettings({ ...config, id: body.id ?? 'test-connection', secrets: secretsFor(RED, body) }, token)), String(body.id ?? ''));
      if (settings.transport === 'esp32') {
        return res.json({ ok: false, error: 'ESP32 devices connect to an esp32-listener; deploy it and see its device list' });
      }
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
    let session: McpSession | undefined;
    try {
      const settings = applyOAuth(
        RED,
        withStdioPaths(RED, normalizeSettings({ ...(body.config ?? {}), id: body.id ?? 'editor-tools', secrets: secretsFor(RED, body) }, tokenFor(RED, body))),
        String(body.id ?? ''),
      );
      if (settings.transport === 'esp32') {
        return res.status(404).json({ error: 'ESP32 devices connect to an esp32-listener: deploy it first' });
      }
      session = new McpSession(settings);
      const listed = await session.listTools();
      const answer: Record<string, unknown> = { server: listed.server, pages: listed.pages, tools: listed.tools, warnings: listed.warnings ?? [] };
      addCompiled(answer, listed.tools, body.format, body.prefix);
      res.json(answer);
    } catch (err) {
      res.status(502).json({ error: errorMessage(err) });
    } finally {
      await session?.close();
    }
  });
}

// The editor never holds a deployed token: it sends the placeholder (or nothing) and we use the
// stored credential of that config node; a token typed into an undeployed dialog is sent as is.
function tokenFor(RED: RED, body: { id?: unknown; token?: unknown }): string | undefined {
  const token = typeof body.token === 'string' ? body.token : undefined;
  if (token && token !== PASSWORD_PLACEHOLDER) return token;
  const stored = typeof body.id === 'string' && body.id ? RED.nodes.getCredentials(body.id) : undefined;
  return stored?.token;
}

// Secret header/env entries: what the dialog typed ({headers, env} object), else the stored credential.
function secretsFor(RED: RED, body: { id?: unknown; secrets?: unknown }): unknown {
  if (body.secrets && typeof body.secrets === 'object') return body.secrets;
  const stored = typeof body.id === 'string' && body.id ? RED.nodes.getCredentials(body.id) : undefined;
  return stored?.secrets;
}

function addCompiled(body: Record<string, unknown>, tools: unknown[], format: unknown, prefix: unknown): void {
  if (typeof format !== 'string' || !format || format === 'mcp') return;
  if (!isToolFormat(format)) throw new Error(`unknown format "${format}"`);
  const compiled = compileTools(tools as Tool[], format, { prefix: typeof prefix === 'string' && prefix ? prefix : undefined });
  body.warnings = [...((body.warnings as unknown[] | undefined) ?? []), ...compiled.warnings];
  body.names = compiled.names;
}
