// What mcp-call-tool calls, decided before anything is sent: the tool (setting, msg.tool, or a
// Gemini-style {name,args} payload mapped back through msg.mcp.names) and its arguments, checked to
// be an object, against the server's tool list (with "did you mean" names) and the inputSchema.
import { McpNodeError } from '../../src/errors';
import { checkToolArguments } from '../../src/mcp/call/argument-validator';
import { closeMatches, resolveToolName } from '../../src/mcp/tool-names';
import type { RequestContext, Tool, ToolProvider } from '../../src/mcp/call/tool-provider';
import { restoreArgumentNames } from '../../src/schema';
import type { Translate } from '../shared/i18n';
import { evaluateProperty } from '../shared/input-handler';
import type { Node, NodeMessage, RED } from '../shared/red-types';
import type { DeployedSettings } from '../../src/settings-declaration';
import type { SETTINGS } from './settings';

type CallToolSettings = DeployedSettings<typeof SETTINGS>;

export interface ToolRequest {
  tool: string;
  args: unknown;
  /** A Gemini-style call: its argument names may be the sanitised ones of a gemini-schema declaration. */
  geminiStyle: boolean;
}

export interface CheckedCall {
  /** The server's own (full) name of the tool. */
  tool: string;
  /** Set when the name asked for was not the server's but named it through a rename (`HassTurnOn` → `intent__HassTurnOn`). */
  askedAs?: string;
  /** Argument values whose `format` did not match (sent anyway: `format` is an annotation), for msg.mcp.warnings. */
  warnings: Array<{ tool: string; path: string; message: string }>;
  args: Record<string, unknown>;
  definition: Tool;
}

export function toolRequestReader(RED: RED, node: Node, settings: CallToolSettings, t: Translate): (msg: NodeMessage) => Promise<ToolRequest> {
  const configuredTool = String(settings.tool).trim();
  const argumentsProp = String(settings.arguments);
  const argumentsType = String(settings.argumentsType) || 'msg'; // typed-input convention: a blank type reads msg
  return async (msg) => {
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
}

export async function checkToolCall(
  provider: ToolProvider,
  request: ToolRequest,
  context: RequestContext,
  validate: boolean,
  t: Translate,
): Promise<CheckedCall> {
  const asked = request.tool;
  let args = request.args;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new McpNodeError(
      t('mcp-call-tool.errors.argsNotObject', { tool: asked, type: args === null ? 'null' : Array.isArray(args) ? 'array' : typeof args }),
      t('mcp-call-tool.status.badArguments'),
      'BAD_ARGUMENTS',
    );
  }
  // The exact name comes straight from the cached list; any other name is resolved against the
  // whole list, so a name written before a server renamed its tools still finds its one tool.
  let definition = await provider.findTool(asked, context);
  if (!definition) {
    const { tools } = await provider.listTools({ context });
    const resolved = resolveToolName(asked, tools);
    if (resolved.kind === 'ambiguous') {
      throw new McpNodeError(
        t('mcp-call-tool.errors.ambiguousTool', { tool: asked, candidates: resolved.candidates.map((c) => c.name).join(', ') }),
        t('mcp-call-tool.status.ambiguousTool'),
        'AMBIGUOUS_TOOL',
      );
    }
    if (resolved.kind === 'missing') {
      const near = closeMatches(
        asked,
        tools.map((x) => x.name),
      );
      throw new McpNodeError(
        t(near.length ? 'mcp-call-tool.errors.unknownToolNear' : 'mcp-call-tool.errors.unknownTool', { tool: asked, near: near.join(', ') }),
        t('mcp-call-tool.status.unknownTool'),
        'UNKNOWN_TOOL',
      );
    }
    definition = resolved.tool;
  }
  const tool = definition.name;
  if (request.geminiStyle) args = restoreArgumentNames(definition.inputSchema, args as Record<string, unknown>);
  const warnings: CheckedCall['warnings'] = [];
  if (validate) {
    const { problem, formatMismatches } = checkToolArguments(definition, args);
    if (problem)
      throw new McpNodeError(t('mcp-call-tool.errors.invalidArguments', { tool, problem }), t('mcp-call-tool.status.badArguments'), 'INVALID_ARGUMENTS');
    for (const m of formatMismatches) warnings.push({ tool, path: m.path, message: `format: ${m.message} (sent anyway; the server decides)` });
  }
  return { tool, args: args as Record<string, unknown>, definition, askedAs: tool === asked ? undefined : asked, warnings };
}
