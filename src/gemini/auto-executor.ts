// Auto mode: the node calls the MCP tool itself through the server's shared provider.
import { outcomeFromError, outcomeFromResult } from './tool-results';
import type { ToolExecutor } from './types';

export function mcpExecutor(options: { timeoutMs?: number } = {}): ToolExecutor {
  return async (call, signal) => {
    const provider = call.route.provider;
    if (!provider) {
      return { response: { error: `No MCP server is configured to run ${call.name} (${call.route.server})` }, isError: true };
    }
    try {
      const result = await provider.callTool(call.route.tool, call.args, { signal, timeoutMs: options.timeoutMs, context: call.route.context });
      return outcomeFromResult(result);
    } catch (err) {
      if (signal.aborted) throw err;
      return outcomeFromError(err);
    }
  };
}
