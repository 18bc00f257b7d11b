// Admin HTTP route behind the gemini-agent dialog's Test button:
//   POST /gemini-agent/test   one prompt with the dialog's current, unsaved settings, in auto mode,
//                             against the deployed mcp-server config nodes named in its server list
// Body: {id, prompt, apiKey, config:{model, baseUrl, apiVersion, systemInstruction, systemInstructionType,
//        servers:[{server, include, exclude, prefix}], maxSteps, functionCalling, temperature, timeout}}
// Answer: {ok:true, text, steps:[{calls:[{name, server, tool, isError}]}], usage, finishReason}
//      or {ok:false, error}.
//   POST /gemini-agent/tools  the function names each server row gives Gemini after its include /
//                             exclude filters and prefix, so the filters can be checked before deploy
// Body: {config:{servers}}. Answer: {ok:true, servers:[{server, name, total, functions:[…]}], warnings}. The API key stays server-side: the editor sends the password placeholder
// for a stored key, and no answer or error ever contains the key (errors are scrubbed).
import { errorMessage } from '../../src/errors';
import { parseAgentSettings } from '../../src/gemini/agent-settings';
import { runAgent } from '../../src/gemini/agent-loop';
import { mcpExecutor } from '../../src/gemini/auto-executor';
import { createGeminiClient, resolveApiKey, DEFAULT_BASE_URL } from '../../src/gemini/client';
import { MaxStepsError, scrub } from '../../src/gemini/errors';
import { buildCatalog, type ServerSource } from '../../src/gemini/tool-catalog';
import type { TraceStep } from '../../src/gemini/types';
import { lines } from './input-handler';
import type { RED } from './red-types';
import { getServerNode } from './server-config';
import { scrubAnswers, secretsInBody } from './secret-gate';

const PASSWORD_PLACEHOLDER = '__PWRD__';
const registeredOn = new WeakSet<object>();

interface TestConfig {
  model?: unknown;
  baseUrl?: unknown;
  apiVersion?: unknown;
  systemInstruction?: unknown;
  systemInstructionType?: unknown;
  servers?: unknown;
  maxSteps?: unknown;
  functionCalling?: unknown;
  temperature?: unknown;
  timeout?: unknown;
}

export function registerGeminiAdminRoutes(RED: RED): void {
  // One registration per admin app (the test helper builds a fresh one per runtime).
  if (!RED.httpAdmin || registeredOn.has(RED.httpAdmin)) return;
  registeredOn.add(RED.httpAdmin);

  // Answers pass the secret gate: a model that repeats the key, or a server's echoed token, is masked.
  const gate = scrubAnswers((req) => [...secretsInBody(req), storedKey(RED, req.body ?? {})]);
  RED.httpAdmin.post('/gemini-agent/test', RED.auth.needsPermission('gemini-agent.write'), gate, async (req, res) => {
    const body = req.body ?? {};
    const secrets: Array<string | undefined> = [];
    try {
      const apiKey = apiKeyFor(RED, body);
      secrets.push(apiKey);
      res.json(await testPrompt(RED, body.config ?? {}, String(body.prompt ?? ''), apiKey));
    } catch (err) {
      res.json({ ok: false, error: scrub(errorMessage(err), [...secrets, typeof body.apiKey === 'string' ? body.apiKey : undefined]) });
    }
  });

  RED.httpAdmin.post('/gemini-agent/tools', RED.auth.needsPermission('gemini-agent.write'), gate, async (req, res) => {
    try {
      const { rows, missing } = serverRows(RED, (req.body ?? {}).config ?? {});
      const catalog = await buildCatalog(rows.map((r) => r.source));
      const servers: Array<Record<string, unknown>> = await Promise.all(
        rows.map(async ({ id, source }) => {
          const listed = await source.provider.listTools();
          const functions = [...catalog.routes.values()].filter((r) => r.provider === source.provider).map((r) => r.declaredName);
          return { server: id, name: listed.server.name || id, total: listed.tools.length, functions };
        }),
      );
      // A row whose server is not deployed yet gets its own error; the other rows still answer.
      for (const id of missing) servers.push({ server: id, error: notDeployed([id]) });
      res.json({ ok: true, servers, warnings: catalog.warnings });
    } catch (err) {
      res.json({ ok: false, error: errorMessage(err) });
    }
  });
}

function notDeployed(ids: string[]): string {
  return `mcp-server not deployed: ${ids.join(', ')}. Deploy the flow first (the dialog uses the deployed servers)`;
}

/** The deployed mcp-server node of every row that names one, and the ids that are not deployed. */
function serverRows(RED: RED, config: TestConfig): { rows: Array<{ id: string; source: ServerSource }>; missing: string[] } {
  const rows: Array<{ id: string; source: ServerSource }> = [];
  const missing: string[] = [];
  for (const entry of Array.isArray(config.servers) ? config.servers : []) {
    if (!entry || !entry.server) continue;
    const node = getServerNode(RED, entry.server);
    if (!node) {
      missing.push(String(entry.server));
      continue;
    }
    rows.push({ id: String(entry.server), source: { provider: node.provider, include: lines(entry.include), exclude: lines(entry.exclude), prefix: entry.prefix || undefined } });
  }
  return { rows, missing };
}

// A key typed into the dialog is used as is; the placeholder means "the key this node has stored";
// blank means the environment's GEMINI_API_KEY / GOOGLE_API_KEY, as at runtime.
function storedKey(RED: RED, body: { id?: unknown }): string | undefined {
  if (typeof body.id !== 'string' || !body.id) return undefined;
  return (RED.nodes.getCredentials(body.id) as { apiKey?: string } | undefined)?.apiKey;
}

function apiKeyFor(RED: RED, body: { id?: unknown; apiKey?: unknown }): string {
  const typed = typeof body.apiKey === 'string' ? body.apiKey.trim() : '';
  if (typed && typed !== PASSWORD_PLACEHOLDER) return resolveApiKey(typed);
  if (typed === PASSWORD_PLACEHOLDER && typeof body.id === 'string' && body.id) {
    const stored = RED.nodes.getCredentials(body.id) as { apiKey?: string } | undefined;
    if (stored?.apiKey) return resolveApiKey(stored.apiKey);
  }
  return resolveApiKey(undefined);
}

async function testPrompt(RED: RED, config: TestConfig, prompt: string, apiKey: string) {
  if (!prompt.trim()) throw new Error('Type a prompt to send');
  const { model, baseUrl, apiVersion, maxSteps, functionCalling, temperature, timeoutMs } = parseAgentSettings(config as Record<string, unknown>);

  const { rows, missing } = serverRows(RED, config);
  if (missing.length) throw new Error(notDeployed(missing));
  const sources = rows.map((r) => r.source);
  const catalog = await buildCatalog(sources);
  try {
    const result = await runAgent({
      client: createGeminiClient({ apiKey, baseUrl, apiVersion }),
      model,
      contents: [{ role: 'user', parts: [{ text: prompt }] }],
      systemInstruction: systemInstructionOf(config),
      catalog,
      executor: mcpExecutor(),
      maxSteps,
      functionCalling,
      temperature,
      timeoutMs,
      secrets: [apiKey],
      endpoint: `${baseUrl ?? DEFAULT_BASE_URL}/${apiVersion}/models/${model}`,
    });
    return {
      ok: true,
      model,
      text: result.text,
      steps: summarize(result.steps),
      usage: result.usage,
      finishReason: result.finishReason,
      ...(result.blocked ? { blocked: result.blocked } : {}),
      warnings: catalog.warnings,
    };
  } catch (err) {
    // Out of steps: the calls made so far are still worth showing.
    if (err instanceof MaxStepsError) return { ok: false, error: errorMessage(err), steps: summarize(err.trace.steps as TraceStep[]) };
    throw err;
  }
}

// Only a literal or an environment variable can be resolved without a message.
function systemInstructionOf(config: TestConfig): string | undefined {
  const value = typeof config.systemInstruction === 'string' ? config.systemInstruction : '';
  if (!value) return undefined;
  const type = config.systemInstructionType || 'str';
  if (type === 'str') return value;
  if (type === 'env') return process.env[value] || undefined;
  return undefined;
}

// Names, servers and outcomes only: results can be large and the dialog shows a list.
function summarize(steps: TraceStep[]) {
  return steps.map((s) => ({ calls: s.calls.map((c) => ({ name: c.name, server: c.server, tool: c.tool, isError: c.isError })) }));
}
