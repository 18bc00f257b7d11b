// How the agent runs the model's tool calls: through the flow (flow mode: output 2 and back), or on
// the MCP servers itself (auto mode), where a server may run a long call as a task. Each status
// change of such a task leaves output 2 (`topic: "task"`), and `msg.cancel` (true, or a task id)
// cancels running tasks: the server hears tasks/cancel and the model reads that the tool was cancelled.
import { mcpExecutor } from '../../src/gemini/auto-executor';
import type { FlowCallRouter } from '../../src/gemini/flow-executor';
import type { ToolExecutor } from '../../src/gemini/types';
import type { InputWaits } from '../../src/mcp/call/input-requests';
import type { NodeMessage } from '../shared/red-types';

type Send = (msgs: Array<NodeMessage | null>) => void;

export function agentToolRunner(o: { toolMode: string; router: FlowCallRouter; timeoutMs: number; inputs: InputWaits; signal: AbortSignal }) {
  const running = new Map<string, () => void>();
  return {
    executor(session: string, send: Send): ToolExecutor {
      if (o.toolMode === 'flow') return o.router.executor((call) => send([null, { ...call }]), o.timeoutMs);
      return mcpExecutor({
        onInputRequest: (r) => o.inputs.ask(r, o.signal, (m) => send([null, null, { ...m, gemini: { sessionId: session } }])),
        inputTimeoutMs: o.inputs.timeoutMs,
        onTaskUpdate: (call, update, cancel) => {
          if (['completed', 'failed', 'cancelled'].includes(update.status)) running.delete(update.taskId);
          else running.set(update.taskId, cancel);
          send([null, { topic: 'task', payload: update, mcp: { server: call.route.server, tool: call.route.tool }, gemini: { sessionId: session } }]);
        },
      });
    },
    /** `msg.cancel`: true cancels every running task, a task id that one; says how many. */
    cancel(which: true | string): number {
      const ids = which === true ? [...running.keys()] : running.has(which) ? [which] : [];
      for (const id of ids) {
        running.get(id)!();
        running.delete(id);
      }
      return ids.length;
    },
  };
}
