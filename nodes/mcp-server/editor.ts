// The mcp-server dialog: registered with the editor, with the form in editor.html and the help in help.html
// beside this file (scripts/build.mjs puts the three together into what Node-RED loads).
import { PASSWORD_PLACEHOLDER } from '../shared/secret-destinations';
import { HOME_ASSISTANT_ADDON, homeAssistantMcpUrl } from '../../src/mcp/home-assistant-addon';
import * as dialogs from '../shared/editor';
import { registerDialog } from '../shared/editor/register';
import { TIMEOUT_CHECK } from '../shared/editor/validators';
import { SERVER_CREDENTIALS, SERVER_SETTING_NAMES, SERVER_SETTINGS, type ServerSettingName } from '../../src/mcp/server-settings-declaration';
(function () {
  const TRANSPORT_ROWS = {
    http: ['url', 'headers', 'token'],
    sse: ['url', 'headers', 'token'],
    stdio: ['command', 'args', 'cwd', 'env', 'inheritEnv'],
    esp32: ['listener', 'deviceId'],
  };
  const ALL_ROWS = ['url', 'headers', 'token', 'command', 'args', 'cwd', 'env', 'inheritEnv', 'listener', 'deviceId'];

  function isJson(kind) {
    return function (v) {
      if (v === undefined || v === null || v === '') return true;
      if (typeof v !== 'string') return kind === 'array' ? Array.isArray(v) : typeof v === 'object';
      try {
        const x = JSON.parse(v);
        return kind === 'array' ? Array.isArray(x) : x && typeof x === 'object' && !Array.isArray(x);
      } catch (e) {
        return false;
      }
    };
  }
  // The config node whose dialog is open: its transport is the dialog's select, not yet saved.
  let editingId = null;
  function needs(transports: string[], _field?: string) {
    return function (v) {
      const t = editingId && editingId === this.id && $('#node-config-input-transport').length ? $('#node-config-input-transport').val() : this.transport;
      if (transports.indexOf(t || 'http') < 0) return true;
      return typeof v === 'string' && v.trim() !== '';
    };
  }
  /** Every declared setting at its default value. */
  function declaredValues(): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const name of SERVER_SETTING_NAMES) values[name] = SERVER_SETTINGS[name].value;
    return values;
  }
  function asText(v) {
    return v === undefined || v === null || v === '' ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  }
  function isUrl(v) {
    return typeof v === 'string' && (/^https?:\/\/\S+$/.test(v.trim()) || /^\/[^/\s]\S*$/.test(v.trim()) || v.indexOf('${') >= 0);
  }

  // Shared with the other dialogs (resources/mcp-gemini-editor.js): request helpers and settingsOf.
  const shared = dialogs;
  const xhrError = shared.xhrError;
  const parseObject = shared.parseObject;

  // `.mcp.json` (Claude Code, Cursor, Gemini CLI: "mcpServers"; VS Code: "servers") to the settings
  // of one mcp-server config node per entry. A bearer Authorization header becomes the token
  // credential, so it is never exported with the flow.
  function parseMcpJson(text) {
    const doc = JSON.parse(text);
    const entries = doc && typeof doc === 'object' ? doc.mcpServers || doc.servers : null;
    if (!entries || typeof entries !== 'object' || Array.isArray(entries)) throw new Error('no "mcpServers" object');
    const servers: any[] = [];
    const skipped: any[] = [];
    Object.keys(entries).forEach(function (name) {
      const e = entries[name] || {};
      const s: Record<string, any> = { ...declaredValues(), name: name };
      let token: string | undefined;
      const secret: { headers: Record<string, string>; env: Record<string, string> } = { headers: {}, env: {} };
      if (typeof e.command === 'string' && e.command) {
        s.transport = 'stdio';
        s.command = e.command;
        s.args = Array.isArray(e.args) && e.args.length ? JSON.stringify(e.args) : '';
        const env = splitSecrets(e.env, secret.env);
        s.env = Object.keys(env).length ? JSON.stringify(env) : '';
        s.cwd = typeof e.cwd === 'string' ? e.cwd : '';
      } else if (typeof (e.url || e.serverUrl || e.httpUrl) === 'string') {
        s.transport = e.type === 'sse' ? 'sse' : 'http';
        s.url = e.url || e.serverUrl || e.httpUrl;
        const headers = Object.assign({}, e.headers || {});
        Object.keys(headers).forEach(function (h) {
          const m = h.toLowerCase() === 'authorization' && /^Bearer\s+(.+)$/i.exec(String(headers[h]));
          if (m) {
            token = m[1].trim();
            delete headers[h];
          }
        });
        const plain = splitSecrets(headers, secret.headers);
        s.headers = Object.keys(plain).length ? JSON.stringify(plain) : '';
      } else {
        skipped.push(name);
        return;
      }
      servers.push({ settings: s, token: token, secrets: hasSecrets(secret) ? secret : undefined });
    });
    return { servers: servers, skipped: skipped };
  }

  // Adds config nodes the way the editor's own config dialog does: defaults, credentials,
  // validation, one undoable history event, dirty flag, redraw.
  function addServers(servers) {
    const def = RED.nodes.getType('mcp-server');
    const ids: any[] = [];
    servers.forEach(function (entry) {
      const n: Record<string, any> = { id: RED.nodes.id(), _def: def, type: 'mcp-server', z: undefined, users: [], _: (def as any)._ };
      Object.keys(def.defaults).forEach(function (k) {
        n[k] = entry.settings[k] !== undefined ? entry.settings[k] : JSON.parse(JSON.stringify(def.defaults[k].value));
      });
      n.credentials = entry.token ? { token: entry.token, has_token: false } : {};
      if (entry.secrets) {
        n.credentials.secrets = JSON.stringify(entry.secrets);
        n.credentials.has_secrets = false;
        n.credentials.secretNames = JSON.stringify(namesOf(entry.secrets));
      }
      n.changed = true;
      RED.editor.validateNode(n);
      RED.nodes.add(n);
      ids.push(n.id);
    });
    if (!ids.length) return ids;
    RED.history.push({ t: 'add', nodes: ids, dirty: RED.nodes.dirty() });
    RED.nodes.dirty(true);
    RED.view.redraw(true);
    if (RED.sidebar.config.refresh) RED.sidebar.config.refresh();
    return ids;
  }

  // Header and env entries that are credentials: `Authorization` and names that say token, key,
  // secret or password. They go to the node's `secrets` credential, never into the flow JSON.
  const SECRET_NAME = /token|key|secret|password|authorization/i;
  function splitSecrets(entries, secretOut) {
    const plain: Record<string, any> = {};
    Object.keys(entries && typeof entries === 'object' ? entries : {}).forEach(function (k) {
      if (SECRET_NAME.test(k)) secretOut[k] = String(entries[k]);
      else plain[k] = entries[k];
    });
    return plain;
  }
  function hasSecrets(secret) {
    return Object.keys(secret.headers).length + Object.keys(secret.env).length > 0;
  }
  function namesOf(secret) {
    return { headers: Object.keys(secret.headers || {}), env: Object.keys(secret.env || {}) };
  }

  // The Headers / Environment rows: name, value and a "secret" box per entry. Plain entries are
  // saved as the JSON text of the `headers`/`env` setting; secret ones as the `secrets` credential.
  // A stored secret value never comes back to the editor: its row shows the name only, and the
  // credential is left as it is unless a secret entry is added, removed or typed.
  function entriesEditor(node, kind) {
    const list = $('#node-config-' + kind + '-list');
    const stored: string[] = (parseObject((node.credentials || {}).secretNames)[kind] as string[]) || [];
    list.editableList({
      removable: true,
      sortable: false,
      height: 'auto',
      addButton: true,
      addItem: function (row, index, data: any) {
        const key = $('<input type="text" class="mcp-entry-key" style="width:35%;margin-right:4px">')
          .attr('placeholder', node._('mcp-server.label.entryName'))
          .val(data.key || '');
        const value = $('<input class="mcp-entry-value" style="width:40%;margin-right:4px">')
          .attr('type', data.secret ? 'password' : 'text')
          .val(data.value || '');
        if (data.stored) value.attr('placeholder', node._('mcp-server.placeholder.storedSecret')).data('stored', data.key);
        const box = $('<input type="checkbox" class="mcp-entry-secret" style="width:auto;margin:0 4px 0 0">').prop('checked', !!data.secret);
        box.on('change', function () {
          value.attr('type', box.prop('checked') ? 'password' : 'text');
        });
        row.append(key, value, $('<label style="width:auto">').append(box, $('<span>').text(node._('mcp-server.label.secret'))));
      },
    });
    Object.keys(parseObject(node[kind])).forEach(function (k) {
      list.editableList('addItem', { key: k, value: String(parseObject(node[kind])[k]) });
    });
    stored.forEach(function (k) {
      list.editableList('addItem', { key: k, secret: true, stored: true });
    });
    return {
      stored: stored,
      read: function () {
        const plain: Record<string, any> = {};
        const secret: Record<string, any> = {};
        const untouched: any[] = [];
        list.editableList('items').each(function () {
          const k = String($(this).find('.mcp-entry-key').val() ?? '').trim();
          const v = $(this).find('.mcp-entry-value');
          if (!k) return;
          if (!$(this).find('.mcp-entry-secret').prop('checked')) {
            plain[k] = v.val();
            return;
          }
          if (v.val() === '' && v.data('stored') === k) untouched.push(k);
          else secret[k] = v.val();
        });
        return { plain: plain, secret: secret, untouched: untouched };
      },
    };
  }

  // auth "oauth": the Authorize button signs in through the server's own page in a new tab; the
  // redirect comes back to our admin route, which keeps the tokens (the editor never sees them).
  function updateAuthRows() {
    const t = $('#node-config-input-transport').val();
    const http = t === 'http' || t === 'sse';
    const oauth = $('#node-config-input-auth').val() === 'oauth';
    $('.mcp-server-row-auth').toggle(http);
    $('.mcp-server-row-oauth').toggle(http && oauth);
    $('.mcp-server-row-token').toggle(http && !oauth);
  }
  function oauthPrepare(node) {
    if (!$('#node-config-input-auth').val()) $('#node-config-input-auth').val('token');
    $('#node-config-input-transport, #node-config-input-auth').on('change', updateAuthRows);
    updateAuthRows();
    const out = $('#node-config-mcp-oauth-result');
    function show(cls, text) {
      out.removeClass('mcp-ok mcp-fail').addClass(cls).text(text);
    }
    function showStatus(r) {
      if (!r.signedIn) return show('', node._('mcp-server.oauth.notSignedIn'));
      show(
        'mcp-ok',
        r.expiresAt ? node._('mcp-server.oauth.signedInUntil', { time: new Date(r.expiresAt).toLocaleTimeString() }) : node._('mcp-server.oauth.signedIn'),
      );
    }
    function status(done?: (r: any) => void) {
      $.getJSON('mcp-server/oauth/' + encodeURIComponent(node.id) + '/status', { url: $('#node-config-input-url').val() }).done(function (r) {
        showStatus(r);
        if (done) done(r);
      });
    }
    status();
    $('#node-config-mcp-oauth-authorize').on('click', function (e) {
      e.preventDefault();
      if (!$('#node-config-input-url').val()) return show('mcp-fail', node._('mcp-server.oauth.needsUrl'));
      // Opened inside the click, so a popup blocker lets it through; pointed at the sign-in below.
      const tab = window.open('', '_blank');
      if (tab) tab.opener = null;
      show('', node._('mcp-server.oauth.opening'));
      const config: Record<string, any> = {};
      ['transport', 'url', 'headers', 'timeout', 'protocolVersion'].forEach(function (k) {
        config[k] = $('#node-config-input-' + k).val();
      });
      config.auth = 'oauth';
      $.ajax({
        url: 'mcp-server/oauth/start',
        type: 'POST',
        contentType: 'application/json',
        data: JSON.stringify({
          id: node.id,
          config: config,
          clientId: $('#node-config-input-clientId').val(),
          clientSecret: $('#node-config-input-clientSecret').val(),
          redirectUrl: new URL('mcp-server/oauth/callback', location.href).href,
        }),
      })
        .done(function (r) {
          if (tab) tab.location.href = r.authorizationUrl;
          else window.open(r.authorizationUrl, '_blank', 'noopener');
          show('', node._('mcp-server.oauth.waiting'));
          const until = Date.now() + 10 * 60000;
          (function poll() {
            if (!$('#node-config-mcp-oauth-result').length) return; // dialog closed
            if (Date.now() > until) return show('mcp-fail', node._('mcp-server.oauth.timedOut'));
            status(function (s) {
              if (!s.signedIn) setTimeout(poll, 1000);
            });
          })();
        })
        .fail(function (xhr) {
          if (tab) tab.close();
          show('mcp-fail', node._('mcp-server.oauth.failed', { error: xhrError(xhr) }));
        });
    });
  }

  // The dialog's checks, by setting; names, defaults and credentials come from the declaration.
  const VALIDATE: Partial<Record<ServerSettingName, (this: any, v: any) => boolean>> = {
    url: function (v) {
      return needs(['http', 'sse']).call(this, v) && (!v || isUrl(v));
    },
    headers: isJson('object'),
    command: needs(['stdio']),
    args: isJson('array'),
    env: isJson('object'),
    // Only an esp32 server needs a listener.
    listener: function (v) {
      if (needs(['esp32']).call(this, '')) return true; // not an esp32 server
      return typeof v === 'string' && v !== '' && v !== '_ADD_' && !!RED.nodes.node(v);
    },
    timeout: TIMEOUT_CHECK,
  };
  function dialogDefaults() {
    const defaults: Record<string, unknown> = {};
    for (const name of SERVER_SETTING_NAMES) defaults[name] = { ...SERVER_SETTINGS[name], ...(VALIDATE[name] ? { validate: VALIDATE[name] } : {}) };
    return defaults;
  }

  registerDialog('mcp-server', {
    category: 'config',
    defaults: dialogDefaults(),
    credentials: SERVER_CREDENTIALS,
    oneditsave: function () {
      editingId = null;
      // Only an esp32 server uses a listener; any other keeps none, so it is not listed as a user.
      if ($('#node-config-input-transport').val() !== 'esp32') $('#node-config-input-listener').val('_ADD_');
      const h = this._mcpEntries.headers.read();
      const e = this._mcpEntries.env.read();
      $('#node-config-input-headers').val(Object.keys(h.plain).length ? JSON.stringify(h.plain) : '');
      $('#node-config-input-env').val(Object.keys(e.plain).length ? JSON.stringify(e.plain) : '');
      const typed = Object.keys(h.secret).length + Object.keys(e.secret).length;
      const kept = h.untouched.length + e.untouched.length;
      const before = this._mcpEntries.headers.stored.length + this._mcpEntries.env.stored.length;
      if (typed === 0 && kept === before) {
        $('#node-config-input-secrets').val(before ? PASSWORD_PLACEHOLDER : '');
        return;
      }
      // The secrets are saved together: an untouched stored one cannot be carried over.
      if (kept) RED.notify(this._('mcp-server.errors.reenterSecrets', { names: h.untouched.concat(e.untouched).join(', ') }), 'warning');
      const secret = { headers: h.secret, env: e.secret };
      $('#node-config-input-secrets').val(typed ? JSON.stringify(secret) : '');
      $('#node-config-input-secretNames').val(typed ? JSON.stringify(namesOf(secret)) : '');
    },
    oneditcancel: function () {
      editingId = null;
    },
    label: function () {
      return this.name || this.url || this.command || 'mcp-server ' + (this.transport || 'http');
    },
    oneditprepare: function () {
      const node = this;
      editingId = node.id;
      ['headers', 'args', 'env'].forEach(function (f) {
        $('#node-config-input-' + f).val(asText(node[f]));
      });
      node._mcpEntries = { headers: entriesEditor(node, 'headers'), env: entriesEditor(node, 'env') };

      $('#node-config-input-transport')
        .on('change', function () {
          const t = $(this).val();
          ALL_ROWS.forEach(function (r) {
            $('.mcp-server-row-' + r).toggle(TRANSPORT_ROWS[t as keyof typeof TRANSPORT_ROWS].indexOf(r) >= 0);
          });
        })
        .trigger('change');
      oauthPrepare(node);

      // Home Assistant presets: inside the add-on (Supervisor URL and the add-on's own token), or on the
      // network (the URL's host kept when one is typed).
      function presetNote(key) {
        $('#node-config-mcp-preset-note')
          .text(node._('mcp-server.preset.' + key))
          .show();
      }
      $('#node-config-mcp-ha-addon').on('click', function (e) {
        e.preventDefault();
        $('#node-config-input-transport').val('http').trigger('change');
        $('#node-config-input-url').val(HOME_ASSISTANT_ADDON.url).trigger('change');
        $('#node-config-input-auth').val('token').trigger('change');
        $('#node-config-input-token').val(HOME_ASSISTANT_ADDON.token).trigger('change');
        if (!$('#node-config-input-name').val()) $('#node-config-input-name').val('Home Assistant');
        presetNote('haAddonNote');
      });
      // The two MCP servers inside this package, started with the module: prefix (found wherever the package is installed).
      function bundled(name: 'demo' | 'todo', args: string[]) {
        $('#node-config-input-transport').val('stdio').trigger('change');
        $('#node-config-input-command').val('node').trigger('change');
        $('#node-config-input-args')
          .val(JSON.stringify(['module:node-red-contrib-mcp-gemini/dist/servers/' + name + '/main.js'].concat(args)))
          .trigger('change');
        if (!$('#node-config-input-name').val()) $('#node-config-input-name').val(name);
        presetNote(name + 'Note');
      }
      $('#node-config-mcp-bundled-demo').on('click', function (e) {
        e.preventDefault();
        bundled('demo', []);
      });
      $('#node-config-mcp-bundled-todo').on('click', function (e) {
        e.preventDefault();
        bundled('todo', ['stdio']);
      });
      $('#node-config-mcp-ha-preset').on('click', function (e) {
        e.preventDefault();
        $('#node-config-input-transport').val('http').trigger('change');
        $('#node-config-input-auth').val('token').trigger('change');
        const cur = String($('#node-config-input-url').val() || '');
        $('#node-config-input-url').val(homeAssistantMcpUrl(cur)).trigger('change');
        // The add-on's token reference means nothing outside the add-on.
        if ($('#node-config-input-token').val() === HOME_ASSISTANT_ADDON.token) $('#node-config-input-token').val('').trigger('change');
        if (!$('#node-config-input-name').val()) $('#node-config-input-name').val('Home Assistant');
        presetNote('haUrlNote');
      });

      $('#node-config-mcp-import-toggle').on('click', function (e) {
        e.preventDefault();
        $('#node-config-mcp-import').toggle();
      });
      $('#node-config-mcp-import-file').on('change', function () {
        const file = (this as HTMLInputElement).files && (this as HTMLInputElement).files![0];
        if (!file) return;
        const reader = new FileReader();
        reader.onload = function () {
          $('#node-config-mcp-import-text').val(String(reader.result));
        };
        reader.readAsText(file);
      });
      $('#node-config-mcp-import-create').on('click', function (e) {
        e.preventDefault();
        const out = $('#node-config-mcp-import-result').removeClass('mcp-ok mcp-fail');
        let parsed;
        try {
          parsed = parseMcpJson($('#node-config-mcp-import-text').val());
        } catch (err) {
          out.addClass('mcp-fail').text(node._('mcp-server.import.invalid', { error: (err as Error).message }));
          return;
        }
        addServers(parsed.servers);
        const names = parsed.servers
          .map(function (x) {
            return x.settings.name;
          })
          .join(', ');
        let text = node._('mcp-server.import.created', { count: parsed.servers.length, names: names || '—' });
        if (parsed.skipped.length) text += ' ' + node._('mcp-server.import.skipped', { names: parsed.skipped.join(', ') });
        out.addClass(parsed.servers.length ? 'mcp-ok' : 'mcp-fail').text(text);
      });

      // A result that no longer describes the fields is worse than none: any edit clears it.
      $('#node-config-dialog-edit-form').on('input change', 'input, select, textarea', function (this: HTMLElement) {
        if (this.id === 'node-config-mcp-import-text' || this.id === 'node-config-mcp-import-file') return;
        $('#node-config-mcp-test-result').removeClass('mcp-ok mcp-fail').text('');
      });
      $('#node-config-mcp-test').on('click', function (e) {
        e.preventDefault();
        const out = $('#node-config-mcp-test-result').removeClass('mcp-ok mcp-fail').text(node._('mcp-server.test.running'));
        const h = node._mcpEntries.headers.read();
        const en = node._mcpEntries.env.read();
        const config = {
          transport: $('#node-config-input-transport').val(),
          url: $('#node-config-input-url').val(),
          headers: JSON.stringify(h.plain),
          command: $('#node-config-input-command').val(),
          args: $('#node-config-input-args').val(),
          cwd: $('#node-config-input-cwd').val(),
          env: JSON.stringify(en.plain),
          inheritEnv: $('#node-config-input-inheritEnv').prop('checked'),
          timeout: $('#node-config-input-timeout').val(),
          protocolVersion: $('#node-config-input-protocolVersion').val(),
          auth: $('#node-config-input-auth').val(),
          name: $('#node-config-input-name').val(),
        };
        $.ajax({
          url: 'mcp-server/test',
          type: 'POST',
          contentType: 'application/json',
          // Typed secret entries go along; untouched stored ones are read server-side.
          data: JSON.stringify({
            id: node.id,
            config: config,
            token: $('#node-config-input-token').val(),
            secrets: Object.keys(h.secret).length + Object.keys(en.secret).length ? { headers: h.secret, env: en.secret } : undefined,
          }),
        })
          .done(function (r) {
            if (r.ok) {
              out.addClass('mcp-ok').text(
                node._('mcp-server.test.ok', {
                  name: (r.serverInfo && (r.serverInfo.title || r.serverInfo.name)) || '?',
                  version: r.protocolVersion || '?',
                  count: r.toolCount,
                }),
              );
            } else {
              out.addClass('mcp-fail').text(node._('mcp-server.test.failed', { error: r.error }));
            }
          })
          .fail(function (xhr) {
            out.addClass('mcp-fail').text(node._('mcp-server.test.failed', { error: xhrError(xhr) }));
          })
          .always(function () {
            // The button sits below every field: on an 800 px screen its answer would land past the fold.
            out[0].scrollIntoView({ block: 'nearest' });
          });
      });
    },
  });
})();
