// The esp32-listener dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog, type DialogNode } from '../shared/editor/register';
import { configNodesOf } from '../shared/editor/config-nodes';
import { getJson } from '../shared/editor/requests';
import { pipelinePicker } from '../shared/editor/assist-pipelines';
import type { ServerRow } from '../../src/mcp/settings/server-row';
import { LISTENER_CREDENTIALS } from './credentials';
import { LISTENER_SETTINGS } from '../../src/esp32/listener-settings-declaration';
import { preparePairing } from './pairing-editor';
import { setServerUsers, trackServerUsers, type EditorRed } from '../shared/editor/server-users';

// The servers Gemini Live may call and voice "assist"'s Home Assistant count this listener as a user.
const usersRed = RED as unknown as EditorRed;
trackServerUsers(usersRed, 'esp32-listener');
import { isFirmwareVersion } from '../../src/esp32/ota/firmware-version';
const ROWS: Record<string, string[]> = {
  websocket: ['path', 'port', 'bind', 'tokens', 'anonymous', 'allow', 'ota', 'vision', 'voice'],
  mqtt: ['broker', 'username', 'password', 'allow', 'topics', 'vision', 'voice'],
  'mqtt-gateway': ['port', 'bind', 'balancer', 'tokens', 'anonymous', 'allow', 'ota', 'topics', 'vision', 'voice'],
};
const ALL_ROWS = ['path', 'port', 'bind', 'balancer', 'tokens', 'anonymous', 'allow', 'ota', 'broker', 'username', 'password', 'topics', 'vision', 'voice'];
// Assist mode: the Home Assistant server (an http mcp-server), and its pipelines listed through
// the deployed server (GET esp32-listener/assist/pipelines); a saved pipeline stays even unlisted.
type ListenerNode = DialogNode<typeof LISTENER_SETTINGS, ListenerDialogState>;

/** What the dialog keeps on the node while it is open: the Live server rows as they were, by server id. */
interface ListenerDialogState {
  _liveChosen: Record<string, ServerRow>;
}

const LIVE_FIELDS = ['model', 'voice', 'systemInstruction', 'baseUrl'] as const;

interface DevicesAnswer {
  devices: Array<{ id: string; serverInfo?: { name: string; version?: string }; toolCount: number; state: string }>;
}

function prepareAssist(node: ListenerNode) {
  const assist = node.assist || {};
  const servers = $('#esp32-listener-assist-server').empty();
  $('<option>').val('').text(node._('esp32-listener.assist.pick')).appendTo(servers);
  let count = 0;
  configNodesOf('mcp-server').forEach(function (c) {
    if (c.transport === 'http' || c.transport === 'sse') {
      count++;
      $('<option>')
        .val(c.id)
        .text(String(c.name || c.url || c.id))
        .appendTo(servers);
    }
  });
  if (!count) servers.children().first().text(node._('esp32-listener.assist.noServers'));
  servers.val(assist.server || '');
  $('#esp32-listener-assist-language').val(assist.language || '');
  $('#esp32-listener-assist-continue').prop('checked', assist.continue !== false);
  const picker = pipelinePicker(
    $('#esp32-listener-assist-pipeline'),
    $('#esp32-listener-assist-pipelines-result'),
    assist.pipeline || '',
    function (key, vars) {
      return node._('esp32-listener.assist.' + key, vars);
    },
  );
  function loadPipelines(again?: boolean) {
    picker.load(servers.val() as string, again);
  }
  servers.on('change', () => loadPipelines());
  $('#esp32-listener-assist-refresh').on('click', function (e) {
    e.preventDefault();
    loadPipelines(true);
  });
}

registerDialog<typeof LISTENER_SETTINGS, ListenerDialogState>('esp32-listener', {
  category: 'config',
  settings: LISTENER_SETTINGS,
  checks: {
    port: function (v: unknown) {
      return v === undefined || v === '' || (/^\d+$/.test(String(v)) && Number(v) < 65536);
    },
    firmwareVersion: function (v: unknown) {
      return v === undefined || v === '' || isFirmwareVersion(String(v).trim());
    },
    broker: function (this: { transport?: string }, v: unknown) {
      return this.transport !== 'mqtt' || (typeof v === 'string' && v.trim() !== '');
    },
    assist: function (this: { voice?: string }, v: { server?: string } | undefined) {
      return this.voice !== 'assist' || !!(v && v.server && RED.nodes.node(v.server));
    },
  },
  credentials: LISTENER_CREDENTIALS,
  label: function () {
    if (this.name) return this.name;
    if (this.transport === 'mqtt') return 'esp32 ' + (this.broker || 'mqtt');
    if (this.transport === 'mqtt-gateway') return 'esp32 gateway :' + (this.port || 1884);
    return 'esp32 ' + (this.port ? ':' + this.port : '') + (this.path || '/xiaozhi/v1/');
  },
  oneditprepare: function () {
    const node = this;
    function showRows() {
      const t = ($('#node-config-input-transport').val() as string) || 'websocket';
      ALL_ROWS.forEach(function (r) {
        $('.esp32-listener-row-' + r).toggle((ROWS[t] || ROWS.websocket).indexOf(r) >= 0);
      });
      $('#node-config-input-port').attr(
        'placeholder',
        node._(t === 'mqtt-gateway' ? 'esp32-listener.placeholder.gatewayPort' : 'esp32-listener.placeholder.port'),
      );
    }
    $('#node-config-input-transport').on('change', showRows);
    showRows();
    // Live mode: Gemini Live settings, and the mcp-server nodes whose tools the model may call.
    const live = node.live || {};
    LIVE_FIELDS.forEach(function (k) {
      $('#esp32-listener-live-' + k).val(live[k] || '');
    });
    const chosen: Record<string, ServerRow> = {};
    (live.servers || []).forEach(function (s) {
      if (s && s.server) chosen[s.server] = s;
    });
    const box = $('#esp32-listener-live-servers').empty();
    configNodesOf('mcp-server').forEach(function (c) {
      if (c.transport === 'esp32') return;
      $('<label style="display:block;width:auto">')
        .append(
          $('<input type="checkbox" style="width:auto;margin:0 6px 0 0">').val(c.id).prop('checked', !!chosen[c.id]),
          document.createTextNode(String(c.name || c.url || c.id)),
        )
        .appendTo(box);
    });
    if (!box.children().length) box.text(node._('esp32-listener.live.noServers'));
    node._liveChosen = chosen;
    prepareAssist(node);
    function showVoice() {
      $('.esp32-listener-row-live').toggle($('#node-config-input-voice').val() === 'live');
      const assist = $('#node-config-input-voice').val() === 'assist';
      $('.esp32-listener-row-assist').toggle(assist);
      if (assist) $('#esp32-listener-assist-server').trigger('change'); // list the pipelines
    }
    $('#node-config-input-voice').on('change', showVoice);
    showVoice();
    const devicesBox = $('#esp32-listener-devices');
    const loadDevices = function () {
      getJson<DevicesAnswer>('esp32-listener/' + encodeURIComponent(node.id) + '/devices', undefined, function (err, r) {
        devicesBox.empty();
        if (err || !r) return void devicesBox.text(node._('esp32-listener.devices.notDeployed'));
        if (!r.devices.length) return void devicesBox.text(node._('esp32-listener.devices.none'));
        r.devices.forEach(function (d) {
          const board = d.serverInfo ? ' ' + d.serverInfo.name + ' ' + (d.serverInfo.version || '') : '';
          $('<div class="esp32-listener-device">')
            .attr('data-device', d.id)
            .text(d.id + board + ' · ' + node._('esp32-listener.devices.tools', { count: d.toolCount }) + ' · ' + d.state)
            .appendTo(devicesBox);
        });
      });
    };
    loadDevices();
    // Pairing and the device list reload together while the dialog is open.
    (node as unknown as { _stopPairing?: () => void })._stopPairing = preparePairing(node.id, node._.bind(node), loadDevices);
  },
  oneditcancel: function () {
    (this as unknown as { _stopPairing?: () => void })._stopPairing?.();
  },
  oneditsave: function () {
    (this as unknown as { _stopPairing?: () => void })._stopPairing?.();
    setServerUsers(usersRed, this as never, 'remove');
    const chosen = this._liveChosen || {};
    const live = { model: '', voice: '', systemInstruction: '', baseUrl: '', servers: [] as ServerRow[] };
    LIVE_FIELDS.forEach(function (k) {
      live[k] = String($('#esp32-listener-live-' + k).val() || '');
    });
    live.servers = $('#esp32-listener-live-servers input:checked')
      .map(function (): ServerRow {
        const id = $(this).val() as string;
        return chosen[id] || { server: id, include: '', exclude: '', prefix: '' };
      })
      .get();
    this.live = live;
    delete this._liveChosen;
    this.assist = {
      server: String($('#esp32-listener-assist-server').val() || ''),
      pipeline: String($('#esp32-listener-assist-pipeline').val() || ''),
      language: String($('#esp32-listener-assist-language').val() || '').trim(),
      continue: $('#esp32-listener-assist-continue').prop('checked'),
    };
    setServerUsers(usersRed, this as never, 'add');
  },
});
