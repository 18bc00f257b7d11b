// One interactive sign-in, started from the editor's Authorize button and finished by the browser's
// redirect to our callback route. Discovery follows the MCP authorization spec through the SDK
// (RFC 9728 protected resource metadata, then RFC 8414 / OpenID configuration). Then:
// - a configured client id, or an authorization server that offers registration (RFC 7591), or one
//   that takes a Client ID Metadata Document with PKCE while the editor is on https
//   (./client-metadata.ts): the SDK's auth() does registration or CIMD, PKCE, the resource
//   indicator and the code exchange;
// - neither (Home Assistant, before and since 2026.9): IndieAuth, with the client id = the base URL
//   of the redirect URI (Node-RED's own URL), so the redirect is on the client id's origin and
//   Home Assistant accepts it without fetching anything.
import { randomBytes } from 'node:crypto';
import { auth, discoverOAuthServerInfo, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { McpNodeError, errorMessage } from '../../errors';
import { clientMetadataUrlFor } from './client-metadata';
import { indieAuthAuthorizationUrl, indieAuthClientId, indieAuthExchangeCode } from './indieauth';
import { metadataCompletingFetch } from './lenient-metadata';
import { SdkOAuthProvider } from './sdk-provider';
import { expiresAtFrom, type OAuthState, type SignInKind } from './state';

export interface SignInRequest {
  serverUrl: string;
  /** Our callback route as the browser reaches it, e.g. http://host:1880/mcp-server/oauth/callback */
  redirectUrl: string;
  clientId?: string;
  clientSecret?: string;
}

export interface PendingSignIn {
  state: string;
  kind: SignInKind;
  authorizationUrl: string;
  /** Exchanges the callback's code; rejects with a message a person can act on. */
  finish(callback: URLSearchParams): Promise<OAuthState>;
}

export async function startSignIn(req: SignInRequest): Promise<PendingSignIn> {
  const state = randomBytes(24).toString('base64url');
  let discovery: OAuthDiscoveryState;
  try {
    // Home Assistant 2026.9+ metadata has relative endpoints and no issuer (./lenient-metadata.ts).
    discovery = await discoverOAuthServerInfo(req.serverUrl, { fetchFn: metadataCompletingFetch() });
  } catch (err) {
    throw new McpNodeError(
      `${req.serverUrl}: no OAuth authorization server found (${errorMessage(err)}); use auth "token" if this server takes a fixed token`,
      'no OAuth metadata',
      'OAUTH_DISCOVERY',
    );
  }
  const meta = discovery.authorizationServerMetadata;
  if (!meta) throw new McpNodeError(`${req.serverUrl}: the authorization server publishes no metadata`, 'no OAuth metadata', 'OAUTH_DISCOVERY');
  // CIMD needs an https document URL and, like all of MCP's OAuth, PKCE. Home Assistant advertises
  // CIMD but no PKCE, and accepts IndieAuth's origin-only client id, so it stays on IndieAuth.
  const metadataUrl = clientMetadataUrlFor(req.redirectUrl);
  const cimdWithPkce = meta.client_id_metadata_document_supported === true && (meta.code_challenge_methods_supported ?? []).includes('S256');
  const clientMetadataUrl = !req.clientId && cimdWithPkce ? metadataUrl : undefined;
  const useIndieAuth = !req.clientId && !meta.registration_endpoint && !clientMetadataUrl;
  if (useIndieAuth && cimdWithPkce) {
    // Such a server names clients by metadata documents and cannot take IndieAuth's origin-only id;
    // the document needs an https address, which a plain-http editor does not have.
    throw new McpNodeError(
      `${req.serverUrl}: the authorization server identifies clients by a Client ID Metadata Document, which must be served over https: ` +
        'open the editor through https (or enter a client id registered with the server) and click Authorize again',
      'needs https editor',
      'OAUTH_CIMD_HTTPS',
    );
  }
  return useIndieAuth ? startIndieAuth(req, state, discovery) : startSdkSignIn(req, state, discovery, clientMetadataUrl);
}

async function startSdkSignIn(req: SignInRequest, state: string, discovery: OAuthDiscoveryState, clientMetadataUrl?: string): Promise<PendingSignIn> {
  const provider = new SdkOAuthProvider({
    redirectUrl: req.redirectUrl,
    clientId: req.clientId,
    clientSecret: req.clientSecret,
    clientMetadataUrl,
    state,
    discovery,
  });
  const result = await auth(provider, { serverUrl: req.serverUrl });
  if (result !== 'REDIRECT' || !provider.authorizationUrl) {
    throw new McpNodeError(`${req.serverUrl}: the authorization server gave no sign-in page`, 'no sign-in page', 'OAUTH_START');
  }
  return {
    state,
    kind: 'oauth',
    authorizationUrl: provider.authorizationUrl.href,
    async finish(callback) {
      const code = codeOf(callback);
      const done = await auth(provider, { serverUrl: req.serverUrl, authorizationCode: code, iss: callback.get('iss') ?? undefined });
      if (done !== 'AUTHORIZED' || !provider.savedTokens) throw new McpNodeError('the authorization server issued no token', 'no token', 'OAUTH_EXCHANGE');
      const now = Date.now();
      return {
        kind: 'oauth',
        serverUrl: req.serverUrl,
        redirectUrl: req.redirectUrl,
        tokens: provider.savedTokens,
        obtainedAt: now,
        expiresAt: expiresAtFrom(provider.savedTokens.expires_in, now),
        client: provider.client,
        discovery: provider.discovery,
      };
    },
  };
}

async function startIndieAuth(req: SignInRequest, state: string, discovery: OAuthDiscoveryState): Promise<PendingSignIn> {
  const meta = discovery.authorizationServerMetadata!;
  const clientId = indieAuthClientId(req.redirectUrl);
  const tokenEndpoint = String(meta.token_endpoint);
  return {
    state,
    kind: 'indieauth',
    authorizationUrl: indieAuthAuthorizationUrl(String(meta.authorization_endpoint), { clientId, redirectUrl: req.redirectUrl, state }).href,
    async finish(callback) {
      const tokens = await indieAuthExchangeCode(tokenEndpoint, { code: codeOf(callback), clientId, redirectUrl: req.redirectUrl });
      const now = Date.now();
      return {
        kind: 'indieauth',
        serverUrl: req.serverUrl,
        redirectUrl: req.redirectUrl,
        tokens,
        obtainedAt: now,
        expiresAt: expiresAtFrom(tokens.expires_in, now),
        clientId,
        tokenEndpoint,
      };
    },
  };
}

function codeOf(callback: URLSearchParams): string {
  const error = callback.get('error');
  if (error) {
    const why = callback.get('error_description');
    throw new McpNodeError(`the authorization server refused the sign-in: ${error}${why ? ` (${why})` : ''}`, error, 'OAUTH_REFUSED');
  }
  const code = callback.get('code');
  if (!code) throw new McpNodeError('the sign-in came back without a code', 'no code', 'OAUTH_EXCHANGE');
  return code;
}
