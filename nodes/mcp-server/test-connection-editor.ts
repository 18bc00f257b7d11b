// Test connection: connects with the dialog as it is now (saved or not) through POST mcp-server/test
// and says what answered (server name, protocol revision, tool count) or why nothing did.
import { postJson } from '../shared/editor/requests';
import { formValues } from '../shared/editor/form-values';
import type { DialogText } from '../shared/editor/register';
import type { EntriesEditor } from './entries-editor';
import { SERVER_SETTINGS, type DialogServer } from '../../src/mcp/settings/server-settings-declaration';

interface TestAnswer {
  ok: boolean;
  error?: string;
  serverInfo?: { name?: string; title?: string };
  protocolVersion?: string;
  toolCount?: number;
}

/** The server as the dialog holds it now (saved or not), as the admin routes that connect with it read it. */
export function dialogServer(node: { id: string }, entries: { headers: EntriesEditor; env: EntriesEditor }): DialogServer {
  const h = entries.headers.read();
  const en = entries.env.read();
  return {
    id: node.id,
    // The scope chosen in the dialog: a server scoped to a tab sees that tab's ${VAR}.
    z: String($('#node-config-dialog-scope').val() || '') || undefined,
    // Every setting the form holds now; headers and env from their rows, which are saved on Done.
    config: { ...formValues(SERVER_SETTINGS, '#node-config-input-'), headers: JSON.stringify(h.plain), env: JSON.stringify(en.plain) },
    token: String($('#node-config-input-token').val() ?? ''),
    // Typed secret entries go along; untouched stored ones are read server-side.
    secrets: Object.keys(h.secret).length + Object.keys(en.secret).length ? { headers: h.secret, env: en.secret } : undefined,
  };
}

export function prepareTestConnection(node: { id: string; _: DialogText }, entries: { headers: EntriesEditor; env: EntriesEditor }): void {
  const out = $('#node-config-mcp-test-result');
  // A result that no longer describes the fields is worse than none: any edit clears it.
  $('#node-config-dialog-edit-form').on('input change', 'input, select, textarea', function (this: HTMLElement) {
    if (this.id === 'node-config-mcp-import-text' || this.id === 'node-config-mcp-import-file') return;
    out.removeClass('mcp-ok mcp-fail').text('');
  });
  $('#node-config-mcp-test').on('click', function (e) {
    e.preventDefault();
    out.removeClass('mcp-ok mcp-fail').text(node._('mcp-server.test.running'));
    postJson<TestAnswer>('mcp-server/test', dialogServer(node, entries), function (err, r) {
      if (err || !r || !r.ok) {
        out.addClass('mcp-fail').text(node._('mcp-server.test.failed', { error: err || (r && r.error) || '' }));
      } else {
        const name = (r.serverInfo && (r.serverInfo.title || r.serverInfo.name)) || '?';
        out.addClass('mcp-ok').text(node._('mcp-server.test.ok', { name: name, version: r.protocolVersion || '?', count: r.toolCount ?? 0 }));
      }
      // The button sits below every field: on an 800 px screen its answer would land past the fold.
      out[0].scrollIntoView({ block: 'nearest' });
    });
  });
}
