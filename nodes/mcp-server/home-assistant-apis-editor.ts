// "Home Assistant's APIs": for a URL ending in /api/mcp (or /api/mcp/<API id>), lists the LLM APIs
// that Home Assistant serves over MCP (POST mcp-server/home-assistant/apis, with the dialog as it is
// now) and points the URL at the one a person picks, keeping the URL's own host and ${VAR} as typed.
// A refusal comes back in words (a non-administrator's token, a Home Assistant too old to list them).
import { postJson } from '../shared/editor/requests';
import type { DialogText } from '../shared/editor/register';
import type { EntriesEditor } from './entries-editor';
import { dialogServer } from './test-connection-editor';
import { llmApiUrl } from '../../src/home-assistant/urls';

interface ApisAnswer {
  ok: boolean;
  error?: string;
  version?: string;
  apis?: Array<{ id: string; name: string }>;
}

const HOME_ASSISTANT_MCP_URL = /\/api\/mcp(\/[^/?#]+)?\/?$/;

export function prepareHomeAssistantApis(node: { id: string; _: DialogText }, entries: { headers: EntriesEditor; env: EntriesEditor }): void {
  const row = $('.mcp-server-row-ha-apis');
  const out = $('#node-config-mcp-ha-apis-result');
  const url = $('#node-config-input-url');
  function showRow() {
    const shown = $('#node-config-input-transport').val() === 'http' && HOME_ASSISTANT_MCP_URL.test(String(url.val() || '').trim());
    row.toggle(shown);
  }
  url.on('input change', function () {
    showRow();
    out.removeClass('mcp-ok mcp-fail').empty();
  });
  $('#node-config-input-transport').on('change', showRow);
  showRow();

  function choice(id: string, label: string, current: string): JQuery {
    const typed = String(url.val() || '');
    const target = llmApiUrl(typed, id);
    const link = $('<a href="#" class="mcp-ha-api"></a>').attr('data-api', id).text(label);
    if (target === current) link.css('font-weight', 'bold');
    link.on('click', function (e) {
      e.preventDefault();
      url.val(target).trigger('change');
      out.addClass('mcp-ok').text(node._('mcp-server.haApis.chosen', { url: target }));
    });
    return $('<li></li>').append(link);
  }

  $('#node-config-mcp-ha-apis').on('click', function (e) {
    e.preventDefault();
    out.removeClass('mcp-ok mcp-fail').text(node._('mcp-server.haApis.running'));
    postJson<ApisAnswer>('mcp-server/home-assistant/apis', dialogServer(node, entries), function (err, r) {
      out.empty();
      if (err || !r || !r.ok) {
        out.addClass('mcp-fail').text(node._('mcp-server.haApis.failed', { error: err || (r && r.error) || '' }));
        return;
      }
      const current = String(url.val() || '').trim();
      const list = $('<ul style="margin:4px 0 0 16px"></ul>');
      list.append(choice('', node._('mcp-server.haApis.configured'), current));
      for (const api of r.apis || []) list.append(choice(api.id, api.name + ' (/api/mcp/' + api.id + ')', current));
      out.append($('<div></div>').text(node._('mcp-server.haApis.found', { count: (r.apis || []).length, version: r.version || '?' })), list);
      out[0].scrollIntoView({ block: 'nearest' });
    });
  });
}
