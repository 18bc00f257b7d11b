// Node-RED counts a config node's users only through a node's plain config properties, so an
// mcp-server named only in an agent's server list (or its system-prompt source) showed 0 users and
// was dashed as unused in the config sidebar, where "delete unused" removed it from under the
// agent. The agent adds itself to the users of every server it names, the way core does for
// its own properties: when it is added or loaded, when a server it names arrives, and on save.
type EditorNode = { id: string; type: string; users?: EditorNode[]; servers?: Array<{ server?: string }>; systemPrompt?: { server?: string } };

/** The part of the editor's RED this needs (passed in: this file is type-checked with the runtime too). */
export interface EditorRed {
  nodes: { node(id: string): unknown; eachNode(visit: (n: object) => boolean | void): void };
  events: { on(event: string, listener: (n: EditorNode) => void): void; emit(event: string, ...args: unknown[]): void };
}

/** The mcp-server ids an agent names outside its plain config properties. */
export function serversNamedBy(agent: EditorNode): string[] {
  const ids = (agent.servers ?? []).map((s) => s.server).concat(agent.systemPrompt?.server);
  return ids.filter((id, i): id is string => typeof id === 'string' && id !== '' && ids.indexOf(id) === i);
}

export function setServerUsers(RED: EditorRed, agent: EditorNode, action: 'add' | 'remove'): void {
  for (const id of serversNamedBy(agent)) {
    const server = RED.nodes.node(id) as EditorNode | null;
    if (!server?.users) continue;
    const at = server.users.indexOf(agent);
    if (action === 'add' && at < 0) server.users.push(agent);
    else if (action === 'remove' && at >= 0) server.users.splice(at, 1);
    else continue;
    RED.events.emit('nodes:change', server);
  }
}

/** Keeps the count right from the moment the editor loads: flows, imports, deletions. */
export function trackAgentServerUsers(RED: EditorRed): void {
  const agents = () => {
    const out: EditorNode[] = [];
    RED.nodes.eachNode((n: object) => {
      if ((n as EditorNode).type === 'gemini-agent') out.push(n as EditorNode);
      return true;
    });
    return out;
  };
  RED.events.on('flows:loaded', () => agents().forEach((a) => setServerUsers(RED, a, 'add')));
  RED.events.on('nodes:add', (n: EditorNode) => {
    if (n.type === 'gemini-agent') setServerUsers(RED, n, 'add');
    // A server imported after the agent that names it (import order is free).
    if (n.type === 'mcp-server') agents().forEach((a) => serversNamedBy(a).includes(n.id) && setServerUsers(RED, a, 'add'));
  });
  RED.events.on('nodes:remove', (n: EditorNode) => {
    if (n.type === 'gemini-agent') setServerUsers(RED, n, 'remove');
  });
}
