// The mcp-prompt dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import * as dialogs from '../shared/editor';
import type { PromptsAnswer } from '../shared/editor/tool-lists';
import { registerDialog } from '../shared/editor/register';
import { TIMEOUT_CHECK } from '../shared/editor/validators';
import { SETTINGS } from './settings';
import { MCP_FAMILY } from '../shared/editor/families';
registerDialog('mcp-prompt', {
  ...MCP_FAMILY,
  settings: SETTINGS,
  checks: { timeout: TIMEOUT_CHECK },
  inputs: 1,
  outputs: 1,
  icon: 'mcp-prompt.svg',
  paletteLabel: 'prompt',
  label: function () {
    if (this.caption) return this.caption;
    return this.operation === 'list' ? 'list MCP prompts' : this.name || 'get MCP prompt';
  },
  labelStyle: function () {
    return this.caption ? 'node_label_italic' : '';
  },
  oneditprepare: function () {
    const node = this;
    $('#node-input-arguments').typedInput({
      default: 'default',
      types: [{ value: 'default', label: node._('mcp-prompt.editor.argumentsDefault'), hasValue: false }, 'msg', 'json', 'jsonata', 'flow', 'global', 'env'],
      typeField: '#node-input-argumentsType',
    });
    const editor = dialogs;
    let prompts: NonNullable<PromptsAnswer['prompts']> = [];
    const dropdown = editor.serverDropdown<PromptsAnswer>({
      node: node,
      server: '#node-input-server',
      picker: '#mcp-prompt-select',
      input: '#node-input-name',
      description: '#mcp-prompt-description',
      fetch: function (server, done) {
        prompts = [];
        editor.getJson('mcp-server/' + encodeURIComponent(server) + '/prompts', {}, done);
      },
      items: function (r) {
        prompts = r.prompts || [];
        return prompts.map(function (p) {
          return { value: p.name, label: p.title || p.name };
        });
      },
      texts: {
        pickServer: 'mcp-prompt.editor.pickServer',
        loading: 'mcp-prompt.editor.loading',
        pick: 'mcp-prompt.editor.pick',
        empty: 'mcp-prompt.editor.none',
        none: 'mcp-prompt.editor.none',
        failed: 'mcp-prompt.editor.loadFailed',
      },
      loaded: function () {
        showPrompt();
      },
    });
    function showPrompt() {
      const p = prompts.find(function (x) {
        return x.name === $('#node-input-name').val();
      });
      const args =
        p && Array.isArray(p.arguments)
          ? p.arguments.map(function (a) {
              return a.name + (a.required ? '*' : '');
            })
          : [];
      const about = p
        ? [p.description || '', args.length ? node._('mcp-prompt.editor.takes', { args: args.join(', ') }) : node._('mcp-prompt.editor.noArguments')]
            .filter(Boolean)
            .join(' — ')
        : '';
      $('#mcp-prompt-description').text(about);
      dropdown.select(p ? p.name : '');
    }
    function toggleOperation() {
      $('.mcp-prompt-get').toggle($('#node-input-operation').val() === 'get');
    }
    $('#node-input-name').on('change input', showPrompt);
    $('#node-input-operation').on('change', toggleOperation);
    toggleOperation();
  },
});
