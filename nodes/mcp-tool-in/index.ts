// `mcp-tool-in`: declares one tool on an mcp-endpoint (or a method of an object-graph subject) and
// sends one message per call: the validated arguments in msg.payload, the reply handle in msg._mcp
// (keep it, as `http in`'s msg.res, for the mcp-tool-out that answers).
import { flowToolSettings } from '../../src/server/flows/flow-tool';
import { withDeclaredDefaults } from '../../src/settings-declaration';
import { TOOL_IN_SETTINGS } from '../../src/server/flows/tool-in-settings-declaration';
import { errorResult, type ToolCall } from '../../src/server/calls/types';
import { errorMessage } from '../../src/errors';
import { translator } from '../shared/i18n';
import { getEndpointNode } from '../mcp-endpoint/endpoint-config';
import type { Node, NodeDef, RED } from '../shared/red-types';
import { nodeEnvLookup } from '../shared/node-env';

export = function (RED: RED) {
  const t = translator(RED, 'mcp-tool-in');
  function McpToolInNode(this: Node, flowDef: NodeDef) {
    RED.nodes.createNode(this, flowDef);
    const def = withDeclaredDefaults(flowDef, TOOL_IN_SETTINGS, nodeEnvLookup(RED, this));
    const node = this;
    const config = getEndpointNode(RED, def.endpoint);
    const fail = (text: string, status: string) => {
      node.error(text);
      node.status({ fill: 'red', shape: 'ring', text: status });
    };
    if (!config) return fail(t('mcp-tool-in.errors.noEndpoint'), t('mcp-tool-in.status.noEndpoint'));
    let settings: ReturnType<typeof flowToolSettings>;
    try {
      settings = flowToolSettings(def);
    } catch (err) {
      return fail(t('mcp-tool-in.errors.badTool', { reason: errorMessage(err) }), t('mcp-tool-in.status.badTool'));
    }
    const { definition, check, timeoutMs, inputWaitMs, taskLimitMs } = settings;
    const endpoint = config.endpoint;

    const invoke = (call: ToolCall) => {
      const invalid = check(call.arguments);
      if (invalid) return Promise.resolve(errorResult(t('mcp-tool-in.errors.badArguments', { tool: definition.name, reason: invalid })));
      const mcp = {
        endpoint: config.label,
        tool: definition.name,
        requestId: call.requestId,
        client: call.client,
        ...(call.taskId ? { taskId: call.taskId } : {}),
      };
      return endpoint.pending.wait(
        call,
        // A call made as a task (Long-running) may take the task limit.
        call.taskId && taskLimitMs ? taskLimitMs : timeoutMs,
        (handle) => node.send({ payload: call.arguments, mcp, _mcp: { endpoint: config.id, handle } }),
        // The person's answer to the flow's input request (mcp-tool-out with msg.input): same call, same handle.
        {
          inputWaitMs,
          onInput: (handle, answer) => node.send({ topic: 'input', payload: answer.content ?? {}, input: answer, mcp, _mcp: { endpoint: config.id, handle } }),
        },
      );
    };
    config.register(node);
    const takenBy = endpoint.tools.register({ owner: node.id, definition, subject: settings.subject, method: settings.method, timeoutMs, taskLimitMs, invoke });
    if (takenBy) fail(t('mcp-tool-in.errors.duplicate', { tool: definition.name, other: takenBy }), t('mcp-tool-in.status.duplicate'));
    node.on('close', (_removed: boolean, done: () => void) => {
      endpoint.tools.deregister(node.id);
      config.deregister(node);
      done();
    });
  }
  RED.nodes.registerType('mcp-tool-in', McpToolInNode);
};
