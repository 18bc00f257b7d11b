// One function call the model asked for, run the same way by the request loop and by Gemini Live:
// resolved through the tool catalog's name mapping, its arguments checked against the MCP tool's
// inputSchema, executed, and every failure turned into an `{error}` the model can read.
import { checkArguments } from './argument-check';
import { outcomeFromError } from './tool-results';
import type { CallOutcome, PreparedCall, ToolCatalog, ToolExecutor, TraceCall } from './types';

export interface CallContext {
  catalog: ToolCatalog;
  executor: ToolExecutor;
  /** Cancels the call (node closed, Live call cancelled). */
  signal?: AbortSignal;
}

export async function runCall(
  req: CallContext,
  call: Omit<PreparedCall, 'route'>,
): Promise<{ call: Omit<PreparedCall, 'route'>; outcome: CallOutcome; trace: TraceCall }> {
  const started = performance.now();
  const route = req.catalog.routes.get(call.name);
  let outcome: CallOutcome;
  if (!route) {
    const known = [...req.catalog.routes.keys()];
    outcome = {
      response: { error: `Unknown function "${call.name}". Available functions: ${known.length ? known.join(', ') : 'none'}` },
      isError: true,
    };
  } else {
    const problem = route.definition ? checkArguments(route.definition, call.args) : undefined;
    if (problem) {
      outcome = { response: { error: `Invalid arguments for ${call.name}: ${problem}` }, isError: true };
    } else {
      try {
        outcome = await req.executor({ ...call, route }, req.signal ?? new AbortController().signal);
      } catch (err) {
        if (req.signal?.aborted) throw err;
        outcome = outcomeFromError(err);
      }
    }
  }
  const result = 'error' in outcome.response ? outcome.response.error : outcome.response.output;
  return {
    call,
    outcome,
    trace: {
      ...(call.id !== undefined ? { id: call.id } : {}),
      name: call.name,
      server: route?.server,
      tool: route?.tool,
      args: call.args,
      result,
      isError: outcome.isError,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    },
  };
}
