// The mcp-server settings as the engine sees them: flow JSON normalised (defaults applied, numbers
// parsed, `${VAR:-default}` expanded) so every transport reads one typed shape.
import type { ServerSettingName } from './server-settings-declaration';
import type { AuthProvider } from '@modelcontextprotocol/client';
import { expandEnv, expandEnvDeep, processEnvLookup, type EnvLookup } from '../../env-expand';
import { shorten } from '../../text';
import { DEFAULT_MAX_REPLY_MB, bytesOfMB } from '../transport/reply-limit';
import { textSetting } from '../../settings-values';

export type TransportKind = 'http' | 'sse' | 'stdio' | 'esp32';

export interface McpServerSettings {
  id: string;
  name: string;
  transport: TransportKind;
  url?: string;
  headers?: Record<string, string>;
  command?: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** stdio: pass Node-RED's environment less its secrets, not only the SDK's short list. */
  inheritEnv?: boolean;
  listener?: string;
  deviceId?: string;
  /** Milliseconds per request. */
  timeoutMs: number;
  /** The largest reply read from the server, in bytes (./reply-limit.ts). */
  maxReplyBytes?: number;
  /** "auto" or a pinned revision such as "2025-06-18" or "2026-07-28". */
  protocolVersion: string;
  /** Bearer token; never logged, never put into a message. */
  token?: string;
  /** "oauth": the bearer comes from `authProvider` (a sign-in through the editor, see src/mcp/oauth). */
  auth?: 'token' | 'oauth';
  authProvider?: AuthProvider;
  /** Every credential value (token, secret header and env values), for the secret scrubber. */
  secretValues?: string[];
}

/** Header and env entries marked secret: kept in the node's credentials, merged over the plain ones. */
export interface SecretEntries {
  headers?: Record<string, string>;
  env?: Record<string, string>;
}

export const DEFAULT_TIMEOUT_SECONDS = 60;
/** Above this a reply cannot become one string in V8 (about 512 MB of text) with room to spare. */
export const MAX_REPLY_MB_CEILING = 256;
const TRANSPORTS: TransportKind[] = ['http', 'sse', 'stdio', 'esp32'];

/** A config node's settings as the flow holds them: the declared names (server-settings-declaration.ts). */
export type RawServerConfig = { [K in ServerSettingName]?: unknown } & {
  id?: string;
  /** The `secrets` credential: JSON text (or object) of SecretEntries. */
  secrets?: unknown;
};

/** Throws a plain Error naming the bad setting; the node turns it into a red status. */
export function normalizeSettings(raw: RawServerConfig, token?: string, env: EnvLookup = processEnvLookup): McpServerSettings {
  const str = (v: unknown) => textSetting(v, env);
  const transport = (str(raw.transport) || 'http') as TransportKind;
  if (!TRANSPORTS.includes(transport)) throw new Error(`transport must be one of ${TRANSPORTS.join(', ')} (got "${transport}")`);
  const timeoutSeconds = raw.timeout === undefined || raw.timeout === '' ? DEFAULT_TIMEOUT_SECONDS : Number(raw.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new Error(`timeout must be a positive number of seconds (got "${String(raw.timeout)}")`);
  const maxReplyMB = raw.maxReplyMB === undefined || raw.maxReplyMB === '' ? DEFAULT_MAX_REPLY_MB : Number(raw.maxReplyMB);
  if (!Number.isFinite(maxReplyMB) || maxReplyMB <= 0 || maxReplyMB > MAX_REPLY_MB_CEILING)
    throw new Error(`largest reply must be a number of MB between 0 and ${MAX_REPLY_MB_CEILING} (got "${String(raw.maxReplyMB)}")`);
  const settings: McpServerSettings = {
    id: raw.id ?? 'mcp-server',
    name: str(raw.name),
    transport,
    timeoutMs: Math.round(timeoutSeconds * 1000),
    maxReplyBytes: bytesOfMB(maxReplyMB),
    protocolVersion: str(raw.protocolVersion) || 'auto',
    token: token ? expandEnv(token, env) : undefined,
    auth: str(raw.auth) === 'oauth' ? 'oauth' : 'token',
  };
  const secretValues: string[] = [];
  settings.secretValues = secretValues;
  const secret = secretEntriesOf(raw.secrets, env);
  if (transport === 'http' || transport === 'sse') {
    settings.url = str(raw.url);
    if (!settings.url) throw new Error('url is required for the http and sse transports');
    let scheme: string;
    try {
      scheme = new URL(settings.url).protocol;
    } catch {
      throw new Error(`url "${settings.url}" is not a valid URL`);
    }
    // fetch refuses any other scheme with a bare "fetch failed", which names nothing to fix.
    if (scheme !== 'http:' && scheme !== 'https:') throw new Error(`url "${settings.url}" must start with http:// or https://`);
    settings.headers = withSecrets(stringRecord(expandEnvDeep(parseJsonish(raw.headers, 'headers'), env), 'headers'), secret.headers);
    secretValues.push(...Object.values(secret.headers ?? {}));
  } else if (transport === 'stdio') {
    settings.command = str(raw.command);
    if (!settings.command) throw new Error('command is required for the stdio transport');
    const args = expandEnvDeep(parseJsonish(raw.args, 'args') ?? [], env);
    if (!Array.isArray(args)) throw new Error('args must be an array of strings');
    settings.args = args.map(String);
    settings.cwd = str(raw.cwd) || undefined;
    settings.env = withSecrets(stringRecord(expandEnvDeep(parseJsonish(raw.env, 'env'), env), 'env'), secret.env);
    settings.inheritEnv = raw.inheritEnv === true || raw.inheritEnv === 'true';
    secretValues.push(...Object.values(secret.env ?? {}));
  } else {
    settings.listener = str(raw.listener);
    settings.deviceId = str(raw.deviceId).toLowerCase() || undefined;
    if (!settings.listener) throw new Error('listener (an esp32-listener config node) is required for the esp32 transport');
  }
  if (settings.token) secretValues.push(settings.token);
  return settings;
}

/** Reads the `secrets` credential; a malformed one names itself without echoing its content. */
function secretEntriesOf(v: unknown, env: EnvLookup = processEnvLookup): SecretEntries {
  let parsed: unknown = v;
  if (typeof v === 'string') {
    if (v.trim() === '') return {};
    try {
      parsed = JSON.parse(v);
    } catch {
      throw new Error('the secret headers/environment credential is not valid JSON: enter the secret entries again');
    }
  }
  if (!parsed || typeof parsed !== 'object') return {};
  const p = parsed as { headers?: unknown; env?: unknown };
  return {
    headers: stringRecord(expandEnvDeep(p.headers, env), 'secret headers'),
    env: stringRecord(expandEnvDeep(p.env, env), 'secret environment'),
  };
}

function withSecrets(plain: Record<string, string> | undefined, secret: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!secret || Object.keys(secret).length === 0) return plain;
  return { ...(plain ?? {}), ...secret };
}

/** The editor stores objects/arrays as JSON text; flow JSON written by hand uses real values. */
function parseJsonish(v: unknown, what: string): unknown {
  if (typeof v !== 'string') return v;
  if (v.trim() === '') return undefined;
  try {
    return JSON.parse(v);
  } catch {
    throw new Error(`${what} must be JSON (got ${JSON.stringify(shorten(v, 40))})`);
  }
}

function stringRecord(v: unknown, what: string): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new Error(`${what} must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) out[k] = String(val);
  return out;
}

/** What to call the server in errors and status: the URL or the command line, never a token. */
export function describeEndpoint(s: McpServerSettings): string {
  if (s.transport === 'stdio') return [s.command, ...(s.args ?? [])].join(' ');
  if (s.transport === 'esp32') return `esp32 device ${s.deviceId ?? '(any)'}`;
  return s.url ?? '';
}
