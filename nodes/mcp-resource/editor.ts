// The mcp-resource dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import * as dialogs from '../shared/editor';
import type { ResourcesAnswer } from '../shared/editor/tool-lists';
import { registerDialog } from '../shared/editor/register';
import { TIMEOUT_CHECK } from '../shared/editor/validators';
import { SETTINGS } from './settings';
import { MCP_FAMILY } from '../shared/editor/families';
registerDialog('mcp-resource', {
  ...MCP_FAMILY,
  settings: SETTINGS,
  checks: { timeout: TIMEOUT_CHECK },
  inputs: 1,
  outputs: 1,
  icon: 'mcp-resource.svg',
  paletteLabel: 'resource',
  label: function () {
    return this.name || (this.operation === 'list' || this.operation === 'templates' ? 'list MCP resources' : this.uri || 'MCP resource');
  },
  labelStyle: function () {
    return this.name ? 'node_label_italic' : '';
  },
  oneditprepare: function () {
    const node = this;
    const editor = dialogs;
    let items: Array<{ value: string; label: string; about: string }> = [];
    const dropdown = editor.serverDropdown<ResourcesAnswer>({
      node: node,
      server: '#node-input-server',
      picker: '#mcp-resource-select',
      input: '#node-input-uri',
      description: '#mcp-resource-description',
      fetch: function (server, done) {
        items = [];
        editor.getJson('mcp-server/' + encodeURIComponent(server) + '/resources', {}, done);
      },
      items: function (r) {
        items = (r.resources || [])
          .map(function (x) {
            return { value: x.uri, label: x.title || x.name || x.uri, about: [x.mimeType, x.description].filter(Boolean).join(' — ') };
          })
          .concat(
            (r.resourceTemplates || []).map(function (x) {
              return {
                value: x.uriTemplate,
                label: (x.title || x.name || x.uriTemplate) + ' (' + node._('mcp-resource.editor.template') + ')',
                about: [x.uriTemplate, x.description].filter(Boolean).join(' — '),
              };
            }),
          );
        return items;
      },
      texts: {
        pickServer: 'mcp-resource.editor.pickServer',
        loading: 'mcp-resource.editor.loading',
        pick: 'mcp-resource.editor.pick',
        empty: 'mcp-resource.editor.none',
        none: 'mcp-resource.editor.none',
        failed: 'mcp-resource.editor.loadFailed',
      },
      loaded: function () {
        showResource();
      },
    });
    function showResource() {
      const r = items.find(function (x) {
        return x.value === $('#node-input-uri').val();
      });
      $('#mcp-resource-description').text(r ? r.about : '');
      dropdown.select(r ? r.value : '');
    }
    function toggleOperation() {
      const op = $('#node-input-operation').val();
      $('.mcp-resource-uri').toggle(op === 'read' || op === 'subscribe');
    }
    $('#node-input-uri').on('change input', showResource);
    $('#node-input-operation').on('change', toggleOperation);
    toggleOperation();
  },
});
