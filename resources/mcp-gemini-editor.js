// Editor helpers shared by this package's dialogs (mcp-server, mcp-list-tools, mcp-call-tool,
// mcp-prompt, mcp-resource, gemini-agent). Node-RED serves this file at
// resources/node-red-contrib-mcp-gemini/mcp-gemini-editor.js and loads it before the dialogs' own
// scripts. Its only global is the namespace object window.mcpGeminiEditor; loading it twice (each
// node set names it) keeps the first copy. What the runtime knows (tool lists, "did you mean" names)
// comes from the admin routes, never from a second implementation here.
(function () {
  if (window.mcpGeminiEditor) return;

  function xhrError(xhr) {
    if (!xhr) return '';
    return (xhr.responseJSON && xhr.responseJSON.error) || xhr.status + ' ' + xhr.statusText;
  }
  function getJson(url, query, done) {
    $.getJSON(url, query)
      .done(function (r) {
        done(null, r);
      })
      .fail(function (xhr) {
        done(xhrError(xhr), null, xhr);
      });
  }
  function postJson(url, body, done) {
    $.ajax({ url: url, type: 'POST', contentType: 'application/json', data: JSON.stringify(body) })
      .done(function (r) {
        done(null, r);
      })
      .fail(function (xhr) {
        done(xhrError(xhr), null, xhr);
      });
  }
  function parseObject(v) {
    if (v && typeof v === 'object') return v;
    try {
      const x = JSON.parse(v || '{}');
      return x && typeof x === 'object' ? x : {};
    } catch (e) {
      return {};
    }
  }

  // The settings an editor-side mcp-server config node would deploy with (what POST
  // mcp-server/test and mcp-server/tools expect), plus the token typed before a deploy.
  function settingsOf(cfg) {
    const config = {};
    ['name', 'transport', 'url', 'headers', 'command', 'args', 'cwd', 'env', 'listener', 'deviceId', 'timeout', 'protocolVersion', 'auth'].forEach(
      function (k) {
        if (cfg[k] !== undefined) config[k] = cfg[k];
      },
    );
    const typed = cfg.credentials && cfg.credentials.secrets;
    return {
      id: cfg.id,
      config: config,
      token: (cfg.credentials && cfg.credentials.token) || undefined,
      secrets: typed && typed !== '__PWRD__' ? parseObject(typed) : undefined,
    };
  }

  // Tools for dropdowns and warnings: the deployed server's admin route, or, when the server is
  // new or changed since the last deploy, its current editor settings (the runtime keeps that list
  // for a short time). query: {format, prefix, near}; `near` asks for the closest tool names.
  function loadTools(serverId, query, done) {
    const cfg = RED.nodes.node(serverId);
    function viaSettings() {
      if (!cfg) return done(null, { tools: [] });
      postJson('mcp-server/tools', $.extend(settingsOf(cfg), query), done);
    }
    if (cfg && cfg.changed) return viaSettings();
    getJson('mcp-server/' + encodeURIComponent(serverId) + '/tools', query, function (err, r, xhr) {
      if (err && xhr && xhr.status === 404) viaSettings();
      else done(err, r);
    });
  }

  // A server-dependent dropdown (tools, prompts, resources): filled when the server field changes,
  // a hint as its first entry, the chosen entry copied into `input`. o: {node, server, picker,
  // input, description, datalist?, fetch(server, done), items(answer) → [{value, label}],
  // texts: {pickServer, loading, pick, none, failed} (i18n keys), loaded(items, answer)}.
  function serverDropdown(o) {
    const picker = $(o.picker);
    let items = [];
    function fill(note) {
      picker.empty().append($('<option>').val('').text(note));
      if (o.datalist) $(o.datalist).empty();
      items.forEach(function (i) {
        $('<option>').val(i.value).text(i.label).appendTo(picker);
        if (o.datalist) $('<option>').val(i.value).appendTo(o.datalist);
      });
    }
    function load() {
      const server = $(o.server).val();
      items = [];
      if (!server || server === '_ADD_') {
        fill(o.node._(o.texts.pickServer));
        o.loaded(items);
        return;
      }
      fill(o.node._(o.texts.loading));
      o.fetch(server, function (err, r) {
        if (err) {
          fill(o.node._(o.texts.none));
          $(o.description).text(o.node._(o.texts.failed, { error: err }));
          return;
        }
        items = o.items(r);
        fill(items.length || !o.texts.empty ? o.node._(o.texts.pick, { count: items.length }) : o.node._(o.texts.empty));
        o.loaded(items, r);
      });
    }
    picker.on('change', function () {
      if (picker.val()) $(o.input).val(picker.val()).trigger('change');
    });
    $(o.server).on('change', load);
    return {
      items: function () {
        return items;
      },
      select: function (value) {
        picker.val(value);
      },
    };
  }

  // The runtime's "did you mean" names (src/mcp/tool-names) for a tool name the server lacks.
  function suggestTools(serverId, name, done) {
    loadTools(serverId, { near: name }, function (err, r) {
      done(err || !r ? [] : r.near || []);
    });
  }

  window.mcpGeminiEditor = {
    xhrError: xhrError,
    getJson: getJson,
    postJson: postJson,
    parseObject: parseObject,
    settingsOf: settingsOf,
    loadTools: loadTools,
    serverDropdown: serverDropdown,
    suggestTools: suggestTools,
  };
})();
