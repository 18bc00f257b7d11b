// What the endpoint's Node-RED tools see of the runtime, in shapes of their own: the adapter
// (nodes/mcp-endpoint/node-red-view.ts and node-red-runtime.ts) fills them from Node-RED.

export interface DeployedNode {
  id: string;
  type: string;
  z?: string;
  [setting: string]: unknown;
}

export interface NodeStatusView {
  fill?: string;
  shape?: string;
  text?: string;
}

/** One entry of the debug sidebar: a debug node's message, or a node's error (level 20) or warning (30). */
export interface SidebarEntry {
  id: string;
  z?: string;
  name?: string;
  topic?: string;
  property?: string;
  format?: string;
  /** As the sidebar holds it: text, or the message encoded by Node-RED (cut to its debug length). */
  msg: unknown;
  level?: number;
  time: number;
}

/** The running nodes, their statuses and the sidebar: what the read tools read. */
export interface NodeRedView {
  nodes(): DeployedNode[];
  status(id: string): NodeStatusView | undefined;
  /** The recent sidebar entries, oldest first (a bounded ring). */
  sidebar(): SidebarEntry[];
}

export interface NodeTypeInfo {
  type: string;
  module: string;
  /** The node set (file) that registers it, e.g. "node-red/inject". */
  set: string;
  enabled: boolean;
}

/** Node-RED's flow configuration and node registry, as its editor's deploy uses them. */
export interface NodeRedRuntime {
  /** The deployed configuration in Node-RED's order (no credentials) and its revision. */
  flows(): Promise<{ flows: DeployedNode[]; rev: string }>;
  /** Deploys a whole configuration (only the flows that changed restart); resolves with the new revision once they run. */
  deploy(flows: DeployedNode[], who: string): Promise<string>;
  types(): Promise<NodeTypeInfo[]>;
  /** A type's help text (plain text), as its editor help shows it. */
  help(type: string): Promise<string | undefined>;
  /** The names of the credentials a node has stored (never their values). */
  credentialKeys(id: string): string[];
  /** Fires an inject node as its button in the editor does; false when no such node runs. */
  inject(id: string): boolean;
}
