// gemini-agent settings beyond the loop itself, kept out of the node file: the system prompt taken
// from a server prompt (`systemPrompt: {server, name, arguments}`), the skills its server rows name, and the approval gate
// (`approval`, `approveNotReadOnly`, `approveDestructive`, `approvalTimeout`), with the approval answers that come back
// on the input as msg.approval = {id, approved, note}, and the servers' requests for input during a tool call
// (output 3, topic "input"), answered as msg.input = {id, action, content} within the same wait.
import { McpNodeError } from '../../src/errors';
import { expandEnv, type EnvLookup } from '../../src/env-expand';
import {
  ApprovalGate,
  DEFAULT_APPROVAL_TIMEOUT_S,
  isApprovalActive,
  patternsMatchingNothing,
  type ApprovalPolicy,
  type ApprovalRequestMessage,
} from '../../src/gemini/approval-gate';
import type { ToolCatalog } from '../../src/gemini/types';
import { systemInstructionWithPrompt, withSkills, type SkillInstructions, type SystemPromptSource } from '../../src/gemini/system-prompt';
import type { ToolExecutor } from '../../src/gemini/types';
import { evaluateProperty, lines, numberSetting } from '../shared/input-handler';
import type { Node, NodeDef, NodeMessage, RED } from '../shared/red-types';
import { getServerNode } from '../shared/server-config';
import { InputWaits } from '../../src/mcp/call/input-requests';

export interface AgentExtras {
  /** A problem with the settings, reported at start and on every request. */
  problem?: string;
  systemInstruction(own: string | undefined): Promise<string | undefined>;
  guard(run: ToolExecutor, emit: (request: ApprovalRequestMessage) => void): ToolExecutor;
  /** Approval patterns that match none of the catalog's tools, each set said once (undefined: nothing new to say). */
  unmatchedApprovals(catalog: ToolCatalog): string[] | undefined;
  /** True when `msg` is an approval answer (handled: released a waiting call, or threw why not). */
  takeApprovalAnswer(msg: NodeMessage): boolean;
  /** A server's requests for input during a tool call, sent out of output 3 and answered with msg.input. */
  inputs: InputWaits;
  /** True when `msg` is an answer to an input request (handled: went to the waiting call, or threw why not). */
  takeInputAnswer(msg: NodeMessage): boolean;
}

export function agentExtras(RED: RED, def: NodeDef, env?: EnvLookup, skills?: SkillInstructions): AgentExtras {
  const gate = new ApprovalGate();
  const timeoutS = numberSetting(def.approvalTimeout, DEFAULT_APPROVAL_TIMEOUT_S)!;
  const policy: ApprovalPolicy = {
    patterns: lines(def.approval),
    destructive: def.approveDestructive === true || def.approveDestructive === 'true',
    notReadOnly: def.approveNotReadOnly === true || def.approveNotReadOnly === 'true',
    timeoutMs: (timeoutS > 0 ? timeoutS : DEFAULT_APPROVAL_TIMEOUT_S) * 1000,
  };
  const { source, problem } = systemPromptSource(RED, def.systemPrompt, env);
  const unmatchedSaid = new Set<string>();
  // A person answers an input request as they answer an approval: the approval wait applies.
  const inputs = new InputWaits(policy.timeoutMs);

  return {
    problem,
    inputs,
    takeInputAnswer(msg) {
      if (typeof (msg.input as { id?: unknown } | undefined)?.id !== 'string') return false;
      const { problem: why } = inputs.reply(msg.input as { id?: unknown });
      if (why) throw new McpNodeError(`Input answer not taken: ${why}`, 'bad input answer', 'GEMINI_INPUT_ANSWER');
      return true;
    },
    systemInstruction: async (own) => {
      if (problem) throw new McpNodeError(problem, 'bad system prompt', 'GEMINI_SYSTEM_PROMPT');
      return systemInstructionWithPrompt(source, await withSkills(skills, own));
    },
    guard: (run, emit) => gate.guard(run, policy, emit),
    unmatchedApprovals(catalog) {
      // A rule that matches nothing is how a renamed server silently stops the asking: say so.
      const names = [...catalog.routes.values()].flatMap((r) => [r.declaredName, r.tool]);
      const unmatched = catalog.routes.size ? patternsMatchingNothing(policy, names) : [];
      const key = unmatched.join('\n');
      if (!unmatched.length || unmatchedSaid.has(key)) return undefined;
      unmatchedSaid.add(key);
      return unmatched;
    },
    takeApprovalAnswer(msg) {
      const a = msg.approval as { id?: unknown; approved?: unknown; note?: unknown } | undefined;
      if (!a || typeof a !== 'object' || typeof a.id !== 'string' || !('approved' in a)) return false;
      // Anything but an explicit yes refuses: a malformed answer must not run a risky call.
      const approved = a.approved === true || a.approved === 'true';
      const note = typeof a.note === 'string' ? a.note : undefined;
      if (!gate.answer(a.id, { approved, note })) {
        const why = isApprovalActive(policy)
          ? `it was answered already, waited longer than ${timeoutS} s, or the node was redeployed since`
          : 'this node has no approval settings';
        throw new McpNodeError(`No call waits for approval ${a.id}: ${why}`, 'unknown approval', 'GEMINI_UNKNOWN_APPROVAL');
      }
      return true;
    },
  };
}

/** The node's own system instruction: the setting (a typed input), else msg.systemInstruction. */
export async function ownSystemInstruction(RED: RED, node: Node, def: NodeDef, msg: NodeMessage): Promise<string | undefined> {
  let value: unknown = '';
  if (def.systemInstruction !== undefined && def.systemInstruction !== '') {
    value = await evaluateProperty(RED, node, def.systemInstruction, def.systemInstructionType as string | undefined, msg);
  }
  if (value === undefined || value === null || value === '') value = msg.systemInstruction;
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function systemPromptSource(RED: RED, value: unknown, env?: EnvLookup): { source?: SystemPromptSource; problem?: string } {
  const sp = (typeof value === 'string' ? parseJson(value) : value) as { server?: unknown; name?: unknown; arguments?: unknown } | undefined;
  if (!sp || typeof sp !== 'object' || !sp.server) return {};
  const name = expandEnv(String(sp.name ?? ''), env).trim();
  const server = getServerNode(RED, sp.server);
  if (!server) return { problem: `System prompt: mcp-server ${String(sp.server)} is not deployed; pick a server in the node` };
  if (!name) return { problem: 'System prompt: no prompt name; set one (Home Assistant: Assist) or clear the server' };
  const args = typeof sp.arguments === 'string' ? (sp.arguments.trim() ? parseJson(sp.arguments) : {}) : sp.arguments;
  if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) {
    return { problem: 'System prompt: arguments must be a JSON object of name: value pairs' };
  }
  return { source: { provider: server.provider, name, arguments: args as Record<string, unknown> | undefined } };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
