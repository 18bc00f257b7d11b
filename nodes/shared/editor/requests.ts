// The admin-route requests every dialog makes: JSON in, JSON out, and the route's own error text
// (its `error` field) when it fails, so a dialog shows what the runtime said.

export type Done<T = unknown> = (err: string | null, result: T | null, xhr?: JQuery.jqXHR) => void;

export function xhrError(xhr: JQuery.jqXHR | undefined): string {
  if (!xhr) return '';
  return (xhr.responseJSON && xhr.responseJSON.error) || `${xhr.status} ${xhr.statusText}`;
}

export function getJson<T = unknown>(url: string, query: Record<string, unknown> | undefined, done: Done<T>): void {
  $.getJSON(url, query as JQuery.PlainObject)
    .done((r: T) => done(null, r))
    .fail((xhr: JQuery.jqXHR) => done(xhrError(xhr), null, xhr));
}

export function postJson<T = unknown>(url: string, body: unknown, done: Done<T>): void {
  $.ajax({ url, type: 'POST', contentType: 'application/json', data: JSON.stringify(body) })
    .done((r: T) => done(null, r))
    .fail((xhr: JQuery.jqXHR) => done(xhrError(xhr), null, xhr));
}

/** A JSON object from a dialog field (or the object itself); anything else is `{}`. */
export function parseObject(v: unknown): Record<string, unknown> {
  if (v && typeof v === 'object') return v as Record<string, unknown>;
  try {
    const x = JSON.parse(typeof v === 'string' && v ? v : '{}');
    return x && typeof x === 'object' ? x : {};
  } catch {
    return {};
  }
}
