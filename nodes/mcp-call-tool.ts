// `mcp-call-tool`: calls one MCP tool. The tool comes from the setting, else msg.tool, else a
// Gemini-style call {name,args} in msg.payload (mapped back through msg.mcp.names). Arguments are
// validated against the tool's inputSchema before anything is sent. Output 1 result, output 2 progress.
import { McpNodeError } from '../src/errors';
import { validateArguments } from '../src/mcp/argument-validator';
import { closeMatches } from '../src/mcp/tool-names';
import { restoreArgumentNames } from '../src/schema';
import { resultFiles, resultPayload, resultText, type OutputMode } from '../src/mcp/tool-result';
import { leniencyOf } from '../src/mcp/lenient-result';
import { statusWriter } from './lib/node-status';
import { evaluateProperty, handleInput, numberSetting } from './lib/input-handler';
import { translator } from './lib/i18n';
import type { Node, NodeDef, NodeMessage, RED } from './lib/red-types';
import { getServerNode } from './lib/server-config';

interface ToolRequest {
  tool: string;
  args: unknown;
  /** A Gemini-style call: its argument names may be the sanitised ones of a gemini-schema declaration. */
  geminiStyle: boolean;
}

export = function (RED: RED) {
  const t = translator(RED, 'mcp-call-tool');
  function McpCallToolNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const server = getServerNode(RED, def.server);
    const configuredTool = typeof def.tool === 'string' ? def.tool.trim() : '';
    const argumentsProp = typeof def.arguments === 'string' && def.arguments ? def.arguments : '';
    const argumentsType = (def.argumentsType as string) || 'msg';
    const validate = def.validate !== false && def.validate !== 'false';
    const timeoutSeconds = numberSetting(def.timeout, undefined);
    const output = ((def.output as string) || 'auto') as OutputMode;
    const toolErrors = (def.toolErrors as string) === 'output' ? 'output' : 'throw';
    const inFlight = new Set<AbortController>();

    if (!server) {
      node.error(t('mcp-call-tool.errors.noServer'));
      statusWriter(RED, node).fixed({ fill: 'red', shape: 'ring', text: t('mcp-call-tool.status.noServer') });
    } else {
      server.register(node);
    }
    node.on('close', (_removed: boolean, done: () => void) => {
      // Cancelling sends notifications/cancelled for every call still running.
      for (const c of inFlight) c.abort(new Error('node closed'));
      inFlight.clear();
      server?.deregister(node);
      done();
    });

    const resolveRequest = async (msg: NodeMessage): Promise<ToolRequest> => {
      const payload = msg.payload as { name?: unknown; args?: unknown } | undefined;
      let tool = configuredTool || (typeof msg.tool === 'string' ? msg.tool : '');
      let geminiStyle = false;
      if (!tool && payload && typeof payload === 'object' && typeof payload.name === 'string') {
        geminiStyle = true;
        const names = (msg.mcp as { names?: Record<string, string> } | undefined)?.names;
        tool = names?.[payload.name] ?? payload.name;
      }
      if (!tool) throw new McpNodeError(t('mcp-call-tool.errors.noTool'), t('mcp-call-tool.status.noTool'), 'NO_TOOL');
      let args: unknown;
      if (argumentsProp) args = await evaluateProperty(RED, node, argumentsProp, argumentsType, msg);
      else args = geminiStyle ? (payload!.args ?? {}) : msg.payload;
      return { tool, args, geminiStyle };
    };

    handleInput(
      RED,
      node,
      async (msg: NodeMessage, send) => {
        if (!server) throw new McpNodeError(t('mcp-call-tool.errors.noServer'), t('mcp-call-tool.status.noServer'), 'NO_SERVER');
        const provider = server.provider;
        const request = await resolveRequest(msg);
        const { tool } = request;
        let args = request.args;
        if (args === null || typeof args !== 'object' || Array.isArray(args)) {
          throw new McpNodeError(
            t('mcp-call-tool.errors.argsNotObject', { tool, type: args === null ? 'null' : Array.isArray(args) ? 'array' : typeof args }),
            t('mcp-call-tool.status.badArguments'),
            'BAD_ARGUMENTS',
          );
        }
        const context = { deviceId: (msg.device as { id?: string } | undefined)?.id };
        const definition = await provider.findTool(tool, context);
        if (!definition) {
          const { tools } = await provider.listTools({ context });
          const near = closeMatches(tool, tools.map((t) => t.name));
          throw new McpNodeError(
            t(near.length ? 'mcp-call-tool.errors.unknownToolNear' : 'mcp-call-tool.errors.unknownTool', { tool, near: near.join(', ') }),
            t('mcp-call-tool.status.unknownTool'),
            'UNKNOWN_TOOL',
          );
        }
        if (request.geminiStyle) args = restoreArgumentNames(definition.inputSchema, args as Record<string, unknown>);
        if (validate) {
          const problem = validateArguments(definition, args);
          if (problem) {
            throw new McpNodeError(t('mcp-call-tool.errors.invalidArguments', { tool, problem }), t('mcp-call-tool.status.badArguments'), 'INVALID_ARGUMENTS');
          }
        }
        const controller = new AbortController();
        inFlight.add(controller);
        const started = Date.now();
        const serverInfo = provider.identity(context);
        try {
          const result = await provider.callTool(tool, args as Record<string, unknown>, {
            context,
            timeoutMs: timeoutSeconds !== undefined ? timeoutSeconds * 1000 : undefined,
            signal: controller.signal,
            onProgress: (p) => send([null, { payload: p, mcp: { server: serverInfo, tool } }]),
          });
          const mcp: Record<string, unknown> = {
            server: provider.identity(context),
            tool,
            arguments: args,
            result: { content: result.content, structuredContent: result.structuredContent, isError: result.isError === true },
            durationMs: Date.now() - started,
          };
          // A result the SDK's schema rejects: the server's raw answer, and what was read from it.
          const leniency = leniencyOf(result);
          if (leniency) mcp.warnings = leniency.warnings;
          if (leniency?.raw !== undefined) mcp.result = leniency.raw;
          const files = resultFiles(result);
          if (files.length) mcp.files = files;
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
      },
    );
  }
  RED.nodes.registerType('mcp-call-tool', McpCallToolNode);
};

