// The mcp-endpoint config node's settings, declared once: the dialog's defaults and credentials
// (nodes/mcp-endpoint/editor.ts), the runtime's parsing (settings.ts) and the node's credential
// registration read this; test/settings-declared-once.test.ts checks it against the form.
// Plain data: the editor bundle includes this file.

export const ENDPOINT_SETTINGS = {
  name: { value: '' },
  path: { value: '/mcp', required: true },
  instructions: { value: '' },
  anonymous: { value: false },
  /** Clients sign in with OAuth (Home Assistant, Claude, MCP Inspector) and a person approves each one in the editor. */
  signIn: { value: false },
  /** Inside the Home Assistant app: announce the endpoint through the Supervisor's discovery service. */
  announce: { value: false },
  /** Serve a Server Card at <path>/server-card and list it in /.well-known/ai-catalog.json (discovery). */
  publishCard: { value: false },
  /** Offer Node-RED's own flows as read tools (flows_list, flow_read, nodes_search, node_errors, debug_read). */
  nodeRedTools: { value: false },
  /** ...and the write tools (flow_change, flow_deploy, flow_rollback, inject): every deploy waits for a person. */
  nodeRedChanges: { value: false },
  /** Which tabs the write tools may touch: "all", or "marked" (tabs whose description carries #assistant). */
  nodeRedTabs: { value: 'marked' },
  /** Where a deploy is approved: "client" (the client asks its person when it can, else the editor) or "editor" only. */
  nodeRedApproval: { value: 'client' },
  contextStore: { value: '' },
  roots: { value: '' },
  writable: { value: '' },
  maxDepth: { value: 10 },
  maxSubjects: { value: 100 },
  maxSessions: { value: 100 },
  sessionsPerClient: { value: 50 },
  /** Flow tools running as tasks at once, on the endpoint and per client (src/server/tasks/task-budget.ts). */
  maxTasks: { value: 100 },
  tasksPerClient: { value: 10 },
  instance: { value: '' },
} as const;

export const ENDPOINT_CREDENTIALS = {
  tokens: { type: 'password' },
  xiaozhiEndpoint: { type: 'password' },
} as const;

/** An instance name starts every session id and goes into an nginx map: plain and short. */
export const INSTANCE_NAME = /^[A-Za-z0-9_-]{1,32}$/;
