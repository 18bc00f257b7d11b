// The esp32-listener dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
import { LISTENER_CREDENTIALS } from './credentials';
(function () {
  const ROWS = {
    websocket: ['path', 'port', 'bind', 'tokens', 'anonymous', 'allow', 'vision', 'voice'],
    mqtt: ['broker', 'username', 'password', 'allow', 'topics', 'vision', 'voice'],
    'mqtt-gateway': ['port', 'bind', 'tokens', 'anonymous', 'allow', 'topics', 'vision', 'voice'],
  };
  const ALL_ROWS = ['path', 'port', 'bind', 'tokens', 'anonymous', 'allow', 'broker', 'username', 'password', 'topics', 'vision', 'voice'];
  registerDialog('esp32-listener', {
    category: 'config',
    defaults: {
      name: { value: '' },
      transport: { value: 'websocket', required: true },
      path: { value: '/xiaozhi/v1/' },
      port: {
        value: '',
        validate: function (v) {
          return v === undefined || v === '' || (/^\d+$/.test(String(v)) && Number(v) < 65536);
        },
      },
      bind: { value: '0.0.0.0' },
      anonymous: { value: false },
      allow: { value: '' },
      broker: {
        value: '',
        validate: function (v) {
          return this.transport !== 'mqtt' || (typeof v === 'string' && v.trim() !== '');
        },
      },
      publishTopic: { value: 'device-server' },
      deviceTopic: { value: 'devices/p2p/{mac_}' },
      visionUrl: { value: '' },
      voice: { value: 'off' },
      live: { value: { model: '', voice: '', systemInstruction: '', baseUrl: '', servers: [] } },
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
          $('.esp32-listener-row-' + r).toggle(ROWS[t].indexOf(r) >= 0);
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
      ['model', 'voice', 'systemInstruction', 'baseUrl'].forEach(function (k) {
        $('#esp32-listener-live-' + k).val(live[k] || '');
      });
      const chosen: Record<string, unknown> = {};
      (live.servers || []).forEach(function (s) {
        if (s && s.server) chosen[s.server] = s;
      });
      const box = $('#esp32-listener-live-servers').empty();
      RED.nodes.eachConfig(function (c: any) {
        if (c.type !== 'mcp-server' || c.transport === 'esp32') return true;
        $('<label style="display:block;width:auto">')
          .append(
            $('<input type="checkbox" style="width:auto;margin:0 6px 0 0">').val(c.id).prop('checked', !!chosen[c.id]),
            document.createTextNode(c.name || c.url || c.id),
          )
          .appendTo(box);
        return true;
      });
      if (!box.children().length) box.text(node._('esp32-listener.live.noServers'));
      node._liveChosen = chosen;
      function showVoice() {
        $('.esp32-listener-row-live').toggle($('#node-config-input-voice').val() === 'live');
      }
      $('#node-config-input-voice').on('change', showVoice);
      showVoice();
      const devicesBox = $('#esp32-listener-devices');
      $.getJSON('esp32-listener/' + encodeURIComponent(node.id) + '/devices')
        .done(function (r) {
          if (!r.devices.length) {
            devicesBox.text(node._('esp32-listener.devices.none'));
            return;
          }
          r.devices.forEach(function (d) {
            const board = d.serverInfo ? ' ' + d.serverInfo.name + ' ' + (d.serverInfo.version || '') : '';
            $('<div>')
              .text(d.id + board + ' · ' + node._('esp32-listener.devices.tools', { count: d.toolCount }) + ' · ' + d.state)
              .appendTo(devicesBox);
          });
        })
        .fail(function () {
          devicesBox.text(node._('esp32-listener.devices.notDeployed'));
        });
    },
    oneditsave: function () {
      const chosen = this._liveChosen || {};
      const live: Record<string, unknown> = {};
      ['model', 'voice', 'systemInstruction', 'baseUrl'].forEach(function (k) {
        live[k] = $('#esp32-listener-live-' + k).val() || '';
      });
      live.servers = $('#esp32-listener-live-servers input:checked')
        .map(function () {
          const id = $(this).val() as string;
          return chosen[id] || { server: id, include: '', exclude: '', prefix: '' };
        })
        .get();
      this.live = live;
      delete this._liveChosen;
    },
  });
})();
