// An endpoint's own authorization server, so clients that speak only OAuth (Home Assistant's MCP
// integration, Claude's connectors, MCP Inspector) sign in instead of needing an open door. The
// protocol is oidc-provider's (a certified OpenID provider): dynamic client registration (RFC 7591;
// public clients offered first, secrets that never expire), the authorization code flow with PKCE
// S256 only, refresh tokens that rotate, resource indicators (RFC 8707) binding every access token to
// this one endpoint's URL, revocation. What is ours:
// - a person decides: the authorization page (./waiting-page.ts) grants nothing; the editor approves
//   or denies the request with the code the page shows (./client-approvals.ts), and a revoked client's
//   tokens stop at once;
// - the endpoint is reached under several names (127.0.0.1, the host name, the add-on's host): the
//   issuer and the resource follow the origin the client used, one provider per origin (bounded),
//   all sharing one store, and a token is only good at the origin it was issued for;
// - RFC 9728 resource metadata (`resource` = exactly the endpoint's URL) and RFC 8414 metadata at the
//   places clients look for them (./well-known.ts in the node folder mounts them).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientApprovals } from './client-approvals';
import { loadOidcProvider, type OidcProvider, type OidcProviderModule } from './oidc-provider-face';
import type { SignInStore } from './sign-in-store';
import { waitingPage } from './waiting-page';

export interface EndpointSignInOptions {
  /** The endpoint's path from the origin, Node-RED's httpNodeRoot included: "/mcp". */
  endpointPath: string;
  /** The endpoint's name, shown on the authorization page. */
  name: string;
  store: SignInStore;
  approvals: ClientApprovals;
  /** Keys that sign the authorization server's cookies (the browser's place in one sign-in). */
  cookieKeys: string[];
  /** The server's own signing keys (ID tokens), kept with the rest of its state: ./signing-keys.ts. */
  jwks: { keys: JsonWebKey[] };
  log?: (message: string) => void;
}

/** What a verified access token says about its caller (the SDK's AuthInfo fields). */
export interface SignedInCaller {
  token: string;
  clientId: string;
  scopes: string[];
  expiresAt: number;
}

const MAX_ORIGINS = 8;
const SCOPES = ['openid', 'offline_access', 'mcp'];
const ACCOUNT = 'node-red';
const ACCESS_TOKEN_SECONDS = 3600;
const DAY = 24 * 3600;

export class EndpointSignIn {
  /** Everything of the authorization server lives under this path. */
  readonly oauthPath: string;
  private readonly providers = new Map<string, Promise<OidcProvider>>();
  private module?: Promise<OidcProviderModule>;

  constructor(private readonly options: EndpointSignInOptions) {
    this.oauthPath = `${options.endpointPath.replace(/\/+$/, '')}/oauth`;
  }

  endpointUrl(origin: string): string {
    return origin + this.options.endpointPath;
  }

  issuer(origin: string): string {
    return origin + this.oauthPath;
  }

  /** Where RFC 9728 puts the endpoint's resource metadata: the origin's well-known path plus the endpoint's. */
  resourceMetadataPath(): string {
    return `/.well-known/oauth-protected-resource${this.options.endpointPath}`;
  }

  resourceMetadata(origin: string): Record<string, unknown> {
    return {
      resource: this.endpointUrl(origin),
      authorization_servers: [this.issuer(origin)],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
      resource_name: this.options.name,
    };
  }

  /** RFC 8414 and OpenID discovery paths for the issuer (path inserted after the well-known part). */
  metadataPaths(): string[] {
    return [`/.well-known/oauth-authorization-server${this.oauthPath}`, `/.well-known/openid-configuration${this.oauthPath}`];
  }

  /**
   * Serves one request of the authorization server: `path` is the request's path from the origin
   * (under oauthPath, or one of metadataPaths). The response is written here.
   */
  async serve(req: IncomingMessage, res: ServerResponse, origin: string, path: string): Promise<void> {
    const provider = await this.provider(origin);
    const query = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '';
    const inner = this.metadataPaths().includes(path) ? '/.well-known/openid-configuration' : path.slice(this.oauthPath.length) || '/';
    if (/^\/interaction\/[\w-]+$/.test(inner)) return this.interaction(provider, req, res, origin);
    // oidc-provider finds where it is mounted from originalUrl minus url (as Express sets them).
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = this.oauthPath + inner + query;
    req.url = inner + query;
    provider.callback()(req, res);
  }

  /** The caller an access token of this endpoint stands for, or undefined (unknown, expired, another origin's, revoked). */
  async verify(token: string, origin: string): Promise<SignedInCaller | undefined> {
    const provider = await this.provider(origin);
    const found = await provider.AccessToken.find(token);
    if (!found || found.isExpired) return undefined;
    const audience = Array.isArray(found.aud) ? found.aud : [found.aud];
    if (!audience.includes(this.endpointUrl(origin))) return undefined;
    if (!this.options.approvals.isApproved(found.clientId)) return undefined;
    this.options.approvals.used(found.clientId);
    return { token, clientId: found.clientId, scopes: found.scope ? found.scope.split(' ') : [], expiresAt: found.exp ?? Math.floor(Date.now() / 1000) + 60 };
  }

  /** The client's grants and tokens go at once, and it must be approved again to come back. */
  revoke(clientId: string): boolean {
    const had = this.options.approvals.revoke(clientId);
    this.options.store.forgetClient(clientId);
    return had;
  }

  private provider(origin: string): Promise<OidcProvider> {
    let made = this.providers.get(origin);
    if (!made) {
      if (this.providers.size >= MAX_ORIGINS) this.providers.delete(this.providers.keys().next().value!);
      made = this.make(origin);
      made.catch(() => this.providers.delete(origin));
      this.providers.set(origin, made);
    }
    return made;
  }

  private async make(origin: string): Promise<OidcProvider> {
    const { Provider, errors } = await (this.module ??= loadOidcProvider());
    const resource = this.endpointUrl(origin);
    const provider = new Provider(this.issuer(origin), {
      adapter: this.options.store.adapter(),
      clients: [],
      cookies: { keys: this.options.cookieKeys },
      scopes: SCOPES,
      // Home Assistant takes the first of none, client_secret_post, client_secret_basic that is listed.
      clientAuthMethods: ['none', 'client_secret_post', 'client_secret_basic'],
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true },
        revocation: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, indicator: string) => {
            if (indicator !== resource) throw new errors.InvalidTarget(`tokens of this server are for ${resource} only`);
            return { scope: 'mcp', audience: resource, accessTokenTTL: ACCESS_TOKEN_SECONDS, accessTokenFormat: 'opaque' };
          },
        },
      },
      pkce: { required: () => true },
      // Clients named by a Client ID Metadata Document are looked up by the store (./client-documents.ts).
      discovery: { client_id_metadata_document_supported: true },
      rotateRefreshToken: true,
      issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${this.oauthPath}/interaction/${interaction.uid}` },
      findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
      // A plain page in place of oidc-provider's default: what failed, in the server's own words.
      renderError: async (ctx: { type: string; body: string }, out: { error?: string; error_description?: string }) => {
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = `Sign-in failed: ${out.error ?? 'error'}${out.error_description ? `: ${out.error_description}` : ''}`;
      },
      jwks: this.options.jwks,
      ttl: { AccessToken: ACCESS_TOKEN_SECONDS, AuthorizationCode: 60, Interaction: 600, Session: DAY, Grant: 90 * DAY, RefreshToken: 30 * DAY },
    });
    // Behind the add-on's ingress or a TLS proxy the client's scheme comes in X-Forwarded-Proto.
    provider.proxy = true;
    provider.on('server_error', (_ctx, err) => this.options.log?.(`sign-in: ${(err as Error).message}`));
    return provider;
  }

  private async interaction(provider: OidcProvider, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
    const approvals = this.options.approvals;
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return plain(res, 400, 'This sign-in has expired or was opened in another browser: start it again from the client.');
    }
    const clientId = String(details.params.client_id ?? '');
    const client = await provider.Client.find(clientId);
    if (!client) return plain(res, 400, 'The client of this sign-in is no longer registered: start it again from the client.');
    const decision = approvals.decision(details.uid);
    if (!decision) {
      const pending = approvals.ask(details.uid, clientId, client.clientName ?? '', String(details.params.redirect_uri ?? ''));
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY' });
      res.end(waitingPage({ endpoint: this.options.name, client: pending.name, redirectHost: pending.redirectHost, code: pending.code }));
      return;
    }
    approvals.settle(details.uid);
    if (decision === 'denied') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'A person denied this client in Node-RED.' },
        { mergeWithLastSubmission: false },
      );
    }
    const grant = new provider.Grant({ accountId: ACCOUNT, clientId });
    const asked = String(details.params.scope ?? '').split(' ');
    // What the client asked for, as far as this server knows it (oidc-provider counts every scope it
    // offers as an OpenID scope of the grant, and the resource's scope separately).
    const oidcScopes = asked.filter((s) => SCOPES.includes(s));
    if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(' '));
    grant.addResourceScope(this.endpointUrl(origin), 'mcp');
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId: ACCOUNT }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}
