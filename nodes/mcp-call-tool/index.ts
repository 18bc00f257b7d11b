// `mcp-call-tool`: calls one MCP tool. The tool comes from the setting, else msg.tool, else a
// Gemini-style call {name,args} in msg.payload (mapped back through msg.mcp.names). Arguments are
// validated against the tool's inputSchema before anything is sent (tool-call.ts). Output 1 result,
// output 2 progress, task status and the server's requests for input, answered by a message with
// msg.input; a message with msg.cancel cancels running calls (a task with tasks/cancel).
import { McpNodeError } from '../../src/errors';
import { callReport } from '../../src/mcp/call/call-report';
import { resultPayload, resultText, type OutputMode } from '../../src/mcp/call/tool-result';
import { handleInput, numberSetting } from '../shared/input-handler';
import { translator } from '../shared/i18n';
import type { Node, NodeDef, NodeMessage, RED } from '../shared/red-types';
import { useServer } from '../shared/use-server';
import { checkToolCall, toolRequestReader } from './tool-call';
import { deployedSettings } from '../../src/settings-declaration';
import { SETTINGS } from './settings';
import { InputWaits } from '../../src/mcp/call/input-requests';
import { unwiredInput } from './unwired-input';
import { nodeEnvLookup } from '../shared/node-env';

export = function (RED: RED) {
  const t = translator(RED, 'mcp-call-tool');
  function McpCallToolNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const settings = deployedSettings(def, SETTINGS, nodeEnvLookup(RED, node));
    const use = useServer(RED, node, settings.server);
    const readRequest = toolRequestReader(RED, node, settings, t);
    const validate = settings.validate !== false && settings.validate !== 'false';
    const timeoutSeconds = numberSetting(settings.timeout, undefined);
    const output = String(settings.output) as OutputMode;
    const toolErrors = settings.toolErrors === 'output' ? 'output' : 'throw';
    // Each running call, with the task the server made of it (if any), so msg.cancel can name it.
    const inFlight = new Map<AbortController, { taskId?: string }>();
    // Each rename is said once, so a flow written for older tool names shows what it now calls.
    const renamesSaid = new Set<string>();
    // A server's requests for input, each waiting for the flow's msg.input answer.
    const inputs = new InputWaits((numberSetting(settings.inputTimeout, SETTINGS.inputTimeout.value) ?? SETTINGS.inputTimeout.value) * 1000);
    // Nothing wired to output 2: input requests are declined at once (./unwired-input.ts).
    const unwired = unwiredInput(node, t);

    node.on('close', (_removed: boolean, done: () => void) => {
      // Cancelling sends notifications/cancelled for every call still running.
      for (const c of inFlight.keys()) c.abort(new Error('node closed'));
      inFlight.clear();
      inputs.cancelAll();
      done();
    });

    handleInput(RED, node, async (msg: NodeMessage, send) => {
      if (typeof (msg.input as { id?: unknown } | undefined)?.id === 'string') {
        // An answer to an input request: it goes to the call that waits for it, and nothing is sent.
        const { problem } = inputs.reply(msg.input as { id?: unknown });
        if (problem) throw new McpNodeError(t('mcp-call-tool.errors.inputAnswer', { problem }), t('mcp-call-tool.status.inputAnswer'), 'INPUT_ANSWER');
        return;
      }
      if (msg.cancel === true || typeof msg.cancel === 'string') {
        // Cancels every running call, or the one whose task has this id; the calls go to Catch as cancelled.
        let cancelled = 0;
        for (const [c, call] of inFlight) {
          if (msg.cancel !== true && call.taskId !== msg.cancel) continue;
          c.abort(new Error('cancelled by a message'));
          cancelled++;
        }
        send([null, { ...msg, topic: 'cancel', payload: { cancelled } }]);
        return;
      }
      const server = use.required();
      const provider = server.provider;
      const context = { deviceId: (msg.device as { id?: string } | undefined)?.id };
      const { tool, args, askedAs, warnings } = await checkToolCall(provider, await readRequest(msg), context, validate, t);
      if (askedAs && !renamesSaid.has(`${askedAs}\u0000${tool}`)) {
        renamesSaid.add(`${askedAs}\u0000${tool}`);
        node.warn(t('mcp-call-tool.warnings.renamed', { asked: askedAs, tool }));
      }
      const controller = new AbortController();
      const running: { taskId?: string } = {};
      inFlight.set(controller, running);
      const started = Date.now();
      const serverInfo = provider.identity(context);
      try {
        const result = await provider.callTool(tool, args, {
          context,
          timeoutMs: timeoutSeconds !== undefined ? timeoutSeconds * 1000 : undefined,
          signal: controller.signal,
          controller,
          onProgress: (p) => send([null, { payload: p, mcp: { server: serverInfo, tool } }]),
          onInputRequest: unwired.wired()
            ? (request) => inputs.ask(request, controller.signal, (m) => send([null, { ...m, mcp: { server: serverInfo, tool } }]))
            : unwired.decline,
          inputTimeoutMs: inputs.timeoutMs,
          onTaskUpdate: (update) => {
            running.taskId = update.taskId;
            send([null, { topic: 'task', payload: update, mcp: { server: serverInfo, tool } }]);
          },
        });
        const mcp = callReport(result, { server: provider.identity(context), tool, args, durationMs: Date.now() - started });
        if (warnings.length) mcp.warnings = [...warnings, ...((mcp.warnings as unknown[] | undefined) ?? [])];
        if (result.isError) {
          if (toolErrors === 'throw') {
            const text = resultText(result) || 'the tool reported an error';
            throw new McpNodeError(t('mcp-call-tool.errors.toolError', { tool, message: text }), t('mcp-call-tool.status.toolError'), 'TOOL_ERROR', { result });
          }
          mcp.isError = true;
        }
        msg.payload = resultPayload(result, output);
        msg.mcp = mcp;
        send([msg, null]);
      } finally {
        inFlight.delete(controller);
      }
    });
  }
  RED.nodes.registerType('mcp-call-tool', McpCallToolNode);
};
