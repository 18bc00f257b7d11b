// "Announce to Home Assistant": inside the Home Assistant app (SUPERVISOR_TOKEN set), the endpoint
// tells Home Assistant it serves MCP through the Supervisor's discovery service and withdraws on
// close (src/home-assistant/supervisor-discovery.ts). The URL is the app's own host name, which Home
// Assistant reaches on the Supervisor's network. A refusal is said once per deploy, with the URL to
// add by hand and the line the app's config needs.
import { hostname } from 'node:os';
import { announceMcpServer, withdrawMcpServer } from '../../src/home-assistant/supervisor-discovery';
import { errorMessage } from '../../src/errors';
import { fullPath } from './http-node-routes';
import type { Node, RED } from '../shared/red-types';

type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** Starts the announcement; the returned function withdraws it (on close). */
export function announceEndpoint(RED: RED, node: Node, t: Translate, path: string): () => Promise<void> {
  const token = process.env.SUPERVISOR_TOKEN;
  const url = `http://${hostname()}:${Number(RED.settings.uiPort) || 1880}${fullPath(RED, path)}`;
  if (!token) {
    node.log(t('mcp-endpoint.errors.announceOutsideApp', { url }));
    return async () => undefined;
  }
  let uuid: string | undefined;
  let closed = false;
  const announced = announceMcpServer(url, token).then(
    (outcome) => {
      if (outcome.ok) {
        uuid = outcome.uuid;
        node.log(t('mcp-endpoint.errors.announced', { url }));
      } else if (outcome.status === 403) node.warn(t('mcp-endpoint.errors.announceRefused', { url }));
      else node.warn(t('mcp-endpoint.errors.announceFailed', { url, reason: `${outcome.status} ${outcome.message}` }));
    },
    (err: unknown) => node.warn(t('mcp-endpoint.errors.announceFailed', { url, reason: errorMessage(err) })),
  );
  return async () => {
    if (closed) return;
    closed = true;
    await announced;
    if (uuid) await withdrawMcpServer(uuid, token).catch((err: unknown) => node.debug(`withdrawing the announcement: ${errorMessage(err)}`));
  };
}
