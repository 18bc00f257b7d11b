// What the endpoint dialog's live lists share (sign-in clients in clients-editor.ts, the assistant's
// changes in changes-editor.ts): a deployed endpoint's admin route, a small button, and a list read
// from its route while the dialog is open, said plainly when the endpoint is not deployed that way.
import { getJson } from '../shared/editor/requests';

const RELOAD_MS = 3000;

/** `mcp-endpoint/<id>/<list><what>`, relative to the editor (Node-RED's admin root). */
export function endpointRoute(nodeId: string, list: string): (what: string) => string {
  return (what) => 'mcp-endpoint/' + encodeURIComponent(nodeId) + '/' + list + what;
}

export function smallButton(label: string, cls: string, onClick: () => void): JQuery {
  return $('<button type="button" class="red-ui-button red-ui-button-small">').addClass(cls).text(label).css('margin-left', '6px').on('click', onClick);
}

/**
 * Reads `url` now and every few seconds (a client that starts signing in, or a deploy that starts
 * waiting, appears without reopening the dialog); `notDeployed` is shown when the route has nothing.
 * Returns `load` (to read again after a decision) and `stop` for the dialog's close.
 */
export function liveList<T>(url: string, box: JQuery, notDeployed: string, render: (listed: T) => void): { load(): void; stop(): void } {
  const load = () =>
    getJson<T>(url, undefined, (err, r) => {
      if (err || !r) box.text(notDeployed);
      else render(r);
    });
  load();
  const timer = setInterval(load, RELOAD_MS);
  return { load, stop: () => clearInterval(timer) };
}
