// The mcp-server dialog's Headers / Environment rows: name, value and a "secret" box per entry. Plain
// entries are saved as the JSON text of the `headers`/`env` setting; secret ones as the `secrets`
// credential. A stored secret value never comes back to the editor: its row shows the name only,
// and the credential is left as it is unless a secret entry is added, removed or typed.
import { parseObject } from '../shared/editor/requests';
import type { DialogText } from '../shared/editor/register';

export type EntryKind = 'headers' | 'env';

/** What the rows hold now: plain entries, typed secret ones, and stored secret ones left untouched. */
export interface EntriesRead {
  plain: Record<string, string>;
  secret: Record<string, string>;
  untouched: string[];
}

export interface EntriesEditor {
  /** The names of the secret entries the node has stored. */
  stored: string[];
  read(): EntriesRead;
}

interface EntryRow {
  key?: string;
  value?: string;
  secret?: boolean;
  stored?: boolean;
}

export interface EntriesNode {
  _: DialogText;
  headers?: unknown;
  env?: unknown;
  credentials?: Record<string, unknown>;
}

export function entriesEditor(node: EntriesNode, kind: EntryKind): EntriesEditor {
  const list = $('#node-config-' + kind + '-list');
  const stored = (parseObject((node.credentials || {}).secretNames)[kind] as string[] | undefined) || [];
  list.editableList({
    removable: true,
    sortable: false,
    height: 'auto',
    addButton: true,
    addItem: function (row, index, given) {
      const data = (given || {}) as EntryRow;
      const key = $('<input type="text" class="mcp-entry-key" style="width:35%;margin-right:4px">')
        .attr('placeholder', node._('mcp-server.label.entryName'))
        .val(data.key || '');
      const value = $('<input class="mcp-entry-value" style="width:40%;margin-right:4px">')
        .attr('type', data.secret ? 'password' : 'text')
        .val(data.value || '');
      if (data.stored) value.attr('placeholder', node._('mcp-server.placeholder.storedSecret')).data('stored', data.key || '');
      const box = $('<input type="checkbox" class="mcp-entry-secret" style="width:auto;margin:0 4px 0 0">').prop('checked', !!data.secret);
      box.on('change', function () {
        value.attr('type', box.prop('checked') ? 'password' : 'text');
      });
      row.append(key, value, $('<label style="width:auto">').append(box, $('<span>').text(node._('mcp-server.label.secret'))));
    },
  });
  const saved = parseObject(node[kind]);
  Object.keys(saved).forEach(function (k) {
    list.editableList('addItem', { key: k, value: String(saved[k]) });
  });
  stored.forEach(function (k) {
    list.editableList('addItem', { key: k, secret: true, stored: true });
  });
  return {
    stored: stored,
    read: function () {
      const read: EntriesRead = { plain: {}, secret: {}, untouched: [] };
      list.editableList('items').each(function () {
        const k = String($(this).find('.mcp-entry-key').val() ?? '').trim();
        const v = $(this).find('.mcp-entry-value');
        const text = String(v.val() ?? '');
        if (!k) return;
        if (!$(this).find('.mcp-entry-secret').prop('checked')) read.plain[k] = text;
        else if (text === '' && v.data('stored') === k) read.untouched.push(k);
        else read.secret[k] = text;
      });
      return read;
    },
  };
}

/** The names of secret entries, saved beside them so the dialog can list them without their values. */
export function secretNamesOf(secret: { headers?: Record<string, string>; env?: Record<string, string> }): { headers: string[]; env: string[] } {
  return { headers: Object.keys(secret.headers || {}), env: Object.keys(secret.env || {}) };
}
