// Flow mode: a call leaves the node as a message carrying a correlation, the flow runs the tool (a
// function node, an mcp-call-tool node, anything), and a message coming back with the same
// correlation resolves the call. The loop waits for all calls of a step, as in auto mode.
import { McpNodeError } from '../errors';
import { isCallToolResult, outcomeFromResult } from './tool-results';
import type { CallOutcome, PreparedCall, ToolExecutor } from './types';

export interface ToolCallMessage {
  topic: 'tool_call';
  payload: { id: string; name: string; args: Record<string, unknown> };
  mcp: { server: string; tool: string; names: Record<string, string> };
  _agent: string;
}

/** What came back from the flow: the message's payload, error flag and mcp metadata. */
export interface FlowResult {
  payload?: unknown;
  error?: unknown;
  mcp?: { isError?: boolean; result?: { isError?: boolean } };
}

interface Waiting {
  resolve: (outcome: CallOutcome) => void;
  timer: NodeJS.Timeout;
}

export class FlowCallRouter {
  private readonly waiting = new Map<string, Waiting>();
  private runs = 0;

  constructor(private readonly ownerId: string) {}

  /** An executor for one agent run; `emit` sends the call message on output 2. */
  executor(emit: (msg: ToolCallMessage) => void, timeoutMs: number): ToolExecutor {
    const run = ++this.runs;
    return (call: PreparedCall, signal: AbortSignal) =>
      new Promise<CallOutcome>((resolve, reject) => {
        const correlation = `${this.ownerId}:${run}:${call.step}:${call.index}`;
        const timer = setTimeout(() => {
          this.waiting.delete(correlation);
          resolve({ response: { error: `No result came back from the flow within ${+(timeoutMs / 1000).toFixed(1)} s` }, isError: true });
        }, timeoutMs);
        const onAbort = () => {
          clearTimeout(timer);
          this.waiting.delete(correlation);
          reject(new McpNodeError('Cancelled while waiting for the flow to run a tool', 'cancelled', 'GEMINI_CANCELLED'));
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.set(correlation, {
          timer,
          resolve: (outcome) => {
            signal.removeEventListener('abort', onAbort);
            resolve(outcome);
          },
        });
        emit({
          topic: 'tool_call',
          payload: { id: call.id ?? correlation, name: call.name, args: call.args },
          mcp: { server: call.route.server, tool: call.route.tool, names: { [call.name]: call.route.tool } },
          _agent: correlation,
        });
      });
  }

  isCorrelation(value: unknown): boolean {
    return typeof value === 'string' && value.startsWith(this.ownerId + ':');
  }

  /** Hands a result from the flow to the waiting call; false when nothing waits for it (late, or foreign). */
  deliver(correlation: string, result: FlowResult): boolean {
    const w = this.waiting.get(correlation);
    if (!w) return false;
    this.waiting.delete(correlation);
    clearTimeout(w.timer);
    w.resolve(outcomeFromFlow(result));
    return true;
  }

  close(): void {
    for (const w of this.waiting.values()) clearTimeout(w.timer);
    this.waiting.clear();
  }
}

function outcomeFromFlow(result: FlowResult): CallOutcome {
  if (result.error !== undefined && result.error !== null && result.error !== false) {
    const e = result.error as string | { message?: unknown };
    return { response: { error: typeof e === 'string' ? e : (e.message ?? JSON.stringify(e)) }, isError: true };
  }
  if (isCallToolResult(result.payload)) return outcomeFromResult(result.payload);
  if (result.mcp?.isError || result.mcp?.result?.isError) {
    return { response: { error: typeof result.payload === 'string' ? result.payload : (result.payload ?? 'The tool reported an error') }, isError: true };
  }
  return { response: { output: result.payload ?? null }, isError: false };
}
