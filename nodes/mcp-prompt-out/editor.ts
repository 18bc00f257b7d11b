// The mcp-prompt-out dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
import { MCP_FAMILY } from '../shared/editor/families';
import { SETTINGS } from './settings';
registerDialog('mcp-prompt-out', {
  ...MCP_FAMILY,
  settings: SETTINGS,
  inputs: 1,
  outputs: 0,
  align: 'right',
  icon: 'mcp-prompt.svg',
  paletteLabel: 'prompt out',
  label: function () {
    return this.name || 'prompt out';
  },
  labelStyle: function () {
    return this.name ? 'node_label_italic' : '';
  },
});
