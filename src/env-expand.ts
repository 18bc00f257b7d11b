// `${VAR}` and `${VAR:-default}` in string settings. The lookup is injected: node adapters pass
// Node-RED's own (node, group, tab, global `env`, then the process environment), because the Home
// Assistant add-on has no way to set process variables and users set them on a tab instead.
const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Returns a variable's value, or undefined when it is not set anywhere. */
export type EnvLookup = (name: string) => string | undefined;

export const processEnvLookup: EnvLookup = (name) => process.env[name];

/** A lookup over a plain record (tests, or a child's environment). */
export function recordLookup(env: Record<string, string | undefined>): EnvLookup {
  return (name) => env[name];
}

export function expandEnv(value: string, lookup: EnvLookup = processEnvLookup): string {
  return value.replace(PATTERN, (_m, name: string, fallback: string | undefined) => {
    const v = lookup(name);
    if (v !== undefined && v !== null && String(v) !== '') return String(v);
    return fallback ?? '';
  });
}

/** Expands every string inside arrays and plain objects (args, headers, env). */
export function expandEnvDeep<T>(value: T, lookup: EnvLookup = processEnvLookup): T {
  if (typeof value === 'string') return expandEnv(value, lookup) as T;
  if (Array.isArray(value)) return value.map((v) => expandEnvDeep(v, lookup)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expandEnvDeep(v, lookup);
    return out as T;
  }
  return value;
}

/**
 * The `${VAR}` references in `value` that have no default and are not set: what to name when a
 * setting taken from a variable came out empty ("set MCP_TOKEN on the tab").
 */
export function unsetVariables(value: string, lookup: EnvLookup = processEnvLookup): string[] {
  const names: string[] = [];
  for (const [, name, fallback] of value.matchAll(PATTERN)) {
    const v = lookup(name);
    if (fallback === undefined && (v === undefined || v === null || String(v) === '') && !names.includes(name)) names.push(name);
  }
  return names;
}
