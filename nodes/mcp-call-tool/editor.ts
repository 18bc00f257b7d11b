// The mcp-call-tool dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import * as dialogs from '../shared/editor';
import type { ListedTool, ToolsAnswer } from '../shared/editor/tool-lists';
import { registerDialog } from '../shared/editor/register';
import { TIMEOUT_CHECK } from '../shared/editor/validators';
import { MCP_FAMILY } from '../shared/editor/families';
import { SETTINGS } from './settings';
import { resolveToolName } from '../../src/mcp/tool-renames';
registerDialog('mcp-call-tool', {
  ...MCP_FAMILY,
  settings: SETTINGS,
  checks: { timeout: TIMEOUT_CHECK, inputTimeout: TIMEOUT_CHECK },
  inputs: 1,
  outputs: 2,
  outputLabels: function (i) {
    return this._(i === 0 ? 'mcp-call-tool.outputs.result' : 'mcp-call-tool.outputs.progress');
  },
  icon: 'mcp-call.svg',
  paletteLabel: 'call tool',
  label: function () {
    return this.name || this.tool || 'call MCP tool';
  },
  labelStyle: function () {
    return this.name ? 'node_label_italic' : '';
  },
  oneditprepare: function () {
    const node = this;
    // Blank Arguments means msg.payload, or msg.payload.args for a Gemini-style call: a
    // value-less "default" type says so instead of an empty msg field marked invalid.
    if (!node.arguments) $('#node-input-argumentsType').val('default');
    $('#node-input-arguments').typedInput({
      default: 'default',
      types: [{ value: 'default', label: node._('mcp-call-tool.editor.argumentsDefault'), hasValue: false }, 'msg', 'json', 'jsonata', 'flow', 'global', 'env'],
      typeField: '#node-input-argumentsType',
    });
    const editor = dialogs;
    let tools: ListedTool[] = [];
    let asked = ''; // the name the last suggestion request was for
    let suggestTimer: ReturnType<typeof setTimeout> | undefined;
    const dropdown = editor.serverDropdown<ToolsAnswer>({
      node: node,
      server: '#node-input-server',
      picker: '#mcp-call-tool-select',
      input: '#node-input-tool',
      description: '#mcp-call-tool-description',
      datalist: '#mcp-call-tool-list',
      fetch: function (server, done) {
        tools = [];
        editor.loadTools(server, {}, done);
      },
      items: function (r) {
        tools = (r.tools || []).slice().sort(function (a, b) {
          return a.name.localeCompare(b.name);
        });
        // Home Assistant 2026.10 gives its tools a title; it stands beside the name, which stays what is saved.
        return tools.map(function (t) {
          return { value: t.name, label: t.title && t.title !== t.name ? t.name + ' — ' + t.title : t.name };
        });
      },
      texts: {
        pickServer: 'mcp-call-tool.editor.pickServer',
        loading: 'mcp-call-tool.editor.loading',
        pick: 'mcp-call-tool.editor.pick',
        none: 'mcp-call-tool.editor.noTools',
        failed: 'mcp-call-tool.editor.loadFailed',
      },
      loaded: function () {
        showTool();
      },
    });
    function describe(text: string, unknown: boolean) {
      $('#node-input-tool').toggleClass('input-error', unknown);
      $('#mcp-call-tool-description').toggleClass('mcp-call-tool-unknown', unknown).text(text);
    }
    // A name the server does not have is flagged now rather than as a failure after deploy,
    // with the names the runtime would suggest in its error (asked from the admin route).
    function suggest(name: string) {
      asked = name;
      clearTimeout(suggestTimer);
      suggestTimer = setTimeout(function () {
        askNear(name);
      }, 250); // one request per pause in typing
    }
    function askNear(name: string) {
      editor.suggestTools($('#node-input-server').val() as string, name, function (near) {
        if (asked !== name || $('#node-input-tool').val() !== name || !near.length) return;
        describe(node._('mcp-call-tool.editor.unknownToolNear', { tool: name, near: near.join(', ') }), true);
      });
    }
    function showTool() {
      const name = $('#node-input-tool').val() as string;
      // A name from before the server renamed its tools (HassTurnOn for intent__HassTurnOn) finds
      // its tool as it will at runtime; a name that fits several is flagged like an unknown one.
      const resolved = name ? resolveToolName(name, tools) : { kind: 'missing' as const };
      const t = resolved.kind === 'found' ? resolved.tool : undefined;
      const unknown = !t && !!name && tools.length > 0;
      const renamedNote = t && t.name !== name ? node._('mcp-call-tool.editor.renamed', { tool: t.name }) + ' ' : '';
      describe(
        t
          ? renamedNote + (t.description || node._('mcp-call-tool.editor.noDescription'))
          : resolved.kind === 'ambiguous'
            ? node._('mcp-call-tool.editor.ambiguousTool', { tool: name, candidates: resolved.candidates.map((c) => c.name).join(', ') })
            : unknown
              ? node._('mcp-call-tool.editor.unknownTool', { tool: name })
              : '',
        unknown,
      );
      $('#mcp-call-tool-schema')
        .text(t ? JSON.stringify(t.inputSchema, null, 2) : '')
        .toggle(!!t);
      dropdown.select(t ? t.name : '');
      if (unknown && resolved.kind === 'missing') suggest(name);
      else asked = '';
    }
    $('#node-input-tool').on('change input', showTool);
  },
});
