// The mcp-resource-in dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
import { MCP_FAMILY } from '../shared/editor/families';
import { SETTINGS } from './settings';

registerDialog('mcp-resource-in', {
  ...MCP_FAMILY,
  settings: SETTINGS,
  checks: {
    uri: function (v: string) {
      return /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(v || '');
    },
    timeout: RED.validators.number(true),
  },
  // The input announces a change of the resource to subscribed clients.
  inputs: 1,
  outputs: 1,
  icon: 'mcp-resource.svg',
  paletteLabel: 'resource in',
  label: function () {
    return this.caption || this.name || this.uri || 'resource in';
  },
  labelStyle: function () {
    return this.caption ? 'node_label_italic' : '';
  },
});
