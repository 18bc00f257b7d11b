// The mcp-endpoint node's settings as flow JSON gives them (strings, numeric strings, newline
// lists), checked and given their defaults in one place.
import { lines } from '../settings-values';
import { ENDPOINT_SETTINGS as DECLARED, INSTANCE_NAME } from './endpoint-settings-declaration';

export interface EndpointSettings {
  path: string;
  name: string;
  instructions: string;
  tokens: string[];
  anonymous: boolean;
  /** OAuth sign-in for clients, each approved by a person (src/server/oauth/). */
  signIn: boolean;
  /** Announce the endpoint to Home Assistant (inside its app). */
  announce: boolean;
  publishCard: boolean;
  /** Node-RED's own flows as read tools (node-red/node-red-tools.ts). */
  nodeRedTools: boolean;
  /** ...with the write tools (node-red/write-tools.ts), limited to marked tabs or not, approved in the client or the editor only. */
  nodeRedChanges: boolean;
  nodeRedTabs: 'all' | 'marked';
  nodeRedApproval: 'client' | 'editor';
  contextStore: string | undefined;
  roots: string[];
  writable: string[];
  maxDepth: number;
  maxSubjects: number;
  xiaozhiEndpoint: string | undefined;
  /** 2025-revision sessions the endpoint keeps, and one client (a token, or an address when anonymous) keeps. */
  maxSessions: number;
  sessionsPerClient: number;
  /** Flow tools running as tasks at once, on the endpoint and for one client. */
  maxTasks: number;
  tasksPerClient: number;
  /** This Node-RED's name behind a load balancer: 2025-revision session ids start with `<instance>.` */
  instance: string | undefined;
}

function positive(value: unknown, fallback: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  return value === '' || value === undefined || value === null || !Number.isFinite(n) || n < 1 ? fallback : Math.floor(n);
}

export function endpointSettings(def: Record<string, unknown>, credentials: Record<string, unknown> = {}): EndpointSettings {
  let path = typeof def.path === 'string' && def.path.trim() ? def.path.trim() : DECLARED.path.value;
  if (!path.startsWith('/')) path = `/${path}`;
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const store = typeof def.contextStore === 'string' && def.contextStore.trim() && def.contextStore !== 'default' ? def.contextStore.trim() : undefined;
  const xiaozhi = typeof credentials.xiaozhiEndpoint === 'string' && credentials.xiaozhiEndpoint.trim() ? credentials.xiaozhiEndpoint.trim() : undefined;
  if (xiaozhi && !/^wss?:\/\//.test(xiaozhi))
    throw new Error('the xiaozhi MCP endpoint must be a ws:// or wss:// URL (copy it from the xiaozhi console, token included)');
  const instance = typeof def.instance === 'string' && def.instance.trim() ? def.instance.trim() : undefined;
  if (instance && !INSTANCE_NAME.test(instance))
    throw new Error(`the instance name "${instance}" may hold letters, digits, - and _ only (at most 32): it starts every session id`);
  return {
    path,
    name: typeof def.name === 'string' && def.name.trim() ? def.name.trim() : 'node-red',
    instructions: typeof def.instructions === 'string' ? def.instructions : '',
    tokens: lines(credentials.tokens),
    anonymous: def.anonymous === true || def.anonymous === 'true',
    signIn: def.signIn === true || def.signIn === 'true',
    announce: def.announce === true || def.announce === 'true',
    publishCard: def.publishCard === true || def.publishCard === 'true',
    nodeRedTools: def.nodeRedTools === true || def.nodeRedTools === 'true',
    nodeRedChanges: (def.nodeRedTools === true || def.nodeRedTools === 'true') && (def.nodeRedChanges === true || def.nodeRedChanges === 'true'),
    nodeRedTabs: def.nodeRedTabs === 'all' ? 'all' : 'marked',
    nodeRedApproval: def.nodeRedApproval === 'editor' ? 'editor' : 'client',
    contextStore: store,
    roots: lines(def.roots),
    writable: lines(def.writable),
    maxDepth: positive(def.maxDepth, DECLARED.maxDepth.value),
    maxSubjects: positive(def.maxSubjects, DECLARED.maxSubjects.value),
    maxSessions: positive(def.maxSessions, DECLARED.maxSessions.value),
    sessionsPerClient: positive(def.sessionsPerClient, DECLARED.sessionsPerClient.value),
    maxTasks: positive(def.maxTasks, DECLARED.maxTasks.value),
    tasksPerClient: positive(def.tasksPerClient, DECLARED.tasksPerClient.value),
    xiaozhiEndpoint: xiaozhi,
    instance,
  };
}
