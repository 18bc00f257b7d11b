// Node-RED counts a config node's users only through a node's plain config properties, so an
// mcp-server named only inside a list or an object showed 0 users and was dashed as unused in the
// config sidebar, where "delete unused" (and Deploy's offer) removed it from under its user:
// - gemini-agent: its server list and its system-prompt source;
// - esp32-listener: the servers Gemini Live may call, and the Home Assistant of voice "assist".
// Such a node adds itself to the users of every server it names, the way core does for its own
// properties: when it is added or loaded, when a server it names arrives, and on save.
type Rows = Array<{ server?: string }>;
type EditorNode = {
  id: string;
  type: string;
  users?: EditorNode[];
  servers?: Rows;
  systemPrompt?: { server?: string };
  live?: { servers?: Rows };
  assist?: { server?: string };
};

/** The mcp-server ids each kind of node names outside its plain config properties. */
const NAMED: Record<string, (n: EditorNode) => Array<string | undefined>> = {
  'gemini-agent': (n) => (n.servers ?? []).map((s) => s.server).concat(n.systemPrompt?.server),
  'esp32-listener': (n) => (n.live?.servers ?? []).map((s) => s.server).concat(n.assist?.server),
};

/** The part of the editor's RED this needs (passed in: this file is type-checked with the runtime too). */
export interface EditorRed {
  nodes: { node(id: string): unknown; eachNode(visit: (n: object) => boolean | void): void };
  events: { on(event: string, listener: (n: EditorNode) => void): void; emit(event: string, ...args: unknown[]): void };
}

/** The mcp-server ids a node names outside its plain config properties. */
export function serversNamedBy(user: EditorNode): string[] {
  const ids = NAMED[user.type]?.(user) ?? [];
  return ids.filter((id, i): id is string => typeof id === 'string' && id !== '' && ids.indexOf(id) === i);
}

export function setServerUsers(RED: EditorRed, user: EditorNode, action: 'add' | 'remove'): void {
  for (const id of serversNamedBy(user)) {
    const server = RED.nodes.node(id) as EditorNode | null;
    if (!server?.users) continue;
    const at = server.users.indexOf(user);
    if (action === 'add' && at < 0) server.users.push(user);
    else if (action === 'remove' && at >= 0) server.users.splice(at, 1);
    else continue;
    RED.events.emit('nodes:change', server);
  }
}

const tracked = new Set<string>();

/**
 * Keeps the count right for nodes of `type` from the moment the editor loads: flows, imports,
 * deletions. Config nodes (the listener) are not among eachNode's nodes, so both walks are made.
 */
export function trackServerUsers(RED: EditorRed & { nodes: { eachConfig?(visit: (n: object) => boolean | void): void } }, type: string): void {
  if (tracked.has(type)) return;
  tracked.add(type);
  const users = () => {
    const out: EditorNode[] = [];
    const visit = (n: object) => {
      if ((n as EditorNode).type === type) out.push(n as EditorNode);
      return true;
    };
    RED.nodes.eachNode(visit);
    RED.nodes.eachConfig?.(visit);
    return out;
  };
  RED.events.on('flows:loaded', () => users().forEach((u) => setServerUsers(RED, u, 'add')));
  RED.events.on('nodes:add', (n: EditorNode) => {
    if (n.type === type) setServerUsers(RED, n, 'add');
    // A server imported after the node that names it (import order is free).
    if (n.type === 'mcp-server') users().forEach((u) => serversNamedBy(u).includes(n.id) && setServerUsers(RED, u, 'add'));
  });
  RED.events.on('nodes:remove', (n: EditorNode) => {
    if (n.type === type) setServerUsers(RED, n, 'remove');
  });
}
