// The gemini-agent dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import * as dialogs from '../shared/editor';
import { registerDialog, type DialogNode } from '../shared/editor/register';
import { configNodesOf, editorNode, type EditorConfigNode } from '../shared/editor/config-nodes';
import { formValues } from '../shared/editor/form-values';
import type { PromptsAnswer } from '../shared/editor/tool-lists';
import { GEMINI_FAMILY } from '../shared/editor/families';
import { AGENT_CREDENTIALS, AGENT_SETTINGS } from '../../src/gemini/agent-settings-declaration';
import type { ServerRow } from '../../src/mcp/settings/server-row';
import { setServerUsers, trackServerUsers, type EditorRed } from '../shared/editor/server-users';
// The editor's RED types its events narrowly, and lags it for tabs and editConfig (which takes the
// editing node as a fifth argument); the calls made here are the documented ones.
const red = RED as unknown as EditorRed & {
  tabs: { create(o: { id: string; onchange(tab: { id: string }): void }): { addTab(t: { id: string; label: string }): void } };
  editor: { editConfig(name: string, type: string, id: string, prefix: string, editing: object): void };
};

type AgentNode = DialogNode<typeof AGENT_SETTINGS>;

/** POST gemini-agent/tools: each row's functions after its filters, or that row's own error. */
interface PreviewAnswer {
  ok: boolean;
  error?: string;
  servers: Array<{ server: string; error?: string; functions: string[]; total: number }>;
}

/** POST gemini-agent/test: the answer and the calls made on the way, or what failed. */
interface TestAnswer {
  ok: boolean;
  error?: string;
  text?: string;
  model?: string;
  steps?: Array<{ calls: TestCall[] }>;
  usage?: { totalTokenCount?: number };
}

interface TestCall {
  name: string;
  tool?: string;
  server?: string;
  isError?: boolean;
}
trackServerUsers(red, 'gemini-agent');
const defaultEntry = { server: '', include: '', exclude: '', prefix: '', skills: '' };
// The value core's config pickers use for "add a new one".
const ADD = '_ADD_';
function blankOr(test: (v: string) => boolean) {
  return function (v: unknown) {
    return v === '' || v === undefined || v === null || test(String(v).trim());
  };
}
function isEnvRef(v: string) {
  return /^\$\{[^}]+\}$/.test(v);
}
function isInt(min: number) {
  return function (v: unknown) {
    return /^\d+$/.test(String(v)) && Number(v) >= min;
  };
}
const editor = dialogs;

// The mcp-server config nodes this agent can use, as core's config pickers list them: those on
// all flows and those on the agent's own tab (a server scoped to another tab does not reach it).
let pickerScope: string | undefined;
function serverConfigs(): EditorConfigNode[] {
  return configNodesOf('mcp-server').filter(function (c) {
    return !c.z || !pickerScope || c.z === pickerScope;
  });
}
/** A tab's variables of type "str", as its Edit dialog holds them. */
function tabVariables(z: string | undefined): Record<string, string> {
  // RED.nodes.workspace(id) is the tab (the bundled type declares it without the id).
  const workspace = RED.nodes.workspace as unknown as (id: string) => { env?: Array<{ name?: string; value?: unknown; type?: string }> } | undefined;
  const tab = z ? workspace(z) : undefined;
  const out: Record<string, string> = {};
  for (const v of (tab && tab.env) || []) if (v.name && v.type === 'str' && v.value !== '') out[v.name] = String(v.value);
  return out;
}

// Its name and where it is, so that eight "Home Assistant" servers can be told apart.
function serverLabel(c: EditorConfigNode): string {
  const where = serverAddress(c);
  const name = String(c.name || where || c.id);
  return where && where !== name ? name + ' · ' + where : name;
}
function serverAddress(c: EditorConfigNode): string {
  if (c.transport === 'stdio') {
    const args = Array.isArray(c.args) ? c.args : [];
    const script = String(args[0] || '').replace(/^module:/, '');
    return [c.command, script.split('/').slice(-3).join('/')].filter(Boolean).join(' ');
  }
  if (c.transport === 'esp32') return 'ESP32 ' + (c.deviceId || 'device');
  // ${VAR} as the runtime reads it where the editor can see it: the tab's plain variables (its
  // credential ones stay in the runtime), else the default written after :-.
  const env = tabVariables(c.z || pickerScope);
  const url = String(c.url || '').replace(/\$\{([A-Za-z0-9_]+)(?::-([^}]*))?\}/g, function (whole: string, name: string, fallback?: string) {
    return env[name] ?? fallback ?? whole;
  });
  const host = /^[a-z]+:\/\/([^/]+)/i.exec(url);
  return host ? host[1] : url;
}

// System prompt: a deployed server's prompt names come from GET mcp-server/:id/prompts.
function prepareSystemPrompt(node: AgentNode, configs: EditorConfigNode[]) {
  const sp = node.systemPrompt || {};
  const spServer = $('#gemini-agent-sp-server').append($('<option>').val('').text(node._('gemini-agent.systemPrompt.none')));
  configs.forEach(function (c) {
    $('<option>').val(c.id).text(serverLabel(c)).appendTo(spServer);
  });
  spServer.val(sp.server || '');
  // Servers added from the Tools tab appear here too.
  spServer.on('focus mousedown', function () {
    const keep = spServer.val();
    spServer.children().slice(1).remove();
    serverConfigs().forEach(function (c) {
      $('<option>').val(c.id).text(serverLabel(c)).appendTo(spServer);
    });
    spServer.val(keep as string);
  });
  $('#gemini-agent-sp-name').val(sp.name || '');
  $('#gemini-agent-sp-args').val(sp.arguments && typeof sp.arguments === 'object' ? JSON.stringify(sp.arguments) : sp.arguments || '');
  function loadPromptNames() {
    const id = spServer.val() as string;
    $('.gemini-agent-sp-detail').toggle(!!id);
    $('#gemini-agent-sp-names').empty();
    if (!id) return;
    editor.getJson<PromptsAnswer>('mcp-server/' + encodeURIComponent(id) + '/prompts', {}, function (err, r) {
      if (!err && r)
        (r.prompts || []).forEach(function (p) {
          $('<option>').val(p.name).appendTo('#gemini-agent-sp-names');
        });
    });
  }
  spServer.on('change', loadPromptNames);
  loadPromptNames();
}

// One server row: the server (with core's add / edit button for mcp-server config nodes), its
// prefix, include / exclude filters and a preview of the functions it gives Gemini.
let rowSeq = 0;
function addServerRow(node: AgentNode, configs: EditorConfigNode[], row: JQuery, data: ServerRow, changed: () => void) {
  const entry: ServerRow = $.extend({}, defaultEntry, data);
  row.addClass('gemini-agent-server-row');
  const serverRow = $('<div/>', { style: 'display:flex; gap:6px; margin-bottom:4px; align-items:center;' }).appendTo(row);
  // A unique id, so core's config dialog can refill this select when a server is added or edited.
  const selectName = 'server-' + ++rowSeq;
  const select = $('<select/>', { id: 'gemini-agent-' + selectName, class: 'node-input-entry-server', style: 'flex:1' }).appendTo(serverRow);
  $('<option/>').val('').text(node._('gemini-agent.servers.pick')).appendTo(select);
  configs.forEach(function (c) {
    $('<option/>').val(c.id).text(serverLabel(c)).appendTo(select);
  });
  $('<option/>').val(ADD).text(node._('gemini-agent.servers.add')).appendTo(select);
  if (
    entry.server &&
    entry.server !== ADD &&
    !configs.some(function (c) {
      return c.id === entry.server;
    })
  ) {
    $('<option/>')
      .val(entry.server)
      .text(node._('gemini-agent.servers.gone', { id: entry.server }))
      .appendTo(select);
  }
  select.val(entry.server || (configs.length === 1 ? configs[0].id : ''));
  // Opens core's mcp-server dialog on top of this one: the picked server, or a new one.
  function openServerDialog() {
    const v = String(select.val() || '');
    const existing = v && v !== ADD && RED.nodes.node(v) ? v : ADD;
    red.editor.editConfig(selectName, 'mcp-server', existing, 'gemini-agent', node);
  }
  row.data('openServerDialog', openServerDialog);
  $('<button/>', { type: 'button', class: 'red-ui-button gemini-agent-edit-server' })
    .attr('title', node._('gemini-agent.servers.edit'))
    .append($('<i/>', { class: 'fa fa-pencil' }))
    .on('click', function (e) {
      e.preventDefault();
      openServerDialog();
    })
    .appendTo(serverRow);
  $('<input/>', { type: 'text', class: 'node-input-entry-prefix', style: 'width:36%' })
    .attr('placeholder', node._('gemini-agent.placeholder.prefix'))
    .attr('title', node._('gemini-agent.label.prefix'))
    .val(entry.prefix || '')
    .appendTo(serverRow);
  const filterRow = $('<div/>', { style: 'display:flex; gap:6px;' }).appendTo(row);
  (['include', 'exclude'] as const).forEach(function (kind) {
    const box = $('<div/>', { style: 'flex:1' }).appendTo(filterRow);
    $('<div/>', { class: 'gemini-agent-caption' })
      .text(node._('gemini-agent.label.' + kind))
      .appendTo(box);
    $('<textarea/>', { class: 'node-input-entry-' + kind, rows: 2, style: 'width:100%' })
      .attr('placeholder', node._('gemini-agent.placeholder.' + kind))
      .val(String(entry[kind] || ''))
      .appendTo(box);
  });
  // The server's skills whose instructions join the system instruction (names, comma-separated).
  $('<input/>', { type: 'text', class: 'node-input-entry-skills', style: 'width:100%;margin-top:4px' })
    .attr('placeholder', node._('gemini-agent.placeholder.skills'))
    .attr('title', node._('gemini-agent.label.skills'))
    .val(Array.isArray(entry.skills) ? entry.skills.join(', ') : String(entry.skills || ''))
    .appendTo(row);
  // Which functions this row gives Gemini after its filters (from the deployed server).
  $('<div/>', { class: 'node-input-entry-preview gemini-agent-preview' }).appendTo(row);
  function mark() {
    const v = String(select.val() || '');
    const c = v && v !== ADD ? editorNode(v) : null;
    select.toggleClass('input-error', !c || c.type !== 'mcp-server');
  }
  select.on('change', function () {
    // Core's refill after its dialog selects the new server, or "none" when it was cancelled.
    if (select.val() === ADD && !select.data('opening')) {
      select.data('opening', true);
      openServerDialog();
      setTimeout(function () {
        select.data('opening', false);
      }, 100);
    }
    $('#gemini-agent-no-servers').toggle(serverConfigs().length === 0);
  });
  row.find('select, input, textarea').on('change input', function () {
    mark();
    changed();
  });
  mark();
}

function serverOf(v: unknown): string {
  return v && v !== ADD ? String(v) : '';
}

// The rows as the dialog shows them now (saved or not).
function rowsOf(list: JQuery): ServerRow[] {
  const servers: ServerRow[] = [];
  list.editableList('items').each(function () {
    const row = $(this);
    servers.push({
      server: serverOf(row.find('.node-input-entry-server').val()),
      include: String(row.find('.node-input-entry-include').val() ?? ''),
      exclude: String(row.find('.node-input-entry-exclude').val() ?? ''),
      prefix: String(row.find('.node-input-entry-prefix').val() ?? ''),
      skills: String(row.find('.node-input-entry-skills').val() ?? ''),
    });
  });
  return servers;
}

function prepareServerRows(node: AgentNode) {
  let previewTimer: ReturnType<typeof setTimeout> | undefined;
  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(function () {
      previewFunctions(node, list);
    }, 400);
  }
  const list = $('#node-input-servers-container').editableList({
    // Grows with its rows (no min-height: editableList would fix its height to it): a scrolling box
    // inside the scrolling dialog would hide the filters.
    height: 'auto',
    addItem: function (row, index, data) {
      addServerRow(node, serverConfigs(), row, data as ServerRow, schedulePreview); // the rows this dialog adds
    },
    removeItem: schedulePreview,
    sortItems: schedulePreview,
    removable: true,
    sortable: true,
  });
  (node.servers || []).forEach(function (s) {
    list.editableList('addItem', s);
  });
  // "new MCP server": a row of its own, with core's add dialog opened for it at once.
  $('<button/>', { type: 'button', id: 'gemini-agent-new-server', class: 'red-ui-button red-ui-button-small', style: 'margin-top:4px' })
    .append($('<i/>', { class: 'fa fa-plus' }), ' ', $('<span/>').text(node._('gemini-agent.servers.new')))
    .on('click', function (e) {
      e.preventDefault();
      list.editableList('addItem', { server: ADD });
      // editableList hands addItem the row's inner container, which holds the opener.
      list.find('.gemini-agent-server-row').last().data('openServerDialog')();
    })
    .insertAfter($('#node-input-servers-container').closest('.red-ui-editableList'));
  schedulePreview();
  return {
    current: function () {
      return rowsOf(list);
    },
  };
}

// POST gemini-agent/tools: each row's functions after its filters, or that row's own error.
function previewFunctions(node: AgentNode, list: JQuery) {
  const rows = list.editableList('items');
  const servers = rowsOf(list);
  if (
    !servers.some(function (s) {
      return s.server;
    })
  ) {
    rows.find('.node-input-entry-preview').text('');
    return;
  }
  editor.postJson<PreviewAnswer>('gemini-agent/tools', { id: node.id, config: { servers: servers } }, function (err, r) {
    rows.each(function (i) {
      previewRow($(this), i);
    });
    function previewRow(row: JQuery, i: number) {
      const box = row.find('.node-input-entry-preview').removeClass('gemini-ok gemini-fail');
      const want = servers[i] && servers[i].server;
      if (!want) return box.text('');
      if (err || !r || !r.ok) return box.addClass('gemini-fail').text(err || (r && r.error) || '');
      const hit = r.servers.filter(function (s) {
        return s.server === want;
      })[0];
      if (!hit) return box.text('');
      if (hit.error) return box.addClass('gemini-fail').text(hit.error);
      box.addClass(hit.functions.length ? 'gemini-ok' : 'gemini-fail').text(
        node._('gemini-agent.servers.preview', {
          count: hit.functions.length,
          total: hit.total,
          names: hit.functions.join(', ') || '—',
        }),
      );
    }
  });
}

// Four tabs, as core's function node groups its settings: what Gemini is, which tools it gets,
// which calls wait for a person, and memory and connection.
function prepareTabs(node: AgentNode) {
  const tabs = red.tabs.create({
    id: 'gemini-agent-tabs',
    onchange: function (tab: { id: string }) {
      $('#gemini-agent-tabs-content').children().hide();
      $('#' + tab.id).show();
    },
  });
  ['gemini', 'tools', 'approval', 'more'].forEach(function (t) {
    tabs.addTab({ id: 'gemini-agent-tab-' + t, label: node._('gemini-agent.tabs.' + t) });
  });
}

// Test: one prompt with the dialog as it is now (saved or not), in auto mode.
function prepareTestButton(node: AgentNode, currentServers: () => ServerRow[]) {
  $('#gemini-agent-test').on('click', function (e) {
    e.preventDefault();
    const out = $('#gemini-agent-test-result').removeClass('gemini-ok gemini-fail').empty().text(node._('gemini-agent.test.running'));
    const button = $(this).prop('disabled', true);
    // Every setting the form holds now, as it would deploy (the route runs one prompt in auto mode).
    const config = {
      ...formValues(AGENT_SETTINGS),
      servers: currentServers().filter(function (s) {
        return s.server;
      }),
    };
    editor.postJson<TestAnswer>(
      'gemini-agent/test',
      {
        id: node.id,
        z: (node as unknown as { z?: string }).z,
        prompt: $('#gemini-agent-test-prompt').val(),
        apiKey: $('#node-input-apiKey').val(),
        config: config,
      },
      function (err, r) {
        button.prop('disabled', false);
        showTestResult(node, out, err, r);
      },
    );
  });
}

function showTestResult(node: AgentNode, out: JQuery, err: string | null, r: TestAnswer | null) {
  out.empty();
  if (err || !r || !r.ok) {
    out.addClass('gemini-fail').append($('<div/>').text(node._('gemini-agent.test.failed', { error: err || (r && r.error) || '' })));
    if (r && r.steps) showCalls(node, out, r.steps);
    return;
  }
  out.addClass('gemini-ok');
  $('<div/>', { id: 'gemini-agent-test-answer', class: 'gemini-agent-answer' })
    .text(r.text || node._('gemini-agent.test.empty'))
    .appendTo(out);
  const steps = r.steps || [];
  showCalls(node, out, steps);
  const u = r.usage || {};
  $('<div/>', { class: 'gemini-agent-caption' })
    .text(
      node._('gemini-agent.test.usage', {
        model: r.model || '',
        steps: steps.length,
        tokens: u.totalTokenCount === undefined ? '?' : u.totalTokenCount,
      }),
    )
    .appendTo(out);
}

function showCalls(node: AgentNode, out: JQuery, steps: NonNullable<TestAnswer['steps']>) {
  const calls: TestCall[] = [];
  steps.forEach(function (s) {
    calls.push(...s.calls);
  });
  const box = $('<div/>', { id: 'gemini-agent-test-calls' }).appendTo(out);
  if (!calls.length) return box.text(node._('gemini-agent.test.noCalls'));
  $('<div/>', { class: 'gemini-agent-caption' })
    .text(node._('gemini-agent.test.calls', { count: calls.length }))
    .appendTo(box);
  const ul = $('<ul/>', { style: 'margin:2px 0 2px 18px' }).appendTo(box);
  calls.forEach(function (c) {
    const where = c.tool && c.tool !== c.name ? ' → ' + c.tool : '';
    $('<li/>', { class: c.isError ? 'gemini-fail' : '' })
      .text(c.name + where + (c.server ? ' · ' + c.server : '') + (c.isError ? ' · ' + node._('gemini-agent.test.callError') : ''))
      .appendTo(ul);
  });
}

// Temperature is a sampling setting Gemini 3 deprecated for the thinking level: it sits behind a
// link, and opens by itself for a node that has one, so an older flow shows the value it keeps.
function prepareSampling(node: { temperature?: unknown }) {
  const section = $('#gemini-agent-sampling');
  const toggle = $('#gemini-agent-sampling-toggle');
  const hasValue = node.temperature !== undefined && node.temperature !== null && String(node.temperature).trim() !== '';
  section.toggle(hasValue);
  toggle.toggle(!hasValue);
  toggle.on('click', function (e: Event) {
    e.preventDefault();
    section.show();
    toggle.hide();
  });
}

registerDialog('gemini-agent', {
  ...GEMINI_FAMILY,
  settings: AGENT_SETTINGS,
  checks: {
    model: function (v: string) {
      return !!v && /^\S+$/.test(String(v).trim());
    },
    baseUrl: blankOr(function (v) {
      return isEnvRef(v) || /^https?:\/\/[^\s/]+/.test(v);
    }),
    apiVersion: blankOr(function (v) {
      return isEnvRef(v) || /^v\d+\w*$/.test(v);
    }),
    // Every row must name an mcp-server config node that still exists.
    servers: function (v: ServerRow[] | undefined) {
      return (
        !v ||
        (Array.isArray(v) &&
          v.every(function (e) {
            const c = e && e.server ? editorNode(e.server) : null;
            return !!c && c.type === 'mcp-server';
          }))
      );
    },
    maxSteps: isInt(1),
    temperature: blankOr(function (v) {
      return v !== '' && !isNaN(Number(v)) && Number(v) >= 0 && Number(v) <= 2;
    }),
    historyTurns: blankOr(isInt(0)),
    timeout: blankOr(function (v) {
      return !isNaN(Number(v)) && Number(v) > 0;
    }),
    approvalTimeout: blankOr(function (v) {
      return !isNaN(Number(v)) && Number(v) > 0;
    }),
  },
  credentials: AGENT_CREDENTIALS,
  inputs: 1,
  outputs: 3,
  icon: 'gemini.svg',
  paletteLabel: 'gemini agent',
  label: function () {
    return this.name || 'gemini agent';
  },
  outputLabels: function (i: number) {
    return this._(['gemini-agent.outputs.answer', 'gemini-agent.outputs.calls', 'gemini-agent.outputs.approval'][i]);
  },
  oneditprepare: function () {
    const node = this;
    pickerScope = node.z;
    prepareTabs(node);
    $('#node-input-systemInstruction').typedInput({
      default: 'str',
      types: ['str', 'msg', 'flow', 'global', 'env'],
      typeField: '#node-input-systemInstructionType',
    });
    const configs = serverConfigs();
    prepareSystemPrompt(node, configs);
    $('#gemini-agent-no-servers').toggle(configs.length === 0);
    const serverRows = prepareServerRows(node);
    prepareTestButton(node, serverRows.current);
    prepareSampling(node);
  },
  oneditsave: function () {
    setServerUsers(red, this, 'remove');
    this.servers = rowsOf($('#node-input-servers-container')).filter(function (s) {
      return s.server;
    });
    const spId = $('#gemini-agent-sp-server').val();
    const spArgs = String($('#gemini-agent-sp-args').val() ?? '').trim();
    let parsedArgs: Record<string, unknown> | string; // text that is not JSON is kept as typed, and the runtime says why
    try {
      parsedArgs = spArgs ? JSON.parse(spArgs) : {};
    } catch {
      parsedArgs = spArgs;
    }
    this.systemPrompt = spId ? { server: String(spId), name: String($('#gemini-agent-sp-name').val() ?? '').trim(), arguments: parsedArgs } : {};
    setServerUsers(red, this, 'add');
  },
});
