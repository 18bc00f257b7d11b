// The mcp-endpoint dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
import { prepareClients } from './clients-editor';
import { prepareChanges } from './changes-editor';
import { ENDPOINT_CREDENTIALS, ENDPOINT_SETTINGS, INSTANCE_NAME } from '../../src/server/endpoint-settings-declaration';
registerDialog('mcp-endpoint', {
  category: 'config',
  settings: ENDPOINT_SETTINGS,
  checks: {
    path: function (v: string) {
      return /^\/[^\s?#]*$/.test(v || '');
    },
    roots: function (v: string) {
      return (v || '').split(/\r?\n/).every(function (l) {
        l = l.trim();
        return !l || /^(global|flow:[^.\s]+)\.\S+$/.test(l);
      });
    },
    maxDepth: RED.validators.number(true),
    maxSubjects: RED.validators.number(true),
    maxSessions: RED.validators.number(true),
    sessionsPerClient: RED.validators.number(true),
    maxTasks: RED.validators.number(true),
    tasksPerClient: RED.validators.number(true),
    // Blank, a plain name, or ${VAR} (each Node-RED behind the balancer sets its own).
    instance: function (v: string) {
      return !v || INSTANCE_NAME.test(v) || /^\$\{[A-Za-z0-9_]+\}$/.test(v);
    },
  },
  credentials: ENDPOINT_CREDENTIALS,
  label: function () {
    return this.name || 'MCP ' + (this.path || '/mcp');
  },
  oneditprepare: function () {
    // A new endpoint does not start on a path another endpoint already serves (the examples use /mcp).
    if (!RED.nodes.node(this.id)) {
      const taken: string[] = [];
      RED.nodes.eachConfig(function (conf: object) {
        const n = conf as { type: string; path?: string };
        if (n.type === 'mcp-endpoint' && n.path) taken.push(n.path.replace(/\/+$/, ''));
        return true;
      });
      let path = '/mcp';
      for (let i = 2; taken.indexOf(path) >= 0; i++) path = '/mcp-' + i;
      $('#node-config-input-path').val(path);
    }
    const context = (RED.settings as { context?: { stores?: string[] } }).context; // set when the runtime has context stores
    const stores = (context && context.stores) || [];
    const select = $('#node-config-input-contextStore');
    stores.forEach(function (s) {
      $('<option>').val(s).text(s).appendTo(select);
    });
    select.val(this.contextStore || '');
    // Sign-in: the clients waiting for approval and the approved ones, while the dialog is open.
    const node = this as unknown as { id: string; _: (key: string, vars?: Record<string, unknown>) => string; _stopClients?: () => void };
    const showClients = () => $('#mcp-endpoint-clients-part').toggle($('#node-config-input-signIn').prop('checked') === true);
    $('#node-config-input-signIn').on('change', showClients);
    showClients();
    const stopClients = prepareClients(node.id, node._.bind(node));
    // Node-RED tools: the write options show under their box, and the assistant's changes with them.
    // An endpoint saved before these options existed opens with their defaults, not a blank select.
    if (!$('#node-config-input-nodeRedTabs').val()) $('#node-config-input-nodeRedTabs').val(ENDPOINT_SETTINGS.nodeRedTabs.value);
    if (!$('#node-config-input-nodeRedApproval').val()) $('#node-config-input-nodeRedApproval').val(ENDPOINT_SETTINGS.nodeRedApproval.value);
    const showChanges = () => {
      const tools = $('#node-config-input-nodeRedTools').prop('checked') === true;
      $('.mcp-endpoint-changes-row').toggle(tools);
      $('.mcp-endpoint-changes-on').toggle(tools && $('#node-config-input-nodeRedChanges').prop('checked') === true);
    };
    $('#node-config-input-nodeRedTools, #node-config-input-nodeRedChanges').on('change', showChanges);
    showChanges();
    const stopChanges = prepareChanges(node.id, node._.bind(node));
    node._stopClients = () => {
      stopClients();
      stopChanges();
    };
  },
  oneditsave: function () {
    (this as unknown as { _stopClients?: () => void })._stopClients?.();
  },
  oneditcancel: function () {
    (this as unknown as { _stopClients?: () => void })._stopClients?.();
  },
});
