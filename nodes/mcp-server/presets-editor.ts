// The dialog's presets: Home Assistant inside the add-on (Supervisor URL and the add-on's own token)
// or on the network (the URL's host kept when one is typed), and the two MCP servers inside this
// package, started with the module: prefix (found wherever the package is installed).
import type { DialogText } from '../shared/editor/register';
import { HOME_ASSISTANT_ADDON, homeAssistantMcpUrl } from '../../src/mcp/home-assistant-addon';

function field(name: string): JQuery {
  return $('#node-config-input-' + name);
}

function set(name: string, value: string): void {
  field(name).val(value).trigger('change');
}

function nameIfBlank(name: string): void {
  if (!field('name').val()) field('name').val(name);
}

export function preparePresets(node: { _: DialogText }): void {
  function presetNote(key: string) {
    $('#node-config-mcp-preset-note')
      .text(node._('mcp-server.preset.' + key))
      .show();
  }
  function on(button: string, apply: () => void) {
    $(button).on('click', function (e) {
      e.preventDefault();
      apply();
    });
  }
  on('#node-config-mcp-ha-addon', function () {
    set('transport', 'http');
    set('url', HOME_ASSISTANT_ADDON.url);
    set('auth', 'token');
    set('token', HOME_ASSISTANT_ADDON.token);
    nameIfBlank('Home Assistant');
    presetNote('haAddonNote');
  });
  on('#node-config-mcp-ha-preset', function () {
    set('transport', 'http');
    set('auth', 'token');
    set('url', homeAssistantMcpUrl(String(field('url').val() || '')));
    // The add-on's token reference means nothing outside the add-on.
    if (field('token').val() === HOME_ASSISTANT_ADDON.token) set('token', '');
    nameIfBlank('Home Assistant');
    presetNote('haUrlNote');
  });
  function bundled(name: 'demo' | 'todo', args: string[]) {
    set('transport', 'stdio');
    set('command', 'node');
    set('args', JSON.stringify(['module:node-red-contrib-mcp-gemini/dist/servers/' + name + '/main.js'].concat(args)));
    nameIfBlank(name);
    presetNote(name + 'Note');
  }
  on('#node-config-mcp-bundled-demo', function () {
    bundled('demo', []);
  });
  on('#node-config-mcp-bundled-todo', function () {
    bundled('todo', ['stdio']);
  });
}
