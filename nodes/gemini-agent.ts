// gemini-agent: Node-RED adapter for the Gemini function-calling loop (src/gemini/). It resolves the
// settings, builds the tool catalog from the configured mcp-server nodes and msg.tools, runs the loop
// with an MCP executor (auto mode) or a flow round trip (flow mode), and keeps memory in node context.
// A server prompt as system instruction and approvals (output 3) live in lib/agent-approval-and-prompt.
import type { Content, GoogleGenAI } from '@google/genai';
import { McpNodeError } from '../src/errors';
import { parseAgentSettings } from '../src/gemini/agent-settings';
import { nodeEnvLookup } from './lib/node-env';
import { runAgent } from '../src/gemini/agent-loop';
import { mcpExecutor } from '../src/gemini/auto-executor';
import { createGeminiClient, resolveApiKey, DEFAULT_BASE_URL } from '../src/gemini/client';
import { MaxStepsError } from '../src/gemini/errors';
import { FlowCallRouter, type FlowResult } from '../src/gemini/flow-executor';
import { contextKey, promptContents, sessionKey, trimHistory } from '../src/gemini/memory';
import { buildCatalog, type MessageTools, type ServerSource } from '../src/gemini/tool-catalog';
import { secrets } from '../src/secrets';
import { evaluateProperty, handleInput, lines } from './lib/input-handler';
import { statusWriter } from './lib/node-status';
import type { Node, NodeDef, NodeMessage, RED } from './lib/red-types';
import { getServerNode, type McpServerConfigNode } from './lib/server-config';
import { translator } from './lib/i18n';
import { registerGeminiAdminRoutes } from './lib/gemini-admin-routes';
import { agentExtras } from './lib/agent-approval-and-prompt';

interface ServerEntry {
  server?: string;
  include?: string | string[];
  exclude?: string | string[];
  prefix?: string;
}

interface ConfiguredServer {
  node: McpServerConfigNode;
  entry: ServerEntry;
}

export = function register(RED: RED) {
  const t = translator(RED, 'gemini-agent');
  registerGeminiAdminRoutes(RED); // POST /gemini-agent/test (the dialog's Test button)
  function GeminiAgentNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const env = nodeEnvLookup(RED, node);
    const { model, baseUrl, apiVersion, toolMode, maxSteps, functionCalling, temperature, memory, historyTurns, stream, timeoutMs } = parseAgentSettings(
      def,
      env,
    );
    const router = new FlowCallRouter(node.id);
    const closing = new AbortController();
    // The key wherever it comes from is masked in everything this and every other node emits.
    const releaseKey = secrets.register([node.credentials?.apiKey, env('GOOGLE_API_KEY'), env('GEMINI_API_KEY')]);
    const extras = agentExtras(RED, def); // systemPrompt and approval

    const entries: ServerEntry[] = Array.isArray(def.servers) ? (def.servers as ServerEntry[]) : [];
    const servers: ConfiguredServer[] = [];
    const missing: string[] = [];
    for (const entry of entries) {
      const cfg = getServerNode(RED, entry.server);
      if (cfg) servers.push({ node: cfg, entry });
      else if (entry.server) missing.push(entry.server);
    }
    for (const s of servers) s.node.register(node);
    if (extras.problem) node.error(extras.problem);
    if (missing.length) {
      node.error(t('gemini-agent.errors.missing-server', { ids: missing.join(', ') }));
      statusWriter(RED, node).fixed({ fill: 'red', shape: 'ring', text: t('gemini-agent.status.missing-server') });
    }

    let client: { key: string; instance: GoogleGenAI } | undefined;
    function geminiClient(key: string): GoogleGenAI {
      if (!client || client.key !== key) client = { key, instance: createGeminiClient({ apiKey: key, baseUrl, apiVersion }) };
      return client.instance;
    }

    handleInput(RED, node, async (msg, send) => {
      if (extras.takeApprovalAnswer(msg)) return; // releases a call waiting for approval
      if (typeof msg._agent === 'string') {
        // A tool result coming back from the flow, never a new prompt.
        if (!router.isCorrelation(msg._agent) || !router.deliver(msg._agent, msg as FlowResult)) {
          throw new McpNodeError(t('gemini-agent.errors.late-result', { agent: msg._agent }), t('gemini-agent.status.late-result'), 'GEMINI_LATE_RESULT');
        }
        return;
      }
      if (missing.length) throw new McpNodeError(t('gemini-agent.errors.missing-server', { ids: missing.join(', ') }), t('gemini-agent.status.missing-server'), 'GEMINI_NO_SERVER');
      const prompt = promptContents(msg.payload, msg.contentType);
      if (!prompt) throw new McpNodeError(t('gemini-agent.errors.bad-payload'), t('gemini-agent.status.bad-payload'), 'GEMINI_BAD_PAYLOAD');
      const apiKey = resolveApiKey(node.credentials?.apiKey, env);
      const session = sessionKey(msg.sessionId, msg.topic);
      const history = memory === 'context' ? await loadHistory(node, session) : [];
      const systemInstruction = await extras.systemInstruction(await resolveSystemInstruction(msg));
      const catalog = await buildCatalog(servers.map(sourceOf), messageTools(msg));
      for (const w of catalog.warnings) node.debug(w);
      for (const u of catalog.unavailable) node.warn(t('gemini-agent.warnings.server-unavailable', { server: u.server, error: u.error }));

      const trace = { model, steps: [] as unknown[], usage: {}, sessionId: session };
      try {
        const result = await runAgent({
          client: geminiClient(apiKey),
          model,
          contents: [...history, ...prompt],
          systemInstruction,
          catalog,
          executor: extras.guard(
            toolMode === 'flow' ? router.executor((call) => send([null, { ...call }]), timeoutMs) : mcpExecutor(),
            (request) => send([null, null, { ...request }]),
          ),
          maxSteps,
          functionCalling,
          temperature,
          timeoutMs,
          signal: closing.signal,
          stream,
          onText: stream ? (text, step) => send([null, { ...msg, topic: 'chunk', payload: text, gemini: { step, sessionId: session } }]) : undefined,
          secrets: [apiKey],
          endpoint: `${baseUrl ?? DEFAULT_BASE_URL}/${apiVersion}/models/${model}`,
        });
        if (memory === 'context' && !result.blocked) await saveHistory(node, session, trimHistory(result.contents, historyTurns));
        msg.payload = result.text;
        msg.gemini = {
          ...trace,
          steps: result.steps,
          usage: result.usage,
          finishReason: result.finishReason,
          ...(result.blocked ? { blocked: result.blocked } : {}),
          ...(catalog.unavailable.length ? { unavailable: catalog.unavailable } : {}),
        };
        send([msg, null]);
      } catch (err) {
        // The Catch node receives this same msg, so the partial trace travels with the error.
        if (err instanceof MaxStepsError) msg.gemini = { ...trace, steps: err.trace.steps, usage: err.trace.usage };
        throw err;
      }
    });

    function sourceOf(s: ConfiguredServer): ServerSource {
      return { provider: s.node.provider, include: lines(s.entry.include), exclude: lines(s.entry.exclude), prefix: s.entry.prefix || undefined };
    }

    function messageTools(msg: NodeMessage): MessageTools[] {
      if (msg.tools === undefined || msg.tools === null) return [];
      const mcp = (msg.mcp ?? {}) as { names?: Record<string, string>; server?: { id?: string; name?: string }; tools?: unknown };
      const serverNode = getServerNode(RED, mcp.server?.id);
      return [
        {
          tools: msg.tools,
          names: mcp.names,
          server: mcp.server,
          raw: Array.isArray(mcp.tools) ? (mcp.tools as NonNullable<MessageTools['raw']>) : undefined,
          provider: serverNode?.provider,
        },
      ];
    }

    async function resolveSystemInstruction(msg: NodeMessage): Promise<string | undefined> {
      let value: unknown = '';
      if (def.systemInstruction !== undefined && def.systemInstruction !== '') {
        value = await evaluateProperty(RED, node, def.systemInstruction, def.systemInstructionType as string | undefined, msg);
      }
      if (value === undefined || value === null || value === '') value = msg.systemInstruction;
      if (value === undefined || value === null || value === '') return undefined;
      return typeof value === 'string' ? value : JSON.stringify(value);
    }

    node.on('close', (removed: boolean, done: () => void) => {
      closing.abort();
      router.close();
      releaseKey();
      for (const s of servers) s.node.deregister(node);
      done();
    });
  }

  function loadHistory(node: Node, session: string): Promise<Content[]> {
    return new Promise((resolve, reject) => {
      node.context().get(contextKey(session), undefined, (err, value) => (err ? reject(err) : resolve(Array.isArray(value) ? (value as Content[]) : [])));
    });
  }

  function saveHistory(node: Node, session: string, contents: Content[]): Promise<void> {
    return new Promise((resolve, reject) => {
      node.context().set(contextKey(session), contents, undefined, (err) => (err ? reject(err) : resolve()));
    });
  }

  RED.nodes.registerType('gemini-agent', GeminiAgentNode, { credentials: { apiKey: { type: 'password' } } });
};
