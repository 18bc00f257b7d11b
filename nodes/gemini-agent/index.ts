// gemini-agent: Node-RED adapter for the Gemini function-calling loop (src/gemini/). It resolves the
// settings, builds the tool catalog from the configured mcp-server nodes and msg.tools, runs the loop
// with an MCP executor (auto mode) or a flow round trip (flow mode), and keeps memory in node context.
// A server prompt as system instruction and approvals (output 3) live in lib/agent-approval-and-prompt.
import { McpNodeError } from '../../src/errors';
import { parseAgentSettings } from '../../src/gemini/agent-settings';
import { AgentRunner } from '../../src/gemini/agent-runner';
import { geminiDestination, rememberSecretDestination } from '../shared/secret-destinations';
import { resolveApiKey } from '../../src/gemini/client';
import { MaxStepsError } from '../../src/gemini/errors';
import { FlowCallRouter, type FlowResult } from '../../src/gemini/flow-executor';
import { promptContents, sessionKey, trimHistory } from '../../src/gemini/memory';
import { buildCatalog } from '../../src/gemini/tool-catalog';
import { SkillInstructions } from '../../src/gemini/system-prompt';
import { secrets } from '../../src/secrets';
import { nodeEnvLookup } from '../shared/node-env';
import { AGENT_CREDENTIALS, AGENT_SETTINGS } from '../../src/gemini/agent-settings-declaration';
import { withDeclaredDefaults } from '../../src/settings-declaration';
import { handleInput } from '../shared/input-handler';
import { statusWriter } from '../shared/node-status';
import type { Node, NodeDef, RED } from '../shared/red-types';
import { translator } from '../shared/i18n';
import { agentExtras, ownSystemInstruction } from './approval-and-prompt';
import { agentServers, messageTools } from './servers';
import { contextMemory } from './memory';
import { registerAgentRoutes } from './routes';
import { agentToolRunner } from './tool-executor';

export = function register(RED: RED) {
  const t = translator(RED, 'gemini-agent');
  registerAgentRoutes(RED); // the dialog's Test button and server-row previews
  function GeminiAgentNode(this: Node, flowDef: NodeDef) {
    RED.nodes.createNode(this, flowDef);
    const def = withDeclaredDefaults(flowDef, AGENT_SETTINGS, nodeEnvLookup(RED, this));
    const node = this;
    const env = nodeEnvLookup(RED, node);
    const runner = new AgentRunner(parseAgentSettings(def, env));
    const { model, toolMode, memory, historyTurns, timeoutMs } = runner.settings;
    const router = new FlowCallRouter(node.id);
    const closing = new AbortController();
    // The key wherever it comes from is masked in everything this and every other node emits.
    const releaseKey = secrets.register([node.credentials?.apiKey, env('GOOGLE_API_KEY'), env('GEMINI_API_KEY')]);
    const forgetDestination = rememberSecretDestination(node.id, geminiDestination(runner.settings.baseUrl));
    const { servers, missing } = agentServers(RED, def.servers);
    const extras = agentExtras(RED, def, env, new SkillInstructions(servers, (w) => node.warn(w))); // systemPrompt, skills, approval
    const history = contextMemory(node);
    const tools = agentToolRunner({ toolMode, router, timeoutMs, inputs: extras.inputs, signal: closing.signal });
    for (const s of servers) s.node.register(node);
    if (extras.problem) node.error(extras.problem);
    const missingError = () =>
      new McpNodeError(t('gemini-agent.errors.missing-server', { ids: missing.join(', ') }), t('gemini-agent.status.missing-server'), 'GEMINI_NO_SERVER');
    if (missing.length) {
      node.error(missingError().message);
      statusWriter(RED, node).fixed({ fill: 'red', shape: 'ring', text: t('gemini-agent.status.missing-server') });
    }

    handleInput(RED, node, async (msg, send) => {
      if (extras.takeApprovalAnswer(msg) || extras.takeInputAnswer(msg)) return; // releases a waiting call
      if (msg.cancel === true || typeof msg.cancel === 'string')
        return send([null, { ...msg, topic: 'cancel', payload: { cancelled: tools.cancel(msg.cancel) } }]);
      if (typeof msg._agent === 'string') {
        // A tool result coming back from the flow, never a new prompt.
        if (!router.isCorrelation(msg._agent) || !router.deliver(msg._agent, msg as FlowResult)) {
          throw new McpNodeError(t('gemini-agent.errors.late-result', { agent: msg._agent }), t('gemini-agent.status.late-result'), 'GEMINI_LATE_RESULT');
        }
        return;
      }
      if (missing.length) throw missingError();
      const prompt = promptContents(msg.payload, msg.contentType);
      if (!prompt) throw new McpNodeError(t('gemini-agent.errors.bad-payload'), t('gemini-agent.status.bad-payload'), 'GEMINI_BAD_PAYLOAD');
      const apiKey = resolveApiKey(node.credentials?.apiKey, env);
      const session = sessionKey(msg.sessionId, msg.topic);
      const earlier = memory === 'context' ? await history.load(session) : [];
      const systemInstruction = await extras.systemInstruction(await ownSystemInstruction(RED, node, def, msg));
      const catalog = await buildCatalog(
        servers.map((s) => s.source),
        messageTools(RED, msg),
      );
      for (const w of catalog.warnings) node.debug(w);
      const unmatched = extras.unmatchedApprovals(catalog);
      if (unmatched) node.warn(t('gemini-agent.warnings.approval-unmatched', { patterns: unmatched.join('", "') }));
      for (const u of catalog.unavailable) node.warn(t('gemini-agent.warnings.server-unavailable', { server: u.server, error: u.error }));

      try {
        const result = await runner.run({
          apiKey,
          contents: [...earlier, ...prompt],
          systemInstruction,
          catalog,
          executor: extras.guard(tools.executor(session, send), (request) => send([null, null, { ...request }])),
          signal: closing.signal,
          onText: (text, step) => send([null, { ...msg, topic: 'chunk', payload: text, gemini: { step, sessionId: session } }]),
        });
        if (memory === 'context' && !result.blocked) await history.save(session, trimHistory(result.contents, historyTurns));
        msg.payload = result.text;
        msg.gemini = runner.trace(result, session, catalog.unavailable);
        send([msg, null]);
      } catch (err) {
        // The Catch node receives this same msg, so the partial trace travels with the error.
        if (err instanceof MaxStepsError) msg.gemini = { model, steps: err.trace.steps, usage: err.trace.usage, sessionId: session };
        throw err;
      }
    });

    node.on('close', (_removed: boolean, done: () => void) => {
      closing.abort();
      router.close();
      releaseKey();
      forgetDestination();
      for (const s of servers) s.node.deregister(node);
      done();
    });
  }

  RED.nodes.registerType('gemini-agent', GeminiAgentNode, { credentials: AGENT_CREDENTIALS });
};
