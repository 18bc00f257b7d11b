// Auto mode: the node calls the MCP tool itself through the server's shared provider.
import { outcomeFromError, outcomeFromResult } from './tool-results';
import type { ToolExecutor } from './types';
import type { InputAsker } from '../mcp/input-requests';

/** onInputRequest: answers a server's requests for input during a call (else they are declined). */
export function mcpExecutor(options: { timeoutMs?: number; onInputRequest?: InputAsker; inputTimeoutMs?: number } = {}): ToolExecutor {
  return async (call, signal) => {
    const provider = call.route.provider;
    if (!provider) {
      return { response: { error: `No MCP server is configured to run ${call.name} (${call.route.server})` }, isError: true };
    }
    try {
      const result = await provider.callTool(call.route.tool, call.args, {
        signal,
        timeoutMs: options.timeoutMs,
        context: call.route.context,
        onInputRequest: options.onInputRequest && ((request) => options.onInputRequest!(request)),
        inputTimeoutMs: options.inputTimeoutMs,
      });
      return outcomeFromResult(result);
    } catch (err) {
      if (signal.aborted) throw err;
      return outcomeFromError(err);
    }
  };
}
