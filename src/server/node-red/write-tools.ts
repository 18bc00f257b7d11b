// Node-RED's flows as write tools, offered only when the endpoint allows changes: an assistant
// proposes a change (flow_validate, flow_change), a person approves its deploy (flow_deploy asks the
// client when it can ask and the approval is not kept for the editor, and the endpoint's dialog in
// the editor always shows it with Approve / Deny), every deploy keeps a snapshot that flow_rollback
// (or the dialog's Roll back) restores exactly, and inject runs a flow so the assistant can read
// what its change did. Every change is recorded in the ChangeBook.
import type { InputRequiredResult, Tool } from '@modelcontextprotocol/server';
import { BUILT_IN_HANDLE, type ToolCall } from '../calls/types';
import { checkedAnswer, elicitParams, inputRequiredResult, type ClientAnswer, type FlowForm } from '../calls/asking-the-client';
import { planChange, REDACTED, TAB_MARKER, type Plan } from './change-plan';
import { ChangeBook, type ChangeRecord } from './change-book';
import type { DeployedNode, NodeRedRuntime, NodeRedView } from './types';
import { readable } from './read-tools';

/** How long flow_deploy waits for a person in the editor before it answers "still waiting" (a client's request timeout is often 60 s). */
export const DEPLOY_WAIT_MS = 45_000;
/** How long after a deploy or an inject the errors and debug messages are gathered. */
const SETTLE_MS = 1_000;

export interface ChangePolicy {
  /** Only tabs whose description carries #assistant. */
  markedOnly: boolean;
  /** Deploys are approved in the editor only, never by the client. */
  editorOnly: boolean;
  /** The endpoint node's id. */
  self: string;
  settleMs?: number;
  deployWaitMs?: number;
}

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const changesSchema = {
  type: 'array',
  minItems: 1,
  description: `A list of {op: "tab", tab: {label, info?}} | {op: "add", node: {id?, type, z, x, y, wires, …settings}} | {op: "change", node: {id, …settings to change; null removes one}} | {op: "remove", id}. Nodes in Node-RED's flow JSON; a credentials value can only be "${REDACTED}" (keep what is stored).`,
  items: { type: 'object', properties: { op: { type: 'string', enum: ['tab', 'add', 'change', 'remove'] } }, required: ['op'] },
};

export const NODE_RED_WRITE_TOOLS: Tool[] = [
  {
    name: 'flow_validate',
    title: 'Check a change',
    description:
      'Checks a proposed change without keeping it: unknown node types, wires to missing nodes or other tabs, duplicate ids, missing config nodes, tabs out of reach, credentials. Answers the problems, or what the change would do.',
    inputSchema: { type: 'object', properties: { changes: changesSchema }, required: ['changes'] },
    annotations: { ...WRITE, readOnlyHint: true, idempotentHint: true },
  },
  {
    name: 'flow_change',
    title: 'Propose a change',
    description: 'Checks a change and keeps it as a proposal: answers its change id and what it would do. Nothing runs until flow_deploy.',
    inputSchema: { type: 'object', properties: { changes: changesSchema }, required: ['changes'] },
    annotations: WRITE,
  },
  {
    name: 'flow_deploy',
    title: 'Deploy a change',
    description:
      'Deploys a proposed change once a person approves it (asked in the client, or in the Node-RED editor). A snapshot is kept first. Answers the new revision and any errors the changed nodes reported, or that it is still waiting for the person.',
    inputSchema: { type: 'object', properties: { change: { type: 'string', description: 'the id flow_change answered, e.g. "c1"' } }, required: ['change'] },
    annotations: { ...WRITE, destructiveHint: true },
  },
  {
    name: 'flow_rollback',
    title: 'Roll back',
    description: 'Restores the flows exactly as they were before a deployed change (default: the latest), undoing the later ones too.',
    inputSchema: { type: 'object', properties: { change: { type: 'string', description: 'a deployed change id (optional)' } } },
    annotations: { ...WRITE, destructiveHint: true },
  },
  {
    name: 'inject',
    title: 'Press an inject button',
    description: 'Fires an inject node as its button in the editor does; answers the errors and debug messages of its tab that followed within a second.',
    inputSchema: { type: 'object', properties: { node: { type: 'string', description: 'the id or name of an inject node' } }, required: ['node'] },
    annotations: { ...WRITE, openWorldHint: true },
  },
];

export class NodeRedChanges {
  constructor(
    private readonly runtime: NodeRedRuntime,
    private readonly view: NodeRedView,
    readonly book: ChangeBook,
    private readonly policy: ChangePolicy,
    private readonly scrub: <T>(value: T) => T,
  ) {}

  async call(name: string, args: Record<string, unknown>, call: ToolCall): Promise<Record<string, unknown> | InputRequiredResult> {
    switch (name) {
      case 'flow_validate': {
        const plan = await this.plan(args.changes);
        return plan.problems.length ? { valid: false, problems: plan.problems } : { valid: true, would: plan.lines };
      }
      case 'flow_change': {
        const plan = await this.plan(args.changes);
        if (plan.problems.length) throw new Refusal({ valid: false, problems: plan.problems });
        const record = this.book.propose(call.client.name || 'a client', args.changes as unknown[], plan.lines, call.owner);
        return { change: record.id, would: plan.lines, next: `flow_deploy with change "${record.id}" asks a person to approve it` };
      }
      case 'flow_deploy':
        return this.deploy(text(args.change, 'change'), call);
      case 'flow_rollback':
        return this.rollback(
          args.change === undefined || args.change === '' ? undefined : text(args.change, 'change'),
          `client: ${call.client.name || 'a client'}`,
        );
      case 'inject':
        return this.inject(text(args.node, 'node'));
      default:
        throw new Error(`Unknown tool: ${name}`);
    }
  }

  /** A person's decision in the editor (or the client's form): an approval deploys at once. */
  async decide(id: string, approve: boolean, by: string, reason?: string): Promise<ChangeRecord> {
    const record = this.book.get(id);
    if (!record) throw new Error(`no change ${id}`);
    if ((record.state !== 'waiting' && record.state !== 'proposed') || this.applying.has(id))
      throw new Error(`change ${id} is ${this.applying.has(id) ? 'being deployed' : record.state} already`);
    if (!approve) {
      this.book.update(record, { state: 'denied', decidedBy: by, decidedAt: Date.now(), reason });
      return record;
    }
    this.applying.add(id);
    try {
      await this.apply(record, by);
    } finally {
      this.applying.delete(id);
    }
    return record;
  }

  private async plan(changes: unknown): Promise<Plan> {
    const [{ flows }, types] = await Promise.all([this.runtime.flows(), this.runtime.types()]);
    return planChange(flows, changes, {
      types: new Set(types.filter((t) => t.enabled).map((t) => t.type)),
      credentialKeys: (id) => this.runtime.credentialKeys(id),
      scrub: this.scrub,
      markedOnly: this.policy.markedOnly,
      self: this.policy.self,
    });
  }

  private async deploy(id: string, call: ToolCall): Promise<Record<string, unknown> | InputRequiredResult> {
    const record = this.book.get(id);
    if (!record) throw new Error(`No change "${id}": flow_change answers the id of the change it keeps`);
    const client = call.client.name || 'a client';
    // A client asks to deploy only what it proposed itself; the person in the editor decides any.
    if (record.owner !== undefined && call.owner !== undefined && record.owner !== call.owner)
      throw new Error(`Change ${id} was proposed by another client: propose it yourself with flow_change`);
    if (call.resumed?.handle === handleOf(record) && record.state === 'waiting' && !this.policy.editorOnly) {
      // A 2026-07-28 retry with the person's answer to our question.
      await this.decideAnswer(record, checkedAnswer(call.resumed.answer, DEPLOY_FORM), client);
      return this.outcome(record);
    }
    if (record.state === 'proposed') {
      // Checked again against the flows as they are now: someone may have deployed meanwhile.
      const plan = await this.plan(record.changes);
      if (plan.problems.length) {
        this.book.update(record, { state: 'failed', reason: plan.problems.join('; ') });
        throw new Refusal({ change: id, state: 'failed', problems: plan.problems });
      }
      this.book.update(record, { state: 'waiting', lines: plan.lines });
      const input = call.input?.kind === 'deferred' ? call.input.current() : call.input;
      const question = { message: `Deploy this change to Node-RED?\n${record.lines.join('\n')}`, schema: DEPLOY_FORM };
      if (!this.policy.editorOnly && input?.kind === 'retry') return inputRequiredResult(question, await input.seal(handleOf(record)));
      if (!this.policy.editorOnly && input?.kind === 'during-call')
        void input.ask(elicitParams(question)).then(
          (answer) => this.decideAnswer(record, answer as ClientAnswer, client),
          () => {}, // the client could not ask (or the call ended): the editor still can
        );
    }
    await this.book.settled(record, this.policy.deployWaitMs ?? DEPLOY_WAIT_MS, call.signal);
    return this.outcome(record);
  }

  private async decideAnswer(record: ChangeRecord, answer: ClientAnswer, client: string): Promise<void> {
    if (record.state !== 'waiting') return; // decided in the editor meanwhile
    // Accept is the person's yes (the form asks nothing more); decline and cancel are a no.
    const approved = answer.action === 'accept';
    await this.decide(record.id, approved, `client: ${client}`, approved ? undefined : `the person answered ${answer.action}`).catch(() => {});
  }

  private outcome(record: ChangeRecord): Record<string, unknown> {
    const base = { change: record.id, state: record.state, decidedBy: record.decidedBy };
    switch (record.state) {
      case 'waiting':
        return {
          ...base,
          next: `A person has not decided yet: the change waits in the Node-RED editor (the endpoint's dialog). Call flow_deploy with change "${record.id}" again to keep waiting.`,
        };
      case 'denied':
        return { ...base, reason: record.reason, next: 'Nothing was changed.' };
      case 'failed':
        throw new Refusal({ ...base, reason: record.reason });
      default:
        return { ...base, rev: record.rev, ...(this.settledReport.get(record.id) ?? {}) };
    }
  }

  private readonly settledReport = new Map<string, Record<string, unknown>>();
  private readonly applying = new Set<string>();

  private async apply(record: ChangeRecord, by: string): Promise<void> {
    const { flows: current } = await this.runtime.flows();
    const plan = await this.plan(record.changes);
    if (plan.problems.length) {
      this.book.update(record, { state: 'failed', decidedBy: by, decidedAt: Date.now(), reason: plan.problems.join('; ') });
      return;
    }
    const snapshot = JSON.stringify(current);
    const since = Date.now();
    try {
      const rev = await this.runtime.deploy(plan.flows, by);
      this.book.lastRev = rev;
      await delay(this.policy.settleMs ?? SETTLE_MS);
      this.settledReport.set(record.id, { lines: plan.lines, ...this.report(plan.tabs, since) });
      if (this.settledReport.size > 50) this.settledReport.delete(this.settledReport.keys().next().value!);
      this.book.update(record, { state: 'deployed', decidedBy: by, decidedAt: Date.now(), snapshot, rev, lines: plan.lines });
    } catch (err) {
      this.book.update(record, { state: 'failed', decidedBy: by, decidedAt: Date.now(), reason: (err as Error).message });
    }
  }

  async rollback(id: string | undefined, by: string): Promise<Record<string, unknown>> {
    const deployed = this.book.deployed();
    const target = id ? this.book.get(id) : deployed[0];
    if (!target) throw new Error(id ? `No change "${id}"` : 'No deployed change to roll back');
    if (target.state !== 'deployed') throw new Error(`Change ${target.id} is ${target.state}, not deployed: nothing to roll back`);
    if (!target.snapshot) throw new Error(`Change ${target.id} is too old: its snapshot is no longer kept`);
    const { rev } = await this.runtime.flows();
    if (rev !== this.book.lastRev)
      throw new Error(
        `The flows were deployed by someone else after change ${deployed[0]?.id ?? target.id} (revision ${rev}): rolling back would undo their work, so a person rolls back in the editor`,
      );
    const undone = deployed.slice(0, deployed.indexOf(target) + 1);
    const restored = JSON.parse(target.snapshot) as DeployedNode[];
    const newRev = await this.runtime.deploy(restored, by);
    this.book.lastRev = newRev;
    const now = await this.runtime.flows();
    for (const r of undone) this.book.update(r, { state: 'rolled back', decidedBy: by, decidedAt: Date.now() });
    return { rolledBack: undone.map((r) => r.id), rev: newRev, identical: JSON.stringify(now.flows) === target.snapshot };
  }

  private async inject(wanted: string): Promise<Record<string, unknown>> {
    const node = this.view.nodes().find((n) => n.type === 'inject' && (n.id === wanted || n.name === wanted));
    if (!node) throw new Error(`No inject node has the id or name "${wanted}"; nodes_search with "inject" lists them`);
    if (this.policy.markedOnly) {
      const tab = this.view.nodes().find((n) => n.id === node.z);
      if (!(typeof tab?.info === 'string' && tab.info.includes(TAB_MARKER)))
        throw new Error(`This endpoint runs only inject nodes on tabs marked ${TAB_MARKER}`);
    }
    const since = Date.now();
    if (!this.runtime.inject(node.id)) throw new Error(`The inject node ${node.id} is not running (disabled, or not deployed yet)`);
    await delay(this.policy.settleMs ?? SETTLE_MS);
    const report = this.report(node.z ? [node.z] : [], since);
    const debug = this.view
      .sidebar()
      .filter((e) => e.time >= since && e.level === undefined && e.z === node.z)
      .map((e) => ({ node: e.id, name: e.name, value: e.msg }));
    return { injected: node.id, ...report, debug };
  }

  /** What went wrong on these tabs since `since`: errors and warnings reported, and red statuses now. */
  private report(tabs: string[], since: number): { errors: unknown[]; redStatus: unknown[] } {
    const on = new Set(tabs);
    const nodes = this.view.nodes();
    const errors = this.view
      .sidebar()
      .filter((e) => e.time >= since && (e.level === 20 || e.level === 30) && e.z !== undefined && on.has(e.z))
      .map((e) => ({ node: e.id, name: e.name, level: e.level === 20 ? 'error' : 'warning', message: readable(e.msg) }));
    const redStatus = nodes
      .filter((n) => n.z !== undefined && on.has(n.z) && this.view.status(n.id)?.fill === 'red')
      .map((n) => ({ node: n.id, type: n.type, status: this.view.status(n.id)?.text ?? '' }));
    return { errors, redStatus };
  }
}

/** A refusal the client reads as structured content with isError. */
export class Refusal extends Error {
  constructor(readonly detail: Record<string, unknown>) {
    super(JSON.stringify(detail));
  }
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new Error(`${name} must be a non-empty string`);
  return value.trim();
}

/** The question needs no field: Accept deploys, Decline refuses (any client renders it, any answer fits). */
const DEPLOY_FORM: FlowForm = { type: 'object', properties: {} };

const handleOf = (record: ChangeRecord) => `${BUILT_IN_HANDLE}node-red-deploy:${record.id}`;

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
