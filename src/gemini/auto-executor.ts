// Auto mode: the node calls the MCP tool itself through the server's shared provider.
import { outcomeFromError, outcomeFromResult } from './tool-results';
import type { ToolExecutor } from './types';
import type { InputAsker } from '../mcp/call/input-requests';
import type { TaskUpdate } from '../mcp/call/task-call';

type AgentToolCall = Parameters<ToolExecutor>[0];

export interface McpExecutorOptions {
  timeoutMs?: number;
  /** Answers a server's requests for input during a call (else they are declined). */
  onInputRequest?: InputAsker;
  inputTimeoutMs?: number;
  /**
   * Each status change of a call the server runs as a task, with `cancel`, which ends that one call
   * (tasks/cancel on the server); the model then reads that the tool was cancelled.
   */
  onTaskUpdate?: (call: AgentToolCall, update: TaskUpdate, cancel: () => void) => void;
}

export function mcpExecutor(options: McpExecutorOptions = {}): ToolExecutor {
  return async (call, signal) => {
    const provider = call.route.provider;
    if (!provider) {
      return { response: { error: `No MCP server is configured to run ${call.name} (${call.route.server})` }, isError: true };
    }
    const own = new AbortController();
    try {
      const result = await provider.callTool(call.route.tool, call.args, {
        signal: AbortSignal.any([signal, own.signal]),
        timeoutMs: options.timeoutMs,
        context: call.route.context,
        onInputRequest: options.onInputRequest && ((request) => options.onInputRequest!(request)),
        inputTimeoutMs: options.inputTimeoutMs,
        onTaskUpdate: options.onTaskUpdate && ((u) => options.onTaskUpdate!(call, u, () => own.abort(new Error(`task ${u.taskId} cancelled by a message`)))),
      });
      return outcomeFromResult(result);
    } catch (err) {
      if (signal.aborted) throw err;
      return outcomeFromError(err);
    }
  };
}
