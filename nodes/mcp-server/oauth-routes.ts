// Admin routes for signing an mcp-server in with OAuth (docs/oauth.md):
//   POST /mcp-server/oauth/start        (mcp-server.write) {id, config, clientId?, clientSecret?, redirectUrl}
//                                       → {authorizationUrl, kind}; the editor opens it in a new tab
//   GET  /mcp-server/oauth/callback     where the authorization server sends the browser back. A
//                                       redirect carries no admin bearer, so no needsPermission: the
//                                       single-use `state` from /start is the guard
//   GET  /mcp-server/oauth/:id/status   (mcp-server.read) {signedIn, kind?, expiresAt?}; never a token
//   GET  /mcp-server/oauth/client-metadata.json
//                                       Node-RED's Client ID Metadata Document (src/mcp/oauth/client-metadata.ts):
//                                       fetched by an authorization server, so no needsPermission; it
//                                       holds only public facts (a name and the callback address)
import type { Response } from 'express';
import { errorMessage } from '../../src/errors';
import { CALLBACK_PATH, CLIENT_METADATA_PATH, clientMetadataDocument, clientMetadataUrlFor } from '../../src/mcp/oauth/client-metadata';
import { PendingSignIns } from '../../src/mcp/oauth/pending-sign-ins';
import { startSignIn } from '../../src/mcp/oauth/sign-in';
import { sameServer } from '../../src/mcp/oauth/state';
import { normalizeSettings } from '../../src/mcp/settings/settings';
import { oauthClientOf } from './oauth';
import { PASSWORD_PLACEHOLDER, SECRET_STAYS, serverDestination, storedSecretsMayGo } from '../shared/secret-destinations';
import { describeEndpoint } from '../../src/mcp/settings/settings';
import { oauthStateStore } from './oauth-store';
import type { RED } from '../shared/red-types';
import { getServerNode } from '../shared/server-config';
import { translator } from '../shared/i18n';
import { withOwnAddress } from '../shared/node-env';

export { CALLBACK_PATH };

export function registerOAuthRoutes(RED: RED): void {
  const pending = new PendingSignIns();
  const t = translator(RED, 'mcp-server');
  // The document URLs handed out, so the document names itself exactly as the sign-in did even
  // behind a TLS-terminating proxy (the request then arrives as plain http). Bounded: one per
  // address the editor was reached at.
  const metadataUrls = new Set<string>();

  RED.httpAdmin.post('/mcp-server/oauth/start', RED.auth.needsPermission('mcp-server.write'), async (req, res) => {
    const body = req.body ?? {};
    const id = typeof body.id === 'string' && body.id ? body.id : '';
    try {
      if (!id) throw new Error('id (the mcp-server config node) is required');
      const redirectUrl = callbackUrl(body.redirectUrl);
      const metadataUrl = clientMetadataUrlFor(redirectUrl);
      if (metadataUrl && metadataUrls.size < 32) metadataUrls.add(metadataUrl);
      const settings = normalizeSettings(withOwnAddress(RED, { ...(body.config ?? {}), id }));
      if (settings.transport !== 'http' && settings.transport !== 'sse') throw new Error('OAuth sign-in needs the http or sse transport and a URL');
      const client = oauthClientOf(RED, id, body);
      // A stored client secret goes only to the server the node was deployed with (as the Test
      // routes' stored secrets do): pointed at another server, Authorize needs the secret typed again.
      const typedSecret = typeof body.clientSecret === 'string' && body.clientSecret.trim() && body.clientSecret !== PASSWORD_PLACEHOLDER;
      if (client.clientSecret && !typedSecret && !storedSecretsMayGo(id, serverDestination(settings, describeEndpoint(settings)))) {
        throw new Error(SECRET_STAYS);
      }
      const started = await startSignIn({ serverUrl: settings.url!, redirectUrl, ...client });
      pending.add(id, started);
      res.json({ authorizationUrl: started.authorizationUrl, kind: started.kind });
    } catch (err) {
      res.status(400).json({ error: errorMessage(err) });
    }
  });

  RED.httpAdmin.get('/' + CALLBACK_PATH, async (req, res) => {
    const params = new URLSearchParams(req.query as Record<string, string>);
    const entry = pending.take(params.get('state'));
    if (!entry) return page(res, 400, t('mcp-server.oauth.page.unknownState'));
    try {
      const state = await entry.pending.finish(params);
      oauthStateStore(RED, entry.nodeId).save(state);
      // A deployed server starts using the new token now (its status turns green), not at its next retry.
      getServerNode(RED, entry.nodeId)
        ?.provider.listTools({ refresh: true })
        .catch(() => undefined);
      page(res, 200, t('mcp-server.oauth.page.signedIn'));
    } catch (err) {
      page(res, 400, t('mcp-server.oauth.page.failed', { error: errorMessage(err) }));
    }
  });

  RED.httpAdmin.get('/' + CLIENT_METADATA_PATH, (req, res) => {
    const host = String(req.headers.host ?? '');
    const path = String(req.originalUrl ?? req.url).split('?')[0];
    const issued = [...metadataUrls].find((u) => {
      const url = new URL(u);
      return url.host === host && url.pathname === path;
    });
    // Only https ids are ever handed out (CIMD requires them), so the fallback after a restart is https too.
    const clientId = issued ?? `https://${host}${path}`;
    res.set('Cache-Control', 'public, max-age=300').json(clientMetadataDocument(clientId));
  });

  RED.httpAdmin.get('/mcp-server/oauth/:id/status', RED.auth.needsPermission('mcp-server.read'), (req, res) => {
    const state = oauthStateStore(RED, String(req.params.id)).load();
    const url = typeof req.query.url === 'string' ? req.query.url : undefined;
    const signedIn = !!state && (!url || sameServer(state.serverUrl, url));
    res.json(signedIn ? { signedIn, kind: state!.kind, expiresAt: state!.expiresAt } : { signedIn: false });
  });
}

/** Only our own callback route, as the browser reaches Node-RED, may receive the code. */
function callbackUrl(v: unknown): string {
  const url = typeof v === 'string' ? new URL(v) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || !url.pathname.endsWith('/' + CALLBACK_PATH) || url.search || url.hash) {
    throw new Error(`redirectUrl must be this editor's …/${CALLBACK_PATH} address`);
  }
  return url.href;
}

function page(res: Response, status: number, text: string): void {
  const safe = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res
    .status(status)
    .set('Content-Type', 'text/html; charset=utf-8')
    .set('Cache-Control', 'no-store')
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>Node-RED MCP sign-in</title></head>` +
        `<body style="font-family:sans-serif;margin:3em"><p id="mcp-oauth-result">${safe}</p></body></html>`,
    );
}
