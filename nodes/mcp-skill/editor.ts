// The mcp-skill dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads). The skill's
// further files are rows of path and text.
import { registerDialog } from '../shared/editor/register';
import { MCP_FAMILY } from '../shared/editor/families';
import { SETTINGS } from './settings';

const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

registerDialog('mcp-skill', {
  ...MCP_FAMILY,
  settings: SETTINGS,
  checks: {
    name: function (v: string) {
      return SKILL_NAME.test(v || '') && v.length <= 64;
    },
  },
  inputs: 0,
  outputs: 0,
  icon: 'mcp-skill.svg',
  paletteLabel: 'skill',
  label: function () {
    return this.caption || (this.name ? 'skill ' + this.name : 'skill');
  },
  labelStyle: function () {
    return this.caption ? 'node_label_italic' : '';
  },
  oneditprepare: function () {
    const node = this;
    const list = $('#node-input-files-list');
    list.editableList({
      removable: true,
      sortable: true,
      height: 'auto',
      addButton: true,
      addItem: function (row, _index, given) {
        const file = (given || {}) as { path?: string; text?: string };
        const path = $('<input type="text" class="mcp-skill-file-path" style="width:100%;margin-bottom:4px">')
          .attr('placeholder', node._('mcp-skill.label.filePath'))
          .val(file.path || '');
        const text = $('<textarea class="mcp-skill-file-text" rows="4" style="width:100%;font-family:monospace">').val(file.text || '');
        row.append(path, text);
      },
    });
    (Array.isArray(node.files) ? node.files : []).forEach(function (f) {
      list.editableList('addItem', f);
    });
  },
  oneditsave: function () {
    const files: { path: string; text: string }[] = [];
    $('#node-input-files-list')
      .editableList('items')
      .each(function () {
        const path = String($(this).find('.mcp-skill-file-path').val() ?? '').trim();
        if (path) files.push({ path, text: String($(this).find('.mcp-skill-file-text').val() ?? '') });
      });
    this.files = files;
  },
});
