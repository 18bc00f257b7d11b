import type { GoogleToolUse } from './google-tools';
// Shapes shared by the Gemini loop, its tool catalog and the node adapter. Gemini's own types come
// from @google/genai; these are ours: where a declared function goes, and what the trace records.
import type { Content, FunctionDeclaration, GenerateContentResponseUsageMetadata } from '@google/genai';
import type { RequestContext, Tool, ToolProvider } from '../mcp/call/tool-provider';

export type { Content, FunctionDeclaration };

export type FunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

/** Where a declared function name leads: which server, which MCP tool, and how to call it there. */
export interface ToolRoute {
  declaredName: string;
  /** Display name of the MCP server (trace, flow-mode `msg.mcp.server`). */
  server: string;
  serverId?: string;
  /** MCP tool name on that server. */
  tool: string;
  /** The raw MCP tool (its inputSchema validates arguments); absent for hand-written declarations. */
  definition?: Tool;
  /** Auto mode calls through this; absent when only the flow can run the tool. */
  provider?: ToolProvider;
  context?: RequestContext;
}

export interface ToolCatalog {
  declarations: FunctionDeclaration[];
  routes: Map<string, ToolRoute>;
  warnings: string[];
  /** Servers whose tools could not be listed; the request runs with the others' tools. */
  unavailable: Array<{ server: string; error: string }>;
  /** Per configured server, in order: its name and tool count with the functions it gives, or its error. */
  bySource?: Array<{ server: string; total: number; functions: string[] } | { server: string; error: string }>;
}

/** A function call the model asked for, resolved to its route and ready to run. */
export interface PreparedCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
  route: ToolRoute;
  step: number;
  index: number;
}

/** What goes back to the model in `functionResponse.response`: Gemini's `{output}`/`{error}` convention. */
export type FunctionResult = { output: unknown } | { error: unknown };

export interface CallOutcome {
  response: FunctionResult;
  isError: boolean;
}

/** Runs one call: the node's MCP providers in auto mode, a round trip through the flow in flow mode. */
export type ToolExecutor = (call: PreparedCall, signal: AbortSignal) => Promise<CallOutcome>;

export interface TraceCall {
  id?: string;
  name: string;
  server?: string;
  tool?: string;
  args: Record<string, unknown>;
  result?: unknown;
  isError: boolean;
  durationMs: number;
}

export interface TraceStep {
  calls: TraceCall[];
  usage?: Usage;
  /** What Google's own tools (Search, URL context, code execution) did in this turn. */
  google?: GoogleToolUse;
}

export interface Usage {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  totalTokenCount?: number;
}

export type { GenerateContentResponseUsageMetadata };

export interface AgentResult {
  text: string;
  /** Full conversation: the history given in, the prompt, every model and function-response turn. */
  contents: Content[];
  steps: TraceStep[];
  usage: Usage;
  finishReason?: string;
  /** Set when Gemini refused the prompt (`promptFeedback.blockReason`). */
  blocked?: string;
  modelVersion?: string;
}
