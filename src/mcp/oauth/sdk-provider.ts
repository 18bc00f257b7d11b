// The MCP SDK's OAuthClientProvider for one sign-in or one refresh of a standard server (RFC 9728
// discovery, RFC 8414/OpenID metadata, RFC 7591 registration, PKCE, RFC 8707 resource): the SDK's
// auth() runs the protocol, this object only holds what it hands over, in memory. Persisting is the
// caller's job (sign-in.ts at the callback, token-provider.ts after a refresh).
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

export interface SdkProviderSeed {
  redirectUrl: string;
  /** A client registered by hand with the authorization server (wins over registration). */
  clientId?: string;
  clientSecret?: string;
  /** This client's metadata document URL (./client-metadata.ts), when the server takes one as client id. */
  clientMetadataUrl?: string;
  /** The single-use `state` of this sign-in (the callback route checks it). */
  state?: string;
  client?: StoredOAuthClientInformation;
  discovery?: OAuthDiscoveryState;
  tokens?: StoredOAuthTokens;
}

export class SdkOAuthProvider implements OAuthClientProvider {
  client?: StoredOAuthClientInformation;
  discovery?: OAuthDiscoveryState;
  savedTokens?: StoredOAuthTokens;
  authorizationUrl?: URL;
  private verifier?: string;

  constructor(private readonly seed: SdkProviderSeed) {
    this.client = seed.client;
    this.discovery = seed.discovery;
    this.savedTokens = seed.tokens;
  }

  get redirectUrl(): string {
    return this.seed.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.seed.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Node-RED (node-red-contrib-mcp-gemini)',
      redirect_uris: [this.seed.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.seed.clientSecret ? 'client_secret_post' : 'none',
    };
  }

  state(): string {
    return this.seed.state ?? '';
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    if (this.seed.clientId) {
      const configured = { client_id: this.seed.clientId, ...(this.seed.clientSecret ? { client_secret: this.seed.clientSecret } : {}) };
      // Keep the SDK's issuer stamp once it added one, so it does not think the client moved.
      return this.client?.client_id === this.seed.clientId ? { ...this.client, ...configured } : configured;
    }
    return this.client;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.client = info;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.savedTokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    // A refresh that returns no new refresh token keeps the old one (RFC 6749 §6; HA does this).
    const refresh = tokens.refresh_token ?? this.savedTokens?.refresh_token;
    this.savedTokens = { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) };
  }

  redirectToAuthorization(url: URL): void {
    // Nothing opens here: the editor opens this URL in a new tab; at run time it means "sign in again".
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE verifier for this sign-in (start it again from the editor)');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.savedTokens = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}
