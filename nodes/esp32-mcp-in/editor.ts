// The esp32-mcp-in dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
import { ESP32_FAMILY } from '../shared/editor/families';
import { SETTINGS } from './settings';
registerDialog('esp32-mcp-in', {
  ...ESP32_FAMILY,
  settings: SETTINGS,
  inputs: 0,
  outputs: 1,
  icon: 'esp32.svg',
  paletteLabel: 'xiaozhi in', // "xiaozhi" and (by its type) "esp32" both find it in the palette
  label: function () {
    if (this.name) return this.name;
    const l = RED.nodes.node(this.listener);
    return l ? 'xiaozhi in · ' + RED.utils.getNodeLabel(l as Parameters<typeof RED.utils.getNodeLabel>[0]) : 'xiaozhi in';
  },
  labelStyle: function () {
    return this.name ? 'node_label_italic' : '';
  },
});
