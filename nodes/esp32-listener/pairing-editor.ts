// The listener dialog's pairing part: devices waiting after their OTA check (MAC, board, firmware,
// when first seen, the code they speak), a field to type the spoken code into (POST
// esp32-listener/<id>/pair), and the paired devices with when they were last seen and Unpair
// (POST esp32-listener/<id>/unpair). Read from the deployed listener; an undeployed one says so.
import { getJson, postJson } from '../shared/editor/requests';
import type { DialogText } from '../shared/editor/register';

interface Listed {
  ota: { path: string; answering: boolean; takenBy?: string; off?: boolean };
  waiting: Array<{ id: string; board?: string; version?: string; firstSeen: number; code: string }>;
  paired: Array<{ id: string; board?: string; version?: string; pairedAt: number; lastSeen?: number }>;
}

const when = (ms: number | undefined) => (ms ? new Date(ms).toLocaleString() : '');

const RELOAD_MS = 3000;
/** The editor's tray has opened and focused its first field by then. */
const OPENED_MS = 600;

/** Returns the function that stops reloading (the dialog closes). */
export function preparePairing(nodeId: string, _: DialogText, onChange: () => void = () => undefined): () => void {
  const box = $('#esp32-listener-pairing');
  const result = $('#esp32-listener-pair-result');
  const url = (what: string) => 'esp32-listener/' + encodeURIComponent(nodeId) + '/' + what;

  function render(r: Listed): void {
    box.empty();
    const ota = r.ota.off
      ? _('esp32-listener.pairing.otaOff')
      : r.ota.answering
        ? _('esp32-listener.pairing.ota', { url: location.protocol + '//' + location.host + r.ota.path })
        : _('esp32-listener.pairing.otaTaken', { path: r.ota.path, other: r.ota.takenBy || '' });
    $('<div class="esp32-listener-ota">').text(ota).appendTo(box);
    $('<div style="margin-top:4px;font-weight:bold">')
      .text(_('esp32-listener.pairing.waiting', { count: r.waiting.length }))
      .appendTo(box);
    r.waiting.forEach((w) => {
      $('<div class="esp32-listener-waiting">')
        .attr('data-device', w.id)
        .text(
          `${w.id} · ${w.board ?? '?'} ${w.version ?? ''} · ${_('esp32-listener.pairing.since', { when: when(w.firstSeen) })} · ${_('esp32-listener.pairing.code', { code: w.code })}`,
        )
        .appendTo(box);
    });
    $('<div style="margin-top:4px;font-weight:bold">')
      .text(_('esp32-listener.pairing.paired', { count: r.paired.length }))
      .appendTo(box);
    r.paired.forEach((p) => {
      const row = $('<div class="esp32-listener-paired">').attr('data-device', p.id);
      row.text(
        `${p.id} · ${p.board ?? '?'} ${p.version ?? ''} · ${p.lastSeen ? _('esp32-listener.pairing.lastSeen', { when: when(p.lastSeen) }) : _('esp32-listener.pairing.notSeen')} `,
      );
      // Unpair cuts a device off at once: the first click asks, the second does it.
      const unpair = $('<button type="button" class="red-ui-button red-ui-button-small esp32-listener-unpair">').text(_('esp32-listener.pairing.unpair'));
      unpair
        .on('click', () => {
          if (!unpair.hasClass('esp32-listener-confirm')) {
            unpair.addClass('esp32-listener-confirm').text(_('esp32-listener.pairing.confirmUnpair'));
            return;
          }
          postJson(url('unpair'), { device: p.id }, (err) => {
            result.text(err ? err : _('esp32-listener.pairing.unpaired', { device: p.id }));
            load();
            onChange();
          });
        })
        .appendTo(row);
      row.appendTo(box);
    });
  }

  let shown = '';
  function load(first = false): void {
    getJson<Listed>(url('pairing'), undefined, (err, r) => {
      if (err || !r) return void box.text(_('esp32-listener.devices.notDeployed'));
      // Redrawn only when something changed, so a reload never takes a half-made click away.
      const now = JSON.stringify(r);
      if (now === shown && !first) return;
      shown = now;
      render(r);
      // A device waiting to pair is why the status sent the user here: the dialog opens on Pairing,
      // with the code field ready, instead of at the top of a long form.
      if (first && r.waiting.length) {
        // After the tray has opened: the editor focuses the dialog's first field then, which would
        // scroll back to the top.
        setTimeout(() => {
          $('#esp32-listener-pairing-part')[0]?.scrollIntoView({ block: 'start' });
          $('#esp32-listener-pair-code').trigger('focus');
        }, OPENED_MS);
      }
    });
  }

  $('#esp32-listener-pair').on('click', (e) => {
    e.preventDefault();
    const code = String($('#esp32-listener-pair-code').val() || '').trim();
    postJson<{ device: { id: string } }>(url('pair'), { code }, (err, r) => {
      result.text(err ? err : _('esp32-listener.pairing.pairedOne', { device: r!.device.id }));
      if (!err) $('#esp32-listener-pair-code').val('');
      load();
      onChange();
    });
  });
  load(true);
  // The dialog is not a snapshot: devices that start waiting, pair or leave show while it is open.
  const timer = setInterval(() => {
    load();
    onChange();
  }, RELOAD_MS);
  return () => clearInterval(timer);
}
