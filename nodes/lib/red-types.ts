// The slice of Node-RED's runtime API these adapters use, typed once so every node is strict.
export interface NodeMessage {
  _msgid?: string;
  payload?: unknown;
  topic?: string;
  [key: string]: unknown;
}

export type SendFn = (msg: NodeMessage | null | Array<NodeMessage | NodeMessage[] | null>) => void;
export type DoneFn = (err?: Error) => void;

export interface NodeStatus {
  fill?: 'red' | 'green' | 'yellow' | 'blue' | 'grey';
  shape?: 'ring' | 'dot';
  text?: string;
}

export interface Node {
  id: string;
  type: string;
  name?: string;
  z?: string;
  credentials?: Record<string, string | undefined>;
  on(event: 'input', handler: (msg: NodeMessage, send: SendFn, done: DoneFn) => void): void;
  on(event: 'close', handler: (removed: boolean, done: () => void) => void): void;
  on(event: string, handler: (...args: any[]) => void): void;
  send(msg: NodeMessage | null | Array<NodeMessage | null>): void;
  status(status: NodeStatus | Record<string, never>): void;
  log(msg: unknown): void;
  warn(msg: unknown): void;
  error(msg: unknown, m?: NodeMessage): void;
  debug(msg: unknown): void;
  trace(msg: unknown): void;
  context(): { get(key: string, store?: string, cb?: (err: Error | null, v: unknown) => void): unknown; set(key: string, value: unknown, store?: string, cb?: (err?: Error | null) => void): void };
  receive(msg: NodeMessage): void;
}

export interface NodeDef {
  id: string;
  type: string;
  name?: string;
  z?: string;
  [key: string]: unknown;
}

export interface RED {
  nodes: {
    createNode(node: Node, def: NodeDef): void;
    registerType(type: string, ctor: (this: Node, def: NodeDef) => void, opts?: { credentials?: Record<string, { type: string }>; settings?: Record<string, unknown> }): void;
    getNode(id: string): Node | null;
    eachNode(cb: (n: NodeDef) => void): void;
  };
  util: {
    evaluateNodeProperty(value: unknown, type: string, node: Node, msg: NodeMessage | undefined, cb: (err: Error | null, res: unknown) => void): void;
    setMessageProperty(msg: NodeMessage, prop: string, value: unknown, createMissing?: boolean): boolean;
    getMessageProperty(msg: NodeMessage, prop: string): unknown;
    cloneMessage<T>(msg: T): T;
  };
  httpAdmin: any;
  httpNode: any;
  server: import('node:http').Server;
  auth: { needsPermission(permission: string): (req: any, res: any, next: () => void) => void };
  settings: Record<string, any>;
  events?: import('node:events').EventEmitter;
  log: { info(m: unknown): void; warn(m: unknown): void; error(m: unknown): void; debug(m: unknown): void; trace(m: unknown): void };
  _(key: string, subs?: Record<string, unknown>): string;
}
