// POST /mcp-server/server-card {url}: the servers a Server Card (or a site's catalog of them)
// describes, for the dialog's "Server card" to fill itself in: {ok, cards:[{title, name,
// description, transport, url, bearer, cardUrl}]} or {ok:false, error}.
import { errorMessage } from '../../src/errors';
import { readServerCards } from '../../src/mcp/settings/server-card-reader';
import type { RED } from '../shared/red-types';

export function registerServerCardRoutes(RED: RED): void {
  RED.httpAdmin.post('/mcp-server/server-card', RED.auth.needsPermission('mcp-server.write'), async (req, res) => {
    const url = (req.body as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string' || !url.trim()) return res.json({ ok: false, error: 'give the URL of a server card, or of a site that publishes them' });
    try {
      res.json({ ok: true, cards: await readServerCards(url) });
    } catch (err) {
      res.json({ ok: false, error: errorMessage(err) });
    }
  });
}
