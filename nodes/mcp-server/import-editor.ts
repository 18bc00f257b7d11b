// `.mcp.json` import (Claude Code, Cursor, Gemini CLI: "mcpServers"; VS Code: "servers"): one
// mcp-server config node per entry, added the way the editor's own config dialog adds one. A bearer
// Authorization header becomes the token credential, so it is never exported with the flow.
import type { DialogText } from '../shared/editor/register';
import { secretNamesOf } from './entries-editor';
import { SERVER_SETTING_NAMES, SERVER_SETTINGS } from '../../src/mcp/settings/server-settings-declaration';

interface Secrets {
  headers: Record<string, string>;
  env: Record<string, string>;
}

interface ImportedServer {
  settings: Record<string, unknown>;
  token?: string;
  secrets?: Secrets;
}

/** One entry of the file, as the tools that write it spell it. */
interface McpJsonEntry {
  command?: unknown;
  args?: unknown;
  env?: unknown;
  cwd?: unknown;
  url?: unknown;
  serverUrl?: unknown;
  httpUrl?: unknown;
  type?: unknown;
  headers?: unknown;
}

/** Every declared setting at its default value. */
function declaredValues(): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const name of SERVER_SETTING_NAMES) values[name] = SERVER_SETTINGS[name].value;
  return values;
}

export function parseMcpJson(text: string): { servers: ImportedServer[]; skipped: string[] } {
  const doc = JSON.parse(text);
  const entries = doc && typeof doc === 'object' ? doc.mcpServers || doc.servers : null;
  if (!entries || typeof entries !== 'object' || Array.isArray(entries)) throw new Error('no "mcpServers" object');
  const servers: ImportedServer[] = [];
  const skipped: string[] = [];
  Object.keys(entries).forEach(function (name) {
    const e: McpJsonEntry = entries[name] || {};
    const s: Record<string, unknown> = { ...declaredValues(), name: name };
    let token: string | undefined;
    const secret: Secrets = { headers: {}, env: {} };
    const url = e.url || e.serverUrl || e.httpUrl;
    if (typeof e.command === 'string' && e.command) {
      s.transport = 'stdio';
      s.command = e.command;
      s.args = Array.isArray(e.args) && e.args.length ? JSON.stringify(e.args) : '';
      const env = splitSecrets(e.env, secret.env);
      s.env = Object.keys(env).length ? JSON.stringify(env) : '';
      s.cwd = typeof e.cwd === 'string' ? e.cwd : '';
    } else if (typeof url === 'string') {
      s.transport = e.type === 'sse' ? 'sse' : 'http';
      s.url = url;
      const headers: Record<string, unknown> = Object.assign({}, e.headers || {});
      Object.keys(headers).forEach(function (h) {
        const m = h.toLowerCase() === 'authorization' && /^Bearer\s+(.+)$/i.exec(String(headers[h]));
        if (m) {
          token = m[1].trim();
          delete headers[h];
        }
      });
      const plain = splitSecrets(headers, secret.headers);
      s.headers = Object.keys(plain).length ? JSON.stringify(plain) : '';
    } else {
      skipped.push(name);
      return;
    }
    servers.push({ settings: s, token: token, secrets: hasSecrets(secret) ? secret : undefined });
  });
  return { servers: servers, skipped: skipped };
}

// Header and env entries that are credentials: `Authorization` and names that say token, key,
// secret or password. They go to the node's `secrets` credential, never into the flow JSON.
const SECRET_NAME = /token|key|secret|password|authorization/i;
function splitSecrets(entries: unknown, secretOut: Record<string, string>): Record<string, unknown> {
  const given = (entries && typeof entries === 'object' ? entries : {}) as Record<string, unknown>;
  const plain: Record<string, unknown> = {};
  Object.keys(given).forEach(function (k) {
    if (SECRET_NAME.test(k)) secretOut[k] = String(given[k]);
    else plain[k] = given[k];
  });
  return plain;
}
function hasSecrets(secret: Secrets): boolean {
  return Object.keys(secret.headers).length + Object.keys(secret.env).length > 0;
}

/** The editor's node record for a config node it adds itself (as its config dialog builds one). */
type NewConfigNode = Record<string, unknown> & { id: string; credentials: Record<string, unknown> };

// Adds config nodes the way the editor's own config dialog does: defaults, credentials,
// validation, one undoable history event, dirty flag, redraw.
function addServers(servers: ImportedServer[]): string[] {
  const def = RED.nodes.getType('mcp-server');
  const defaults = def.defaults as unknown as Record<string, { value: unknown }>;
  const ids: string[] = [];
  servers.forEach(function (entry) {
    const n: NewConfigNode = {
      id: RED.nodes.id(),
      _def: def,
      type: 'mcp-server',
      z: undefined,
      users: [],
      _: (def as unknown as { _: DialogText })._,
      credentials: {},
    };
    Object.keys(defaults).forEach(function (k) {
      n[k] = entry.settings[k] !== undefined ? entry.settings[k] : JSON.parse(JSON.stringify(defaults[k].value));
    });
    n.credentials = entry.token ? { token: entry.token, has_token: false } : {};
    if (entry.secrets) {
      n.credentials.secrets = JSON.stringify(entry.secrets);
      n.credentials.has_secrets = false;
      n.credentials.secretNames = JSON.stringify(secretNamesOf(entry.secrets));
    }
    n.changed = true;
    RED.editor.validateNode(n);
    RED.nodes.add(n);
    ids.push(n.id);
  });
  if (!ids.length) return ids;
  // The editor's own config dialog records added config nodes by id (its typings say objects).
  RED.history.push({ t: 'add', nodes: ids as unknown as object[], dirty: RED.nodes.dirty() });
  RED.nodes.dirty(true);
  RED.view.redraw(true);
  if (RED.sidebar.config.refresh) RED.sidebar.config.refresh();
  return ids;
}

/** The import section of the dialog: pick or paste a file, create its servers, say what was made. */
export function prepareImport(node: { _: DialogText }): void {
  $('#node-config-mcp-import-toggle').on('click', function (e) {
    e.preventDefault();
    $('#node-config-mcp-import').toggle();
  });
  $('#node-config-mcp-import-file').on('change', function () {
    const files = (this as HTMLInputElement).files;
    const file = files && files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = function () {
      $('#node-config-mcp-import-text').val(String(reader.result));
    };
    reader.readAsText(file);
  });
  $('#node-config-mcp-import-create').on('click', function (e) {
    e.preventDefault();
    const out = $('#node-config-mcp-import-result').removeClass('mcp-ok mcp-fail');
    let parsed: ReturnType<typeof parseMcpJson>;
    try {
      parsed = parseMcpJson(String($('#node-config-mcp-import-text').val() ?? ''));
    } catch (err) {
      out.addClass('mcp-fail').text(node._('mcp-server.import.invalid', { error: (err as Error).message }));
      return;
    }
    addServers(parsed.servers);
    const names = parsed.servers.map((x) => String(x.settings.name)).join(', ');
    let text = node._('mcp-server.import.created', { count: parsed.servers.length, names: names || '—' });
    if (parsed.skipped.length) text += ' ' + node._('mcp-server.import.skipped', { names: parsed.skipped.join(', ') });
    out.addClass(parsed.servers.length ? 'mcp-ok' : 'mcp-fail').text(text);
  });
}
