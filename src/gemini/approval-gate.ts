// A person's approval before risky tool calls. A call whose declared name matches one of the
// approval globs, or whose tool is marked destructiveHint (when asked), waits: a request leaves the
// node (the flow routes it to a dashboard, Telegram, a Home Assistant notification …) and the answer
// that comes back releases it. Refused or unanswered in time, the call never runs and the model
// reads `{error:"refused by the user: …"}`. The wait sits inside the executor, so everything else
// (other requests, other sessions, memory, flow mode) carries on while it lasts.
import { randomUUID } from 'node:crypto';
import { minimatch } from 'minimatch';
import { McpNodeError } from '../errors';
import type { CallOutcome, PreparedCall, ToolExecutor } from './types';

export const DEFAULT_APPROVAL_TIMEOUT_S = 300;

export interface ApprovalPolicy {
  /** Globs on declared function names (as Gemini sees them, prefix included). */
  patterns: string[];
  /** Every tool whose annotations say destructiveHint: true. */
  destructive: boolean;
  timeoutMs: number;
}

export interface ApprovalRequestMessage {
  topic: 'approval';
  payload: { tool: string; server: string; args: Record<string, unknown>; reason: string; name: string };
  approval: { id: string };
}

export interface ApprovalAnswer {
  approved: boolean;
  note?: string;
}

interface Waiting {
  settle: (answer: ApprovalAnswer) => void;
}

export function isApprovalActive(policy: ApprovalPolicy): boolean {
  return policy.patterns.length > 0 || policy.destructive;
}

/** Why this call needs approval, or undefined when it does not. */
function approvalReason(policy: ApprovalPolicy, call: Pick<PreparedCall, 'name' | 'route'>): string | undefined {
  const pattern = policy.patterns.find((p) => minimatch(call.name, p, { dot: true }));
  if (pattern) return pattern === call.name ? `${call.name} is listed as needing approval` : `${call.name} matches the approval pattern "${pattern}"`;
  const annotations = (call.route.definition as { annotations?: { destructiveHint?: unknown } } | undefined)?.annotations;
  if (policy.destructive && annotations?.destructiveHint === true) return `${call.route.tool} is marked destructive by ${call.route.server}`;
  return undefined;
}

export class ApprovalGate {
  private readonly waiting = new Map<string, Waiting>();

  /** Wraps `run` so that calls needing approval wait for an answer first; `emit` sends the request. */
  guard(run: ToolExecutor, policy: ApprovalPolicy, emit: (request: ApprovalRequestMessage) => void): ToolExecutor {
    if (!isApprovalActive(policy)) return run;
    return async (call, signal) => {
      const reason = approvalReason(policy, call);
      if (!reason) return run(call, signal);
      const answer = await this.ask(call, reason, policy.timeoutMs, signal, emit);
      if (!answer.approved) return refused(answer.note);
      return run(call, signal);
    };
  }

  /** Hands an answer to the call waiting under `id`; false when none waits (answered, timed out, redeployed). */
  answer(id: string, answer: ApprovalAnswer): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    w.settle(answer);
    return true;
  }

  get pending(): number {
    return this.waiting.size;
  }

  private ask(call: PreparedCall, reason: string, timeoutMs: number, signal: AbortSignal, emit: (r: ApprovalRequestMessage) => void): Promise<ApprovalAnswer> {
    return new Promise((resolve, reject) => {
      const id = randomUUID();
      const finish = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiting.delete(id);
      };
      const timer = setTimeout(() => {
        finish();
        resolve({ approved: false, note: `no answer within ${+(timeoutMs / 1000).toFixed(3)} s` });
      }, timeoutMs);
      const onAbort = () => {
        finish();
        reject(
          new McpNodeError(
            `The node was closed or redeployed while ${call.name} waited for approval; the call was not made`,
            'approval cancelled',
            'GEMINI_APPROVAL_CANCELLED',
          ),
        );
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        settle: (answer) => {
          finish();
          resolve(answer);
        },
      });
      emit({
        topic: 'approval',
        payload: { tool: call.route.tool, server: call.route.server, args: call.args, reason, name: call.name },
        approval: { id },
      });
    });
  }
}

function refused(note: string | undefined): CallOutcome {
  return { response: { error: `refused by the user: ${note && note.trim() ? note.trim() : 'no reason given'}` }, isError: true };
}
