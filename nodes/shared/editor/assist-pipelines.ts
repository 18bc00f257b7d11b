// The Assist pipeline picker of the esp32-listener and ha-assist dialogs: a select whose first entry
// is Home Assistant's preferred pipeline, filled from the deployed server's list (GET
// esp32-listener/assist/pipelines) with a line saying how that went. A saved pipeline stays even when
// it is not listed (Home Assistant away, or a typed id). `say` gives the dialog's own strings for
// preferred, loading, deployFirst, failed and loaded.

import { getJson } from './requests';

interface PipelinesAnswer {
  ok: boolean;
  error?: string;
  pipelines: Array<{ id: string; name: string; language: string }>;
}

export interface PipelinePicker {
  /** asks the deployed server `serverId` for its pipelines (nothing for none or "add new"); the
   *  same server again only when `again` (the Refresh link) */
  load(serverId: string, again?: boolean): void;
}

export function pipelinePicker(
  select: JQuery,
  note: JQuery,
  saved: string,
  say: (key: string, vars?: Record<string, string | number>) => string,
): PipelinePicker {
  function setPipelines(list: PipelinesAnswer['pipelines']) {
    const keep = String(select.val() || saved || '');
    select.empty();
    $('<option>').val('').text(say('preferred')).appendTo(select);
    list.forEach(function (p) {
      $('<option>')
        .val(p.id)
        .text(p.name + (p.language ? ' (' + p.language + ')' : ''))
        .appendTo(select);
    });
    if (keep && !list.some((p) => p.id === keep)) $('<option>').val(keep).text(keep).appendTo(select);
    select.val(keep);
  }
  setPipelines([]);
  // The server field says "change" more than once while the dialog opens (Node-RED fills a config
  // select after oneditprepare): the same server is not asked twice unless the user asks again, and
  // when answers cross only the latest request's counts, so the line below the list always speaks
  // of the list shown.
  let asked = 0;
  let lastServer: string | undefined;
  return {
    load(serverId, again) {
      if (serverId === lastServer && !again) return;
      lastServer = serverId;
      const mine = ++asked;
      if (!serverId || serverId === '_ADD_') return void note.text('');
      note.text(say('loading'));
      getJson<PipelinesAnswer>('esp32-listener/assist/pipelines', { server: serverId }, function (err, r) {
        if (mine !== asked) return;
        if (err || !r) return void note.text(say('deployFirst'));
        if (!r.ok) return void note.text(say('failed', { error: r.error || '' }));
        setPipelines(r.pipelines);
        note.text(say('loaded', { count: r.pipelines.length }));
      });
    },
  };
}
