// Admin HTTP route behind the gemini-agent dialog's Test button:
//   POST /gemini-agent/test   one prompt with the dialog's current, unsaved settings, in auto mode,
//                             against the deployed mcp-server config nodes named in its server list
// Body: {id, prompt, apiKey, config:{model, baseUrl, apiVersion, systemInstruction, systemInstructionType,
//        servers:[{server, include, exclude, prefix}], maxSteps, functionCalling, thinkingLevel, temperature, timeout}}
// Answer: {ok:true, text, steps:[{calls:[{name, server, tool, isError}]}], usage, finishReason}
//      or {ok:false, error}. The API key stays server-side: the editor sends the password placeholder
// for a stored key, and no answer or error ever contains the key (errors are scrubbed).
import { errorMessage } from '../../src/errors';
import { parseAgentSettings } from '../../src/gemini/agent-settings';
import { AgentRunner } from '../../src/gemini/agent-runner';
import { mcpExecutor } from '../../src/gemini/auto-executor';
import { resolveApiKey } from '../../src/gemini/client';
import { MaxStepsError, scrub } from '../../src/gemini/errors';
import { buildCatalog } from '../../src/gemini/tool-catalog';
import type { TraceStep } from '../../src/gemini/types';
import { agentServers } from './servers';
import type { EnvLookup } from '../../src/env-expand';
import type { RED } from '../shared/red-types';
import { scrubAnswers, secretsInBody } from '../shared/secret-gate';
import { dialogEnvLookup, PASSWORD_PLACEHOLDER, storedCredentials } from '../mcp-server/dialog-settings';
import { geminiDestination, SECRET_STAYS, storedSecretsMayGo } from '../shared/secret-destinations';
import { notDeployed } from './tools-route';

type TestConfig = Record<string, unknown>;

export function registerGeminiTestRoute(RED: RED): void {
  // Answers pass the secret gate: a model that repeats the key, or a server's echoed token, is masked.
  const gate = scrubAnswers((req) => [...secretsInBody(req), storedKey(RED, (req.body ?? {}).id)]);
  RED.httpAdmin.post('/gemini-agent/test', RED.auth.needsPermission('gemini-agent.write'), gate, async (req, res) => {
    const body = req.body ?? {};
    const secrets: Array<string | undefined> = [];
    try {
      // ${VAR} resolves as for the deployed node (its tab's variables too), also before a first deploy.
      const env = dialogEnvLookup(RED, typeof body.id === 'string' ? body.id : undefined, body.z);
      const apiKey = apiKeyFor(RED, body, parseAgentSettings({ ...(body.config ?? {}) }, env).baseUrl, env);
      secrets.push(apiKey);
      res.json(await testPrompt(RED, body.config ?? {}, String(body.prompt ?? ''), apiKey, env));
    } catch (err) {
      res.json({ ok: false, error: scrub(errorMessage(err), [...secrets, typeof body.apiKey === 'string' ? body.apiKey : undefined]) });
    }
  });
}

const storedKey = (RED: RED, id: unknown) => storedCredentials<{ apiKey: string }>(RED, id)?.apiKey;

// A key typed into the dialog is used as is; the placeholder means "the key this node has stored";
// blank means the environment's GEMINI_API_KEY / GOOGLE_API_KEY, as at runtime.
// The stored key goes only to the base URL the node was deployed with (secret-destinations.ts).
function apiKeyFor(RED: RED, body: { id?: unknown; apiKey?: unknown }, baseUrl: string | undefined, env: EnvLookup): string {
  const typed = typeof body.apiKey === 'string' ? body.apiKey.trim() : '';
  // Blank: the node's variables (its tab's too), else the process environment, as at runtime.
  if (typed && typed !== PASSWORD_PLACEHOLDER) return resolveApiKey(typed);
  if (typed === PASSWORD_PLACEHOLDER && !storedSecretsMayGo(typeof body.id === 'string' ? body.id : undefined, geminiDestination(baseUrl))) {
    throw new Error(SECRET_STAYS);
  }
  const stored = typed === PASSWORD_PLACEHOLDER ? storedKey(RED, body.id) : undefined;
  return resolveApiKey(stored || undefined, env);
}

async function testPrompt(RED: RED, config: TestConfig, prompt: string, apiKey: string, env: EnvLookup) {
  if (!prompt.trim()) throw new Error('Type a prompt to send');
  const runner = new AgentRunner(parseAgentSettings({ ...config, stream: false }, env));
  const { servers, missing } = agentServers(RED, config.servers);
  if (missing.length) throw new Error(notDeployed(missing));
  const catalog = await buildCatalog(servers.map((s) => s.source));
  try {
    const result = await runner.run({
      apiKey,
      contents: [{ role: 'user', parts: [{ text: prompt }] }],
      systemInstruction: systemInstructionOf(config),
      catalog,
      executor: mcpExecutor(),
    });
    return {
      ok: true,
      model: runner.settings.model,
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
