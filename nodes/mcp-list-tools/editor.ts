// The mcp-list-tools dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import * as dialogs from '../shared/editor';
import { registerDialog } from '../shared/editor/register';
import { MCP_FAMILY } from '../shared/editor/families';
import { SETTINGS } from './settings';
registerDialog('mcp-list-tools', {
  ...MCP_FAMILY,
  settings: SETTINGS,
  checks: {
    prefix: function (v: string) {
      return !v || /^[A-Za-z_][A-Za-z0-9_]*$/.test(v);
    },
    property: RED.validators.typedInput('msg'),
  },
  inputs: 1,
  outputs: 1,
  icon: 'mcp-list.svg',
  paletteLabel: 'list tools',
  label: function () {
    return this.name || 'list MCP tools';
  },
  labelStyle: function () {
    return this.name ? 'node_label_italic' : '';
  },
  oneditprepare: function () {
    const node = this;
    $('#node-input-property').typedInput({ default: 'msg', types: ['msg'] });
    // Opening the dialog and changing the format can ask twice at once: only the latest answer is shown.
    let latest = 0;
    function refreshWarnings() {
      const asked = ++latest;
      const server = $('#node-input-server').val() as string;
      const format = $('#node-input-format').val();
      const box = $('#mcp-list-tools-warnings').empty().removeClass('mcp-ok');
      if (!server || server === '_ADD_' || format === 'mcp') return;
      box.text(node._('mcp-list-tools.editor.loading'));
      dialogs.loadTools(server, { format: format, prefix: $('#node-input-prefix').val() as string }, function (err, r) {
        if (asked !== latest) return;
        box.empty();
        if (err) {
          box.text(node._('mcp-list-tools.editor.loadFailed', { error: err }));
          return;
        }
        const tools = (r && r.tools) || [];
        const warnings = (r && r.warnings) || [];
        if (!warnings.length) {
          box.addClass('mcp-ok').text(node._('mcp-list-tools.editor.noWarnings', { count: tools.length }));
          return;
        }
        $('<div>')
          .css('font-weight', 'bold')
          .text(node._('mcp-list-tools.editor.warnings', { count: warnings.length, tools: tools.length }))
          .appendTo(box);
        warnings.slice(0, 50).forEach(function (w) {
          $('<div>')
            .text((w.tool || '') + ' ' + w.path + ': ' + w.message)
            .appendTo(box);
        });
      });
    }
    $('#node-input-prefix').on('change', refreshWarnings);
    $('#node-input-format, #node-input-server').on('change', refreshWarnings);
  },
});
