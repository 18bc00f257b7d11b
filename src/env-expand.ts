// `${VAR}` and `${VAR:-default}` in string settings, read from the Node-RED process environment,
// so one exported flow works on every machine (HA_URL, HA_TOKEN …) without editing it.
const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export function expandEnv(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(PATTERN, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    return fallback ?? '';
  });
}

/** Expands every string inside arrays and plain objects (args, headers, env). */
export function expandEnvDeep<T>(value: T, env: NodeJS.ProcessEnv = process.env): T {
  if (typeof value === 'string') return expandEnv(value, env) as T;
  if (Array.isArray(value)) return value.map((v) => expandEnvDeep(v, env)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = expandEnvDeep(v, env);
    return out as T;
  }
  return value;
}
