// The MCP SDK's OAuthClientProvider kept in memory, as a client application keeps it: what the
// SDK registered, the tokens, the PKCE verifier, and where it sent the browser. The sign-in specs
// drive the SDK's own OAuth (discovery, registration, PKCE, refresh) through it.
import type { OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

export class MemoryClientProvider implements OAuthClientProvider {
  constructor(
    public redirect: string,
    private readonly name: string,
    /** Set: the client is named by its metadata document at this https URL instead of registering. */
    readonly clientMetadataUrl?: string,
  ) {}
  info?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  discovery?: OAuthDiscoveryState;
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}
