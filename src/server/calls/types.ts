// Shapes shared by the endpoint engine: what a flow tool is, what a call carries to it, and the
// result it answers with. No Node-RED types here: the node adapters translate msg <-> these.
import type { CallToolResult, InputRequiredResult, Tool } from '@modelcontextprotocol/server';
import type { ClientAnswer, ClientInput } from './asking-the-client';

export type { CallToolResult, Tool };

/** What a tools/call handler answers: a result, or (2026-07-28) a request for the person's input first. */
export type ToolAnswer = CallToolResult | InputRequiredResult;

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** One call of a tool, as the flow (or the object graph) sees it. */
export interface ToolCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** The JSON-RPC id as the client sent it (a string through xiaozhi's relay). */
  requestId: string | number;
  client: { name?: string; version?: string };
  /** Who the caller is without its token (the SHA-256 of its bearer token, token-digest.ts); undefined on xiaozhi's link. */
  owner?: string;
  /** Fires when the client cancels or disconnects. */
  signal: AbortSignal;
  /** Sends notifications/progress when the client asked for it (a progressToken); a no-op otherwise. */
  progress(update: ProgressUpdate): Promise<void>;
  /** How the client is asked for input, when it said it can answer (elicitation capability). */
  input?: ClientInput;
  /** The client asked for a task (flow-tasks.ts): the flow has the tool's task limit, not its timeout. */
  taskId?: string;
  /** A 2026-07-28 retry bringing the person's answer to a question a built-in tool asked (its sealed handle starts with BUILT_IN_HANDLE). */
  resumed?: { handle: string; answer: ClientAnswer };
}

/** Sealed handles of questions the endpoint's own tools ask (not a flow's): a retry goes back to the tool. */
export const BUILT_IN_HANDLE = 'built-in:';

/** A tool a flow offers (`mcp-tool-in`): its definition and how a call reaches the flow. */
export interface FlowTool {
  /** The registering node's id: a tool name claimed twice is kept by the first claimant. */
  owner: string;
  definition: Tool;
  /** Bound as a method of an object-graph subject instead of a top-level tool. */
  subject?: string;
  method?: string;
  timeoutMs: number;
  /** Long-running: a client may call it as a task, and the flow then has this long to answer. */
  taskLimitMs?: number;
  invoke(call: ToolCall): Promise<ToolAnswer>;
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The object graph as the endpoint sees it (src/server/flows/object-graph implements it). */
export interface GraphTools {
  definitions(): Tool[];
  has(name: string): boolean;
  call(name: string, args: Record<string, unknown>, call: ToolCall): Promise<ToolAnswer>;
  /** The roots' names, each also served as a resource. */
  rootNames(): string[];
}

/** A result, not a request for input. */
export const isToolResult = (answer: ToolAnswer): answer is CallToolResult => (answer as { resultType?: string }).resultType !== 'input_required';
