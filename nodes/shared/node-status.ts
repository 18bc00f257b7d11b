// One status writer per node. A node's status has two sources: its own requests (blue dot while in
// flight, red ring on failure, as core's http request node) and the servers it uses (yellow
// connecting, green "N tools", red reason). Both go through here, so a gemini-agent that uses
// several servers shows its own summary instead of whichever server changed last.
import type { ProviderState } from '../../src/mcp/call/tool-provider';
import type { Node, NodeStatus, RED } from './red-types';
import { statusFor } from './server-status';

interface ServerEntry {
  name: string;
  state: ProviderState;
}

export class NodeStatusWriter {
  private readonly servers = new Map<string, ServerEntry>();
  private inFlight = 0;
  private busyText = '';
  private failure?: string;
  /** A node-specific remark shown when nothing else is going on (e.g. "2 tools missing"). */
  note?: () => NodeStatus | undefined;

  constructor(
    private readonly RED: RED,
    private readonly node: Node,
  ) {
    // A status someone else sets (a listener telling its users about devices) replaces what this
    // writer showed: the next render must be sent even if it equals the one before.
    const set = node.status.bind(node);
    node.status = (status) => {
      if (!this.writing) this.shown = undefined;
      set(status);
    };
  }

  private writing = false;

  server(id: string, name: string, state: ProviderState): void {
    this.servers.set(id, { name, state });
    this.render();
  }

  busy(text = ''): void {
    this.inFlight++;
    this.busyText = text;
    this.failure = undefined;
    this.render();
  }

  succeeded(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.render();
  }

  failed(reason: string): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.failure = reason;
    this.render();
  }

  /** A fixed status (bad configuration): nothing else overwrites it. */
  fixed(status: NodeStatus): void {
    this.render = () => this.node.status(status);
    this.render();
  }

  /** What the node shows now, so an unchanged status is not sent again (16 calls in flight keep one blue dot). */
  private shown?: string;
  /** The server status last derived, per state: statusFor translates, and a call needs it twice. */
  private derived?: { state: ProviderState; status: NodeStatus };

  render(): void {
    const status = this.current();
    const key = `${status.fill ?? ''}|${status.shape ?? ''}|${status.text ?? ''}`;
    if (key === this.shown) return;
    this.writing = true;
    try {
      this.node.status(status);
    } finally {
      this.writing = false;
    }
    this.shown = key;
  }

  private serverStatus(state: ProviderState): NodeStatus {
    if (this.derived?.state !== state) this.derived = { state, status: statusFor(this.RED, state) };
    return this.derived.status;
  }

  private current(): NodeStatus {
    if (this.inFlight > 0) {
      // A call waiting on a server that takes long to start (a runner downloading it) says why.
      const slow = [...this.servers.values()].find((e) => e.state.kind === 'connecting' && e.state.note)?.state as { note: string } | undefined;
      return slow ? { fill: 'yellow', shape: 'ring', text: `${this.busyText}: ${slow.note}` } : { fill: 'blue', shape: 'dot', text: this.busyText };
    }
    if (this.failure) return { fill: 'red', shape: 'ring', text: this.failure };
    const note = this.note?.();
    if (note) return note;
    const entries = [...this.servers.values()];
    if (entries.length <= 1) return entries[0] ? this.serverStatus(entries[0].state) : {};
    const broken = entries.find((e) => e.state.kind === 'error');
    if (broken) return { fill: 'red', shape: 'ring', text: `${broken.name}: ${(broken.state as { reason: string }).reason}` };
    if (entries.some((e) => e.state.kind === 'connecting')) return statusFor(this.RED, { kind: 'connecting' });
    const ready = entries.filter((e) => e.state.kind === 'ready');
    if (ready.length === 0) return {};
    const toolCount = ready.reduce((n, e) => n + (e.state as { toolCount: number }).toolCount, 0);
    return statusFor(this.RED, { kind: 'ready', toolCount });
  }
}

const WRITERS = new WeakMap<Node, NodeStatusWriter>();

/** The node's one status writer (created on first use). */
export function statusWriter(RED: RED, node: Node): NodeStatusWriter {
  let writer = WRITERS.get(node);
  if (!writer) WRITERS.set(node, (writer = new NodeStatusWriter(RED, node)));
  return writer;
}
