// The endpoint dialog's sign-in part: clients waiting for a person (name, where the browser returns,
// the code their sign-in page shows) with Approve and Deny, and the approved clients with when they
// were approved and last used, and Revoke. Read from the deployed endpoint (GET
// mcp-endpoint/<id>/clients); an endpoint not deployed with sign-in says so. It reloads while the
// dialog is open, so a client that starts signing in appears without reopening it.
import { postJson } from '../shared/editor/requests';
import { endpointRoute, liveList, smallButton } from './dialog-lists';
import type { DialogText } from '../shared/editor/register';

interface Listed {
  pending: Array<{ request: string; client: string; name: string; redirectHost: string; code: string; at: number }>;
  approved: Array<{ client: string; name: string; approvedAt: number; lastUsed?: number }>;
}

const when = (ms: number | undefined) => (ms ? new Date(ms).toLocaleString() : '');
export function prepareClients(nodeId: string, _: DialogText): () => void {
  const box = $('#mcp-endpoint-clients');
  const result = $('#mcp-endpoint-clients-result');
  const url = endpointRoute(nodeId, 'clients');

  function render(r: Listed): void {
    box.empty();
    $('<div style="font-weight:bold">')
      .text(_('mcp-endpoint.clients.waiting', { count: r.pending.length }))
      .appendTo(box);
    r.pending.forEach((p) => {
      const row = $('<div class="mcp-endpoint-pending">').attr('data-request', p.request);
      row.text(`${p.name} → ${p.redirectHost} · ${_('mcp-endpoint.clients.code', { code: p.code })} · ${when(p.at)}`);
      const decide = (decision: 'approve' | 'deny') =>
        postJson(url('/' + encodeURIComponent(p.request) + '/' + decision), { code: p.code }, (err) => {
          result.text(err ? err : _(decision === 'approve' ? 'mcp-endpoint.clients.approvedOne' : 'mcp-endpoint.clients.deniedOne', { name: p.name }));
          load();
        });
      smallButton(_('mcp-endpoint.clients.approve'), 'mcp-endpoint-approve', () => decide('approve')).appendTo(row);
      smallButton(_('mcp-endpoint.clients.deny'), 'mcp-endpoint-deny', () => decide('deny')).appendTo(row);
      row.appendTo(box);
    });
    $('<div style="margin-top:4px;font-weight:bold">')
      .text(_('mcp-endpoint.clients.approved', { count: r.approved.length }))
      .appendTo(box);
    r.approved.forEach((a) => {
      const row = $('<div class="mcp-endpoint-approved">').attr('data-client', a.client);
      const used = a.lastUsed ? _('mcp-endpoint.clients.lastUsed', { when: when(a.lastUsed) }) : _('mcp-endpoint.clients.notUsed');
      row.text(`${a.name} · ${_('mcp-endpoint.clients.approvedAt', { when: when(a.approvedAt) })} · ${used}`);
      smallButton(_('mcp-endpoint.clients.revoke'), 'mcp-endpoint-revoke', () =>
        postJson(url('/' + encodeURIComponent(a.client) + '/revoke'), {}, (err) => {
          result.text(err ? err : _('mcp-endpoint.clients.revokedOne', { name: a.name }));
          load();
        }),
      ).appendTo(row);
      row.appendTo(box);
    });
  }

  const { load, stop } = liveList<Listed>(url(''), box, _('mcp-endpoint.clients.notDeployed'), render);
  return stop;
}
