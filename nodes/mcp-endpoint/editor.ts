// The mcp-endpoint dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
(function () {
  registerDialog('mcp-endpoint', {
    category: 'config',
    defaults: {
      name: { value: '' },
      path: {
        value: '/mcp',
        required: true,
        validate: function (v) {
          return /^\/[^\s?#]*$/.test(v || '');
        },
      },
      instructions: { value: '' },
      anonymous: { value: false },
      contextStore: { value: '' },
      roots: {
        value: '',
        validate: function (v) {
          return (v || '').split(/\r?\n/).every(function (l) {
            l = l.trim();
            return !l || /^(global|flow:[^.\s]+)\.\S+$/.test(l);
          });
        },
      },
      writable: { value: '' },
      maxDepth: { value: 10, validate: RED.validators.number(true) },
      maxSubjects: { value: 100, validate: RED.validators.number(true) },
      maxSessions: { value: 100, validate: RED.validators.number(true) },
      sessionsPerClient: { value: 50, validate: RED.validators.number(true) },
      // Blank, a plain name, or ${VAR} (each Node-RED behind the balancer sets its own).
      instance: { value: '', validate: RED.validators.regex(/^([A-Za-z0-9_-]{0,32}|\$\{[A-Za-z0-9_]+\})$/) },
    },
    credentials: {
      tokens: { type: 'password' },
      xiaozhiEndpoint: { type: 'password' },
    },
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
    },
  });
})();
