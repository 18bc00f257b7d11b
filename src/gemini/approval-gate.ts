// A person's approval before risky tool calls. A call whose name matches one of the approval globs
// (its declared name or the server's name, through renames: `HassTurnOff` still catches
// `intent__HassTurnOff`), or whose tool is not marked read-only or may be destructive (when asked),
// waits: a request leaves the
// node (the flow routes it to a dashboard, Telegram, a Home Assistant notification …) and the answer
// that comes back releases it. Refused or unanswered in time, the call never runs and the model
// reads `{error:"refused by the user: …"}`. The wait sits inside the executor, so everything else
// (other requests, other sessions, memory, flow mode) carries on while it lasts.
import { randomUUID } from 'node:crypto';
import { McpNodeError } from '../errors';
import { globMatchesTool } from '../mcp/tool-names';
import type { CallOutcome, PreparedCall, ToolExecutor } from './types';
import { AGENT_SETTINGS } from './agent-settings-declaration';

export const DEFAULT_APPROVAL_TIMEOUT_S = AGENT_SETTINGS.approvalTimeout.value;

export interface ApprovalPolicy {
  /** Globs on function names (as Gemini sees them, prefix included, or the server's own tool name). */
  patterns: string[];
  /** Every tool that may be destructive: not marked readOnlyHint, and destructiveHint not false (MCP's defaults). */
  destructive: boolean;
  /** Every tool not marked readOnlyHint: true, whatever its name. */
  notReadOnly?: boolean;
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
  return policy.patterns.length > 0 || policy.destructive || !!policy.notReadOnly;
}

interface ToolHints {
  readOnlyHint?: unknown;
  destructiveHint?: unknown;
}

/**
 * Why this call needs approval, or undefined when it does not. When in doubt it asks: a hint a
 * server did not give takes MCP's default (not read-only, destructive), and a tool whose
 * definition is unknown (msg.tools without its raw list) counts as unmarked.
 */
export function approvalReason(policy: ApprovalPolicy, call: Pick<PreparedCall, 'name' | 'route'>): string | undefined {
  const names = call.route.tool && call.route.tool !== call.name ? [call.name, call.route.tool] : [call.name];
  const pattern = policy.patterns.find((p) => names.some((n) => globMatchesTool(p, n)));
  if (pattern) return names.includes(pattern) ? `${call.name} is listed as needing approval` : `${call.name} matches the approval pattern "${pattern}"`;
  const hints = ((call.route.definition as { annotations?: ToolHints } | undefined)?.annotations ?? {}) as ToolHints;
  const readOnly = hints.readOnlyHint === true;
  if (policy.notReadOnly && !readOnly) return `${call.route.tool} is not marked read-only by ${call.route.server}`;
  if (policy.destructive && !readOnly && hints.destructiveHint !== false) {
    return hints.destructiveHint === true
      ? `${call.route.tool} is marked destructive by ${call.route.server}`
      : `${call.route.tool} is not marked read-only or harmless by ${call.route.server}, so it may be destructive`;
  }
  return undefined;
}

/** The approval patterns that match none of `names` (a rule that would never ask). */
export function patternsMatchingNothing(policy: ApprovalPolicy, names: string[]): string[] {
  return policy.patterns.filter((p) => !names.some((n) => globMatchesTool(p, n)));
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
