// What the endpoint's Node-RED tools read (src/server/node-red/read-tools.ts), taken from the
// runtime: the deployed node configurations (RED.nodes.eachNode, which holds tabs, subflows, config
// nodes and flow nodes, without their credentials), each node's last status (the runtime's
// "node-status" events) and the debug sidebar (the "comms" events the debug node publishes: its
// messages, and every node's errors and warnings). The sidebar is kept as a bounded ring that
// outlives deploys, so what went wrong right after a deploy is still there to read.
import type { DeployedNode, NodeRedView, NodeStatusView, SidebarEntry } from '../../src/server/node-red/types';
import type { RED } from '../shared/red-types';

const SIDEBAR_ENTRIES = 500;
/** Node statuses remembered at most (a big house has a few thousand nodes). */
const STATUSES = 10_000;

interface Events {
  on(event: string, listener: (payload: never) => void): void;
  removeListener(event: string, listener: (payload: never) => void): void;
}

export function nodeRedView(RED: RED): NodeRedView & { close(): void } {
  const events = RED.events as unknown as Events;
  const statuses = new Map<string, NodeStatusView>();
  const sidebar: SidebarEntry[] = [];
  const onStatus = (e: { id?: string; status?: NodeStatusView }) => {
    if (typeof e?.id !== 'string') return;
    statuses.delete(e.id); // newest last, so the oldest go first
    statuses.set(e.id, { ...e.status });
    if (statuses.size > STATUSES) statuses.delete(statuses.keys().next().value!);
  };
  const onComms = (e: { topic?: string; data?: Record<string, unknown> }) => {
    if (e?.topic !== 'debug' || !e.data || typeof e.data.id !== 'string') return;
    const d = e.data;
    sidebar.push({
      id: d.id as string,
      z: typeof d.z === 'string' ? d.z : undefined,
      name: typeof d.name === 'string' ? d.name : undefined,
      topic: typeof d.topic === 'string' ? d.topic : undefined,
      property: typeof d.property === 'string' ? d.property : undefined,
      format: typeof d.format === 'string' ? d.format : undefined,
      msg: d.msg,
      level: typeof d.level === 'number' ? d.level : undefined,
      time: Date.now(),
    });
    if (sidebar.length > SIDEBAR_ENTRIES) sidebar.splice(0, sidebar.length - SIDEBAR_ENTRIES);
  };
  events.on('node-status', onStatus);
  events.on('comms', onComms);
  return {
    nodes() {
      const all: DeployedNode[] = [];
      RED.nodes.eachNode((n) => void all.push(n as unknown as DeployedNode));
      return all;
    },
    status: (id) => statuses.get(id),
    sidebar: () => [...sidebar],
    close() {
      events.removeListener('node-status', onStatus);
      events.removeListener('comms', onComms);
    },
  };
}
