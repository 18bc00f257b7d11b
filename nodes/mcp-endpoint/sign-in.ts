// Sign-in on an mcp-endpoint (src/server/oauth/): its authorization server mounted under
// `<path>/oauth`, the RFC 9728 and RFC 8414 documents where clients look for them, and what it keeps
// sealed in the user directory. The dialog's admin routes (./clients-routes.ts) approve, deny and
// revoke through `signIns`.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ClientApprovals, type ApprovalsState } from '../../src/server/oauth/client-approvals';
import { EndpointSignIn } from '../../src/server/oauth/endpoint-sign-in';
import { sealedFile } from '../../src/server/oauth/sealed-file';
import { newSigningKeys } from '../../src/server/oauth/signing-keys';
import { documentClients } from '../../src/server/oauth/client-documents';
import { SignInStore, type StoreSnapshot } from '../../src/server/oauth/sign-in-store';
import type { OAuthGate } from '../../src/server/http/access';
import { requestOrigin } from '../../src/server/http/request-origin';
import { serveEndpointPath } from '../../src/server/http/endpoint-paths';
import { errorMessage } from '../../src/errors';
import { fullPath } from './http-node-routes';
import type { Node, RED } from '../shared/red-types';

export interface AttachedSignIn {
  signIn: EndpointSignIn;
  approvals: ClientApprovals;
  gate: OAuthGate;
  close(): void;
}

/** Every deployed endpoint with sign-in, by node id, for the admin routes. */
export const signIns = new Map<string, AttachedSignIn>();

interface Sealed {
  jwks?: { keys: JsonWebKey[] };
  store?: StoreSnapshot;
  approvals?: ApprovalsState;
}

export function attachSignIn(RED: RED, node: Node, settings: { path: string; name: string }): AttachedSignIn {
  const endpointPath = fullPath(RED, settings.path);
  const secret = sealingSecret(RED);
  const file = RED.settings.userDir ? sealedFile<Sealed>(join(String(RED.settings.userDir), `mcp-endpoint-${node.id}-sign-in.json`), secret) : undefined;
  let sealed: Sealed = {};
  try {
    sealed = file?.read() ?? {};
  } catch (err) {
    node.warn(`sign-in: the stored clients could not be read (${errorMessage(err)}); clients must be approved again`);
  }
  const save = (part: Partial<Sealed>) => {
    sealed = { ...sealed, ...part };
    try {
      file?.write(sealed);
    } catch (err) {
      node.warn(`sign-in: could not store the signed-in clients: ${errorMessage(err)}`);
    }
  };
  if (!sealed.jwks) save({ jwks: newSigningKeys() });
  const store = new SignInStore(
    sealed.store,
    (snapshot) => save({ store: snapshot }),
    Date.now,
    documentClients((m) => node.warn(m)),
  );
  const approvals = new ClientApprovals(sealed.approvals, (state) => save({ approvals: state }));
  const cookieKey = createHash('sha256').update(`${secret}:cookies:${node.id}`).digest('base64url');
  const signIn = new EndpointSignIn({
    endpointPath,
    name: settings.name,
    store,
    approvals,
    cookieKeys: [cookieKey],
    jwks: sealed.jwks!,
    log: (m) => node.debug(m),
  });

  const serve = (path: string) => (req: IncomingMessage, res: ServerResponse) => {
    signIn.serve(req, res, requestOrigin(req), path).catch((err: unknown) => {
      node.debug(`sign-in: ${errorMessage(err)}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('sign-in failed');
    });
  };
  const routes: Array<[string, (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => void]> = [];
  // Everything under <path>/oauth; Express strips the mount, the engine wants the full path.
  const underOauth = (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => {
    const full = (req.originalUrl ?? req.url ?? '').split('?')[0];
    serve(full)(req, res);
  };
  const oauthMount = `${settings.path.replace(/\/+$/, '')}/oauth`;
  RED.httpNode.use(oauthMount, underOauth);
  // The authorization server reads its own bodies (at most 56 KB): with skip-editor-parsing in
  // settings.js, the editor's parsers leave its POSTs alone, as they leave the endpoint's.
  const releases = ['token', 'reg', 'token/revocation', 'auth'].map((p) => serveEndpointPath(`${signIn.oauthPath}/${p}`, `${settings.name} sign-in`));
  // The well-known documents stand at the origin's root: served by httpNode when it is there, else by
  // the admin app when that is (the Home Assistant app: flows under /endpoint, the editor at /).
  const isRoot = (root: unknown) => (typeof root === 'string' ? root : '/').replace(/\/+$/, '') === '';
  const rootApp = isRoot(RED.settings.httpNodeRoot) ? RED.httpNode : isRoot(RED.settings.httpAdminRoot) ? RED.httpAdmin : undefined;
  const atRoot = !!rootApp;
  const metadata = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' });
    res.end(JSON.stringify(signIn.resourceMetadata(requestOrigin(req))));
  };
  // Always also under the endpoint itself, which the 401 challenge names when the root is not ours.
  const ownMetadataPath = `${settings.path.replace(/\/+$/, '')}/.well-known/oauth-protected-resource`;
  RED.httpNode.get(ownMetadataPath, metadata);
  routes.push([ownMetadataPath, metadata]);
  const rootRoutes: typeof routes = [];
  if (rootApp) {
    rootRoutes.push([signIn.resourceMetadataPath(), metadata]);
    for (const path of signIn.metadataPaths()) rootRoutes.push([path, (req, res) => serve(path)(req, res)]);
    for (const [path, handler] of rootRoutes) rootApp.get(path, handler);
  }

  const gate: OAuthGate = {
    verify: (token, origin) => signIn.verify(token, origin),
    metadataUrl: (origin) => origin + (atRoot ? signIn.resourceMetadataPath() : fullPath(RED, ownMetadataPath)),
  };
  const attached: AttachedSignIn = {
    signIn,
    approvals,
    gate,
    close() {
      signIns.delete(node.id);
      store.close();
      for (const release of releases) release();
      const handlers = new Set<unknown>([underOauth, ...routes.map(([, h]) => h), ...rootRoutes.map(([, h]) => h)]);
      for (const app of [RED.httpNode, RED.httpAdmin]) {
        const router: { stack?: Array<{ handle?: unknown; route?: { stack: Array<{ handle: unknown }> } }> } | undefined = app?._router;
        if (router?.stack) router.stack = router.stack.filter((l) => !handlers.has(l.handle) && !l.route?.stack.some((s) => handlers.has(s.handle)));
      }
    },
  };
  signIns.set(node.id, attached);
  return attached;
}

/**
 * What seals the sign-in file: Node-RED's credentialSecret when settings.js sets one, else a key
 * this package keeps beside it in the user directory (made once, readable by its owner only).
 */
function sealingSecret(RED: RED): string {
  const configured = (RED.settings as { credentialSecret?: unknown }).credentialSecret;
  if (typeof configured === 'string' && configured) return configured;
  const dir = RED.settings.userDir ? String(RED.settings.userDir) : undefined;
  if (!dir) return randomBytes(32).toString('base64url'); // no user directory: nothing is stored either
  const keyFile = join(dir, 'mcp-endpoint-sign-in.key');
  if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return readFileSync(keyFile, 'utf8').trim();
}
