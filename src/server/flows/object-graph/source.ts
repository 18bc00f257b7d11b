// Where the graph's roots live. The node adapter implements this over Node-RED context (global or
// a tab's flow context, in the configured store); the engine never sees RED.
export interface GraphRoot {
  /** The name the root is reached by: `/home` for `global.home`. */
  name: string;
  read(): Promise<unknown>;
  /** Stores the root's whole value (set_property changed one property inside what read() gave). */
  replace(value: unknown): Promise<void>;
}

export interface RootSpec {
  scope: 'global' | 'flow';
  tab?: string;
  key: string;
  name: string;
}

/** `global.<key>` or `flow:<tab id>.<key>`; the key may be nested (`global.house.ground`). */
export function parseRoot(spec: string): RootSpec {
  const m = /^(?:global|flow:([^.\s]+))\.([^\s]+)$/.exec(spec.trim());
  if (!m || m[2].split('.').some((p) => !p)) throw new Error(`object graph root "${spec}" must be global.<key> or flow:<tab id>.<key>`);
  const key = m[2];
  return { scope: m[1] ? 'flow' : 'global', tab: m[1], key, name: key.split('.').pop()! };
}
