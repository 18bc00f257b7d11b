// The endpoint dialog's part for the assistant's changes: each deploy waiting for a person, shown
// as the lines it would change (+ added, ~ changed, - removed) with Approve and Deny, and the
// record of every change (who, when, what, what became of it) with Roll back on a deployed one.
// Read from the deployed endpoint (GET mcp-endpoint/<id>/changes); reloads while the dialog is open.
import { postJson } from '../shared/editor/requests';
import { endpointRoute, liveList, smallButton } from './dialog-lists';
import type { DialogText } from '../shared/editor/register';

interface Shown {
  id: string;
  client: string;
  at: number;
  state: string;
  lines: string[];
  decidedBy?: string;
  reason?: string;
  rollback: boolean;
}

export function prepareChanges(nodeId: string, _: DialogText): () => void {
  const box = $('#mcp-endpoint-changes');
  const result = $('#mcp-endpoint-changes-result');
  const url = endpointRoute(nodeId, 'changes');
  const diff = (lines: string[]) =>
    $('<pre class="mcp-endpoint-diff" style="margin:2px 0 4px;padding:4px;white-space:pre-wrap;font-size:0.9em">').text(lines.join('\n'));

  function render(r: { pending: Shown[]; record: Shown[] }): void {
    box.empty();
    $('<div style="font-weight:bold">')
      .text(_('mcp-endpoint.changes.waiting', { count: r.pending.length }))
      .appendTo(box);
    r.pending.forEach((p) => {
      const row = $('<div class="mcp-endpoint-pending-change">').attr('data-change', p.id);
      $('<div>')
        .text(`${p.id} · ${p.client} · ${new Date(p.at).toLocaleString()}`)
        .append(
          smallButton(_('mcp-endpoint.changes.approve'), 'mcp-endpoint-change-approve', () => decide(p, 'approve')),
          smallButton(_('mcp-endpoint.changes.deny'), 'mcp-endpoint-change-deny', () => decide(p, 'deny')),
        )
        .appendTo(row);
      diff(p.lines).appendTo(row);
      row.appendTo(box);
    });
    $('<div style="margin-top:4px;font-weight:bold">')
      .text(_('mcp-endpoint.changes.recorded', { count: r.record.length }))
      .appendTo(box);
    r.record.forEach((c) => {
      const row = $('<div class="mcp-endpoint-change">').attr('data-change', c.id);
      const by = c.decidedBy ? ' · ' + _('mcp-endpoint.changes.by', { who: c.decidedBy }) : '';
      const head = $('<div>').text(`${c.id} · ${_('mcp-endpoint.changes.state.' + c.state)} · ${c.client} · ${new Date(c.at).toLocaleString()}${by}`);
      if (c.rollback) smallButton(_('mcp-endpoint.changes.rollback'), 'mcp-endpoint-change-rollback', () => rollback(c)).appendTo(head);
      head.appendTo(row);
      if (c.state !== 'waiting') diff(c.reason ? [...c.lines, c.reason] : c.lines).appendTo(row); // a waiting one is shown above
      row.appendTo(box);
    });
  }

  function decide(p: Shown, decision: 'approve' | 'deny'): void {
    result.text('…');
    postJson(url('/' + encodeURIComponent(p.id) + '/' + decision), {}, (err) => {
      result.text(err ? err : _(decision === 'approve' ? 'mcp-endpoint.changes.approvedOne' : 'mcp-endpoint.changes.deniedOne', { change: p.id }));
      load();
    });
  }

  function rollback(c: Shown): void {
    result.text('…');
    postJson<{ rolledBack: string[] }>(url('/rollback'), { change: c.id }, (err, r) => {
      result.text(err ? err : _('mcp-endpoint.changes.rolledBack', { changes: (r?.rolledBack ?? []).join(', ') }));
      load();
    });
  }

  const { load, stop } = liveList<{ pending: Shown[]; record: Shown[] }>(url(''), box, _('mcp-endpoint.changes.notDeployed'), render);
  return stop;
}
