// The mcp-tool-in dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
import { MCP_FAMILY } from '../shared/editor/families';
import { TOOL_IN_SETTINGS, TOOL_NAME } from '../../src/server/flows/tool-in-settings-declaration';
function jsonObjectOrBlank(v: unknown) {
  if (v === undefined || v === null || v === '') return true;
  if (typeof v === 'object') return !Array.isArray(v);
  try {
    const o = JSON.parse(String(v));
    return o !== null && typeof o === 'object' && !Array.isArray(o);
  } catch (e) {
    return false;
  }
}
const SCHEMA_FIELDS = ['inputSchema', 'outputSchema'] as const;

registerDialog('mcp-tool-in', {
  ...MCP_FAMILY,
  settings: TOOL_IN_SETTINGS,
  checks: {
    name: function (v: string) {
      return TOOL_NAME.test(v || '');
    },
    inputSchema: jsonObjectOrBlank,
    outputSchema: jsonObjectOrBlank,
    timeout: RED.validators.number(true),
    inputTimeout: RED.validators.number(true),
    taskLimit: RED.validators.number(true),
  },
  inputs: 0,
  outputs: 1,
  icon: 'mcp-tool-in.svg',
  paletteLabel: 'tool in',
  label: function () {
    if (this.caption) return this.caption;
    return this.subject ? this.subject + ' ' + (this.method || this.name) : this.name ? 'tool ' + this.name : 'tool in';
  },
  labelStyle: function () {
    return this.caption ? 'node_label_italic' : '';
  },
  oneditprepare: function () {
    const node = this;
    SCHEMA_FIELDS.forEach(function (field) {
      const v = node[field];
      $('#node-input-' + field).val(v && typeof v === 'object' ? JSON.stringify(v, null, 2) : v || '');
    });
    const hints = node.annotations || {};
    ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'].forEach(function (h) {
      $('#node-input-hint-' + h).prop('checked', hints[h] === true);
    });
  },
  oneditsave: function () {
    const node = this;
    SCHEMA_FIELDS.forEach(function (field) {
      const text = String($('#node-input-' + field).val() || '').trim();
      try {
        node[field] = text ? JSON.parse(text) : '';
      } catch (e) {
        node[field] = text;
      }
    });
    const hints: Record<string, boolean> = {};
    ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'].forEach(function (h) {
      if ($('#node-input-hint-' + h).prop('checked')) hints[h] = true;
    });
    node.annotations = hints;
  },
});
