// The mcp-server config node's settings, declared once: names, defaults and which are credentials.
// The runtime's parsing (settings.ts: RawServerConfig is made of these names), the dialog's
// `defaults` and `credentials` (nodes/mcp-server/editor.ts), the `.mcp.json` import and what "Test
// connection" and the tool lists of an undeployed server send (nodes/shared/editor/server-settings.ts)
// all read this list. test/settings-declared-once.test.ts fails when a name is in one place only.
// Plain data with no imports: the editor bundle includes this file too.

export const SERVER_SETTINGS = {
  name: { value: '' },
  transport: { value: 'http', required: true },
  url: { value: '' },
  headers: { value: '' },
  command: { value: '' },
  args: { value: '' },
  cwd: { value: '' },
  env: { value: '' },
  /** stdio: pass Node-RED's environment (less its secrets) to the server, not only PATH, HOME and a few more. */
  inheritEnv: { value: false },
  /** A config node reference: the editor lists this server among the listener's users. */
  listener: { value: '', type: 'esp32-listener' },
  deviceId: { value: '' },
  timeout: { value: 60 },
  /** The largest reply (and event, and stdout line) read from the server, in MB: ./reply-limit.ts. */
  maxReplyMB: { value: 32 },
  protocolVersion: { value: 'auto' },
  auth: { value: 'token' },
} as const;

/** Kept by Node-RED apart from the flow: never exported, never sent back to the editor. */
export const SERVER_CREDENTIALS = {
  token: { type: 'password' },
  /** Secret header and env entries as JSON ({headers, env}); their names alone are `secretNames`. */
  secrets: { type: 'password' },
  secretNames: { type: 'text' },
  clientId: { type: 'text' },
  clientSecret: { type: 'password' },
} as const;

/** Kept by the runtime alone (the OAuth tokens it obtained): never in the dialog. */
export const SERVER_RUNTIME_CREDENTIALS = {
  oauthState: { type: 'password' },
} as const;

export type ServerSettingName = keyof typeof SERVER_SETTINGS;
export const SERVER_SETTING_NAMES = Object.keys(SERVER_SETTINGS) as ServerSettingName[];

/**
 * An mcp-server as the editor's dialog has it, saved or not, as it is sent to the admin routes that
 * connect with it (Test connection, the tool lists of an undeployed server): the dialog builds it
 * (nodes/shared/editor/server-settings.ts), the runtime checks every field of what arrives
 * (nodes/mcp-server/dialog-settings.ts takes it as `Untrusted<DialogServer>`).
 */
export interface DialogServer {
  id: string;
  /** The tab the config node is scoped to, if any: its variables resolve `${VAR}` as for the deployed node. */
  z?: string;
  config: Record<string, unknown>;
  /** A token typed into the dialog, or the password placeholder for the stored one. */
  token?: string;
  /** Secret header and env entries typed into the dialog ({headers, env}). */
  secrets?: Record<string, unknown>;
}

/** What arrives over HTTP claiming to be `T`: every field still to be checked. */
export type Untrusted<T> = { [K in keyof T]?: unknown };
