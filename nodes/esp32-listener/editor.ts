// The esp32-listener dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { registerDialog } from '../shared/editor/register';
import { LISTENER_CREDENTIALS } from './credentials';
import { dialogDefaults } from '../../src/settings-declaration';
import { LISTENER_SETTINGS } from '../../src/esp32/listener-settings-declaration';
import { preparePairing } from './pairing-editor';
import { isFirmwareVersion } from '../../src/esp32/firmware-version';
(function () {
  const ROWS = {
    websocket: ['path', 'port', 'bind', 'tokens', 'anonymous', 'allow', 'ota', 'vision', 'voice'],
    mqtt: ['broker', 'username', 'password', 'allow', 'topics', 'vision', 'voice'],
    'mqtt-gateway': ['port', 'bind', 'balancer', 'tokens', 'anonymous', 'allow', 'ota', 'topics', 'vision', 'voice'],
  };
  const ALL_ROWS = ['path', 'port', 'bind', 'balancer', 'tokens', 'anonymous', 'allow', 'ota', 'broker', 'username', 'password', 'topics', 'vision', 'voice'];
  // Assist mode: the Home Assistant server (an http mcp-server), and its pipelines listed through
  // the deployed server (GET esp32-listener/assist/pipelines); a saved pipeline stays even unlisted.
  function prepareAssist(node) {
    const assist = node.assist || {};
    const servers = $('#esp32-listener-assist-server').empty();
    $('<option>').val('').text(node._('esp32-listener.assist.pick')).appendTo(servers);
    let count = 0;
    RED.nodes.eachConfig(function (c: any) {
      if (c.type === 'mcp-server' && (c.transport === 'http' || c.transport === 'sse')) {
        count++;
        $('<option>')
          .val(c.id)
          .text(c.name || c.url || c.id)
          .appendTo(servers);
      }
      return true;
    });
    if (!count) servers.children().first().text(node._('esp32-listener.assist.noServers'));
    servers.val(assist.server || '');
    $('#esp32-listener-assist-language').val(assist.language || '');
    $('#esp32-listener-assist-continue').prop('checked', assist.continue !== false);
    const pipeline = $('#esp32-listener-assist-pipeline');
    const note = $('#esp32-listener-assist-pipelines-result');
    function setPipelines(list: Array<{ id: string; name: string; language: string }>) {
      const keep = String(pipeline.val() || assist.pipeline || '');
      pipeline.empty();
      $('<option>').val('').text(node._('esp32-listener.assist.preferred')).appendTo(pipeline);
      list.forEach(function (p) {
        $('<option>')
          .val(p.id)
          .text(p.name + (p.language ? ' (' + p.language + ')' : ''))
          .appendTo(pipeline);
      });
      if (keep && !list.some((p) => p.id === keep)) $('<option>').val(keep).text(keep).appendTo(pipeline);
      pipeline.val(keep);
    }
    setPipelines([]);
    function loadPipelines() {
      const server = servers.val() as string;
      if (!server) return note.text('');
      note.text(node._('esp32-listener.assist.loading'));
      $.getJSON('esp32-listener/assist/pipelines', { server: server })
        .done(function (r) {
          if (!r.ok) return note.text(node._('esp32-listener.assist.failed', { error: r.error }));
          setPipelines(r.pipelines);
          note.text(node._('esp32-listener.assist.loaded', { count: r.pipelines.length }));
        })
        .fail(function () {
          note.text(node._('esp32-listener.assist.deployFirst'));
        });
    }
    servers.on('change', loadPipelines);
    $('#esp32-listener-assist-refresh').on('click', function (e) {
      e.preventDefault();
      loadPipelines();
    });
  }

  registerDialog('esp32-listener', {
    category: 'config',
    defaults: dialogDefaults(LISTENER_SETTINGS, {
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
    }),
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
      prepareAssist(node);
      function showVoice() {
        $('.esp32-listener-row-live').toggle($('#node-config-input-voice').val() === 'live');
        const assist = $('#node-config-input-voice').val() === 'assist';
        $('.esp32-listener-row-assist').toggle(assist);
        if (assist) $('#esp32-listener-assist-server').trigger('change'); // list the pipelines
      }
      $('#node-config-input-voice').on('change', showVoice);
      showVoice();
      preparePairing(node.id, node._.bind(node));
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
      this.assist = {
        server: $('#esp32-listener-assist-server').val() || '',
        pipeline: $('#esp32-listener-assist-pipeline').val() || '',
        language: String($('#esp32-listener-assist-language').val() || '').trim(),
        continue: $('#esp32-listener-assist-continue').prop('checked'),
      };
    },
  });
})();
