// The mcp-prompt-in dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
import { MCP_FAMILY } from '../shared/editor/families';
import { TOOL_NAME } from '../../src/server/flows/tool-in-settings-declaration';
import { SETTINGS } from './settings';

registerDialog('mcp-prompt-in', {
  ...MCP_FAMILY,
  settings: SETTINGS,
  checks: {
    name: function (v: string) {
      return TOOL_NAME.test(v || '');
    },
    timeout: RED.validators.number(true),
  },
  inputs: 0,
  outputs: 1,
  icon: 'mcp-prompt.svg',
  paletteLabel: 'prompt in',
  label: function () {
    return this.caption || (this.name ? 'prompt ' + this.name : 'prompt in');
  },
  labelStyle: function () {
    return this.caption ? 'node_label_italic' : '';
  },
});
