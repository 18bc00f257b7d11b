// One tools/call from start to result, whatever the server's era makes of it:
// - its clock: a call that may ask a person for input keeps its own, stopped while the person
//   answers (call-clock.ts); the SDK's timer is then only a backstop that allows the input wait;
// - the listed definition goes with it for the Mcp-Param-* headers it may declare, and a server
//   that says the headers no longer match gets the tools listed again once (param-headers.ts);
// - a 2025-11-25 tool that runs as a task is called task-augmented (task-call.ts); on 2026-07-28
//   the server may answer any call with a task, which comes back with the answer (lenient-wire.ts)
//   and is followed to its end (task-call-extension.ts);
// - what the lenient readers repaired on the wire is taken off the answer and kept for the report.
// The session lends the connection (and retries it once when it was lost); the call owns the rest.
import type { ListWarning } from '../lenient/lenient-list';
import { takeWireFindings } from '../lenient/lenient-wire';
import type { CallToolResult, Client, Tool } from '../protocol/sdk';
import type { CallToolOptions, Progress } from './tool-provider';
import type { InputRouter } from './input-requests';
import { CallClock } from './call-clock';
import { callAsTask, runsAsTask } from './task-call';
import { withParamHeaders } from './param-headers';
import { followExtensionTask } from './task-call-extension';

/** What the session lends a call. */
export interface CallSite {
  /** The tool as last listed, if it was. */
  listed?: Tool;
  /** Lists the tools again (the server said the headers are stale) and returns this one. */
  relist: () => Promise<Tool | undefined>;
  /** The session's router of the server's input requests to the call that caused them. */
  inputs: InputRouter;
}

export interface CallOutcome {
  result: CallToolResult;
  warnings: ListWarning[];
  /** The answer as the server sent it, when the lenient reader had to repair it. */
  raw?: unknown;
}

export class ToolCall {
  private readonly clock?: CallClock;
  /** A task has its own deadline (asked of the server as its ttl on 2025-11-25); the person's answers count in it. */
  private readonly limitMs: number;

  constructor(
    private readonly name: string,
    private readonly args: Record<string, unknown>,
    private readonly options: CallToolOptions,
    private readonly timeoutMs: number,
    private readonly site: CallSite,
  ) {
    // The caller's own controller for this call (when it lends one) carries the clock too.
    const lent = options.controller && options.controller.signal === options.signal ? options.controller : undefined;
    if (options.onInputRequest) this.clock = new CallClock(timeoutMs, lent ?? options.signal);
    this.limitMs = Math.max(timeoutMs * 10, 10 * 60_000) + (options.inputTimeoutMs ?? 0);
  }

  /** One attempt on a connection's client; the session may make a second on a new connection. */
  async on(client: Client): Promise<CallOutcome> {
    const asker = this.options.onInputRequest;
    const clock = this.clock;
    if (!asker || !clock) return this.attempt(client);
    return this.site.inputs.run(
      (request) => clock.paused(() => asker(request)),
      () => this.attempt(client),
    );
  }

  /** The clock stops when the call has ended, however it ended. */
  end(): void {
    this.clock?.stop();
  }

  private async attempt(client: Client): Promise<CallOutcome> {
    const { name, options } = this;
    if (runsAsTask(client, this.site.listed)) {
      const result = await callAsTask(client, name, this.args, {
        timeoutMs: this.timeoutMs,
        limitMs: this.limitMs,
        signal: options.signal,
        onUpdate: options.onTaskUpdate,
      });
      return { result, warnings: [] };
    }
    const answer = await withParamHeaders(this.site.listed, (toolDefinition) => this.send(client, toolDefinition), this.site.relist);
    const { task, warnings, raw } = takeWireFindings(answer);
    if (!task) return { result: answer, warnings, raw };
    const asker = options.onInputRequest;
    const result = await followExtensionTask(client, name, task, {
      timeoutMs: this.timeoutMs,
      limitMs: this.limitMs,
      signal: options.signal,
      onUpdate: options.onTaskUpdate,
      ask: asker && ((request) => asker(request)),
    });
    return { result, warnings };
  }

  private send(client: Client, toolDefinition: Tool | undefined): Promise<CallToolResult> {
    const { clock, options, timeoutMs } = this;
    const onProgress = options.onProgress;
    return client.callTool(
      { name: this.name, arguments: this.args },
      {
        toolDefinition,
        timeout: clock ? timeoutMs + (options.inputTimeoutMs ?? 0) : timeoutMs,
        resetTimeoutOnProgress: true,
        // Progress keeps a call alive, but not forever.
        maxTotalTimeout: Math.max(timeoutMs * 10, 10 * 60_000),
        signal: clock ? clock.signal : options.signal,
        // Only a caller that shows progress asks for it (a progress token); the clock restarts with it.
        onprogress: onProgress
          ? (p) => {
              clock?.restart();
              onProgress(progressOf(p));
            }
          : undefined,
      },
    ) as Promise<CallToolResult>;
  }
}

/** Only the fields the server sent: a flow should not see `message: undefined`. */
function progressOf(p: { progress: number; total?: number; message?: string }): Progress {
  const out: Progress = { progress: p.progress };
  if (p.total !== undefined) out.total = p.total;
  if (p.message !== undefined) out.message = p.message;
  return out;
}
