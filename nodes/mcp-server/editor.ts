// The mcp-server dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads). Its parts
// live beside it: the header and env rows, OAuth sign-in, presets, `.mcp.json` import, Test connection.
import { PASSWORD_PLACEHOLDER } from '../shared/secret-destinations';
import { registerDialog } from '../shared/editor/register';
import { REPLY_MB_CHECK, TIMEOUT_CHECK } from '../shared/editor/validators';
import { entriesEditor, secretNamesOf, type EntriesEditor } from './entries-editor';
import { prepareOAuth } from './oauth-editor';
import { preparePresets } from './presets-editor';
import { prepareHomeAssistantApis } from './home-assistant-apis-editor';
import { prepareServerCard } from './server-card-editor';
import { prepareImport } from './import-editor';
import { prepareTestConnection } from './test-connection-editor';
import { SERVER_CREDENTIALS, SERVER_SETTINGS, type ServerSettingName } from '../../src/mcp/settings/server-settings-declaration';

const TRANSPORT_ROWS: Record<string, string[]> = {
  http: ['url', 'headers', 'token'],
  sse: ['url', 'headers', 'token'],
  stdio: ['command', 'args', 'cwd', 'env', 'inheritEnv'],
  esp32: ['listener', 'deviceId'],
};
const ALL_ROWS = ['url', 'headers', 'token', 'command', 'args', 'cwd', 'env', 'inheritEnv', 'listener', 'deviceId'];

/** What the dialog keeps on the node while it is open: the header and env rows. */
interface ServerDialogState {
  _mcpEntries: { headers: EntriesEditor; env: EntriesEditor };
}

/** A check of one setting: the editor calls it with the node (saved settings) as `this`. */
type Check = (this: { id: string; transport?: string }, v: unknown) => boolean;

function isJson(kind: 'array' | 'object'): Check {
  return function (v) {
    if (v === undefined || v === null || v === '') return true;
    if (typeof v !== 'string') return kind === 'array' ? Array.isArray(v) : typeof v === 'object';
    try {
      const x = JSON.parse(v);
      return kind === 'array' ? Array.isArray(x) : x && typeof x === 'object' && !Array.isArray(x);
    } catch (e) {
      return false;
    }
  };
}
// The config node whose dialog is open: its transport is the dialog's select, not yet saved.
let editingId: string | null = null;
function needs(transports: string[]): Check {
  return function (v) {
    const open = editingId && editingId === this.id && $('#node-config-input-transport').length;
    const t = open ? String($('#node-config-input-transport').val()) : this.transport;
    if (transports.indexOf(t || 'http') < 0) return true;
    return typeof v === 'string' && v.trim() !== '';
  };
}
function asText(v: unknown): string {
  return v === undefined || v === null || v === '' ? '' : typeof v === 'string' ? v : JSON.stringify(v);
}
function isUrl(v: unknown): boolean {
  return typeof v === 'string' && (/^https?:\/\/\S+$/.test(v.trim()) || /^\/[^/\s]\S*$/.test(v.trim()) || v.indexOf('${') >= 0);
}

// The dialog's checks, by setting; names, defaults and credentials come from the declaration.
const VALIDATE: Partial<Record<ServerSettingName, Check>> = {
  url: function (v) {
    return needs(['http', 'sse']).call(this, v) && (!v || isUrl(v));
  },
  headers: isJson('object'),
  command: needs(['stdio']),
  args: isJson('array'),
  env: isJson('object'),
  // Only an esp32 server needs a listener.
  listener: function (v) {
    if (needs(['esp32']).call(this, '')) return true; // not an esp32 server
    return typeof v === 'string' && v !== '' && v !== '_ADD_' && !!RED.nodes.node(v);
  },
  timeout: TIMEOUT_CHECK,
  maxReplyMB: REPLY_MB_CHECK,
};

// Only the rows the chosen transport uses are shown.
function showTransportRows() {
  $('#node-config-input-transport')
    .on('change', function () {
      const rows = TRANSPORT_ROWS[String($(this).val())] || TRANSPORT_ROWS.http;
      ALL_ROWS.forEach(function (r) {
        $('.mcp-server-row-' + r).toggle(rows.indexOf(r) >= 0);
      });
    })
    .trigger('change');
}

registerDialog<typeof SERVER_SETTINGS, ServerDialogState>('mcp-server', {
  category: 'config',
  settings: SERVER_SETTINGS,
  checks: VALIDATE,
  credentials: SERVER_CREDENTIALS,
  label: function () {
    return this.name || this.url || this.command || 'mcp-server ' + (this.transport || 'http');
  },
  oneditprepare: function () {
    const node = this;
    editingId = node.id;
    // headers, args and env are JSON text in the form, whatever a hand-written flow stored.
    (['headers', 'args', 'env'] as const).forEach(function (f) {
      $('#node-config-input-' + f).val(asText(node[f]));
    });
    const entries = { headers: entriesEditor(node, 'headers'), env: entriesEditor(node, 'env') };
    node._mcpEntries = entries;
    showTransportRows();
    prepareOAuth(node);
    preparePresets(node);
    prepareImport(node);
    prepareTestConnection(node, entries);
    prepareHomeAssistantApis(node, entries);
    prepareServerCard(node);
  },
  oneditsave: function () {
    editingId = null;
    // Only an esp32 server uses a listener; any other keeps none, so it is not listed as a user.
    if ($('#node-config-input-transport').val() !== 'esp32') $('#node-config-input-listener').val('_ADD_');
    const entries = this._mcpEntries;
    if (!entries) return;
    const h = entries.headers.read();
    const e = entries.env.read();
    $('#node-config-input-headers').val(Object.keys(h.plain).length ? JSON.stringify(h.plain) : '');
    $('#node-config-input-env').val(Object.keys(e.plain).length ? JSON.stringify(e.plain) : '');
    const typed = Object.keys(h.secret).length + Object.keys(e.secret).length;
    const kept = h.untouched.length + e.untouched.length;
    const before = entries.headers.stored.length + entries.env.stored.length;
    if (typed === 0 && kept === before) {
      $('#node-config-input-secrets').val(before ? PASSWORD_PLACEHOLDER : '');
      return;
    }
    // The secrets are saved together: an untouched stored one cannot be carried over.
    if (kept) RED.notify(this._('mcp-server.errors.reenterSecrets', { names: h.untouched.concat(e.untouched).join(', ') }), 'warning');
    const secret = { headers: h.secret, env: e.secret };
    $('#node-config-input-secrets').val(typed ? JSON.stringify(secret) : '');
    $('#node-config-input-secretNames').val(typed ? JSON.stringify(secretNamesOf(secret)) : '');
  },
  oneditcancel: function () {
    editingId = null;
  },
});
