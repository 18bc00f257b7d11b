// Calls waiting for a flow to answer (`mcp-tool-in` sent a message, `mcp-tool-out` will answer it),
// keyed by a random handle that travels in msg._mcp. Each call settles exactly once: by the
// answer, by the tool's timeout, or by the client cancelling; later answers are ignored.
import { randomUUID } from 'node:crypto';
import { errorResult, type CallToolResult, type ProgressUpdate, type ToolCall } from './types';

interface Pending {
  resolve(result: CallToolResult): void;
  call: ToolCall;
  timer: NodeJS.Timeout;
}

export class PendingCalls {
  private readonly calls = new Map<string, Pending>();

  /** Starts waiting; `deliver` hands the handle to the flow. Resolves with the flow's answer or an error result. */
  wait(call: ToolCall, timeoutMs: number, deliver: (handle: string) => void): Promise<CallToolResult> {
    const handle = randomUUID();
    return new Promise<CallToolResult>((resolve) => {
      const settle = (result: CallToolResult) => {
        const pending = this.calls.get(handle);
        if (!pending) return;
        clearTimeout(pending.timer);
        this.calls.delete(handle);
        call.signal.removeEventListener('abort', onAbort);
        resolve(result);
      };
      const onAbort = () => settle(errorResult(`The call of ${call.tool} was cancelled by the client.`));
      const timer = setTimeout(
        () =>
          settle(
            errorResult(
              `No flow answered ${call.tool} within ${timeoutMs / 1000} s: wire its mcp-tool-in to an mcp-tool-out (keep msg._mcp), or raise the tool's timeout.`,
            ),
          ),
        timeoutMs,
      );
      this.calls.set(handle, { resolve: settle, call, timer });
      if (call.signal.aborted) return onAbort();
      call.signal.addEventListener('abort', onAbort, { once: true });
      deliver(handle);
    });
  }

  /** False when the call is no longer waiting (answered, timed out, cancelled, or never existed). */
  answer(handle: string, result: CallToolResult): boolean {
    const pending = this.calls.get(handle);
    if (!pending) return false;
    pending.resolve(result);
    return true;
  }

  async progress(handle: string, update: ProgressUpdate): Promise<boolean> {
    const pending = this.calls.get(handle);
    if (!pending) return false;
    await pending.call.progress(update);
    return true;
  }

  get size(): number {
    return this.calls.size;
  }

  /** Redeploy or close: every waiting call gets an error result at once rather than its timeout. */
  closeAll(reason: string): void {
    for (const pending of [...this.calls.values()]) pending.resolve(errorResult(reason));
  }
}
