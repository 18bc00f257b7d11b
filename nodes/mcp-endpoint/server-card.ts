// Publishing an endpoint's Server Card (setting "Publish a server card", off by default): the card
// at <path>/server-card on Node-RED's HTTP server, and an entry in the catalog at the origin's root
// (`/.well-known/ai-catalog.json` and `/.well-known/mcp/catalog.json`), served by httpNode when it is
// at the root, else by the admin app when that is (the Home Assistant app: flows under /endpoint),
// as the sign-in's well-known documents are. The catalog lists only the endpoints that publish, and
// answers 404 while none does. See src/server/http/server-card.ts for what a card holds.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CATALOG_PATHS, CATALOG_TYPE, SERVER_CARD_TYPE, catalog, sendDiscoveryDocument, serverCard } from '../../src/server/http/server-card';
import { requestOrigin } from '../../src/server/http/request-origin';
import { CLIENT_INFO } from '../../src/mcp/settings/client-info';
import { fullPath, mountRoutes } from './http-node-routes';
import type { RED } from '../shared/red-types';

interface Published {
  path: string;
  title: string;
  bearer: boolean;
}

const published = new Map<string, Published>();
const catalogsMounted = new WeakSet<object>();

const cardPathOf = (path: string) => `${path.replace(/\/+$/, '')}/server-card`;

export function publishServerCard(RED: RED, nodeId: string, entry: Published): () => void {
  mountCatalog(RED);
  published.set(nodeId, entry);
  const card = (req: IncomingMessage, res: ServerResponse) =>
    sendDiscoveryDocument(
      req,
      res,
      serverCard({ ...entry, version: CLIENT_INFO.version, url: requestOrigin(req) + fullPath(RED, entry.path) }),
      SERVER_CARD_TYPE,
    );
  const release = mountRoutes(RED, cardPathOf(entry.path), ['get'], card, `${entry.title} server card`);
  return () => {
    published.delete(nodeId);
    release();
  };
}

/** The catalog routes, once per Node-RED (they read the current list on every request). */
function mountCatalog(RED: RED): void {
  const isRoot = (root: unknown) => (typeof root === 'string' ? root : '/').replace(/\/+$/, '') === '';
  const app = isRoot(RED.settings.httpNodeRoot) ? RED.httpNode : isRoot(RED.settings.httpAdminRoot) ? RED.httpAdmin : RED.httpNode;
  if (!app || catalogsMounted.has(app)) return;
  catalogsMounted.add(app);
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    if (published.size === 0) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('No MCP endpoint here publishes a server card.');
      return;
    }
    const origin = requestOrigin(req);
    const cards = [...published.values()].map((p) => ({ path: p.path, title: p.title, cardUrl: origin + fullPath(RED, cardPathOf(p.path)) }));
    sendDiscoveryDocument(req, res, catalog(String(req.headers.host ?? ''), cards), CATALOG_TYPE);
  };
  for (const path of CATALOG_PATHS) app.get(path, answer);
}
