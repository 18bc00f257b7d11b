// The bearer an OAuth-signed-in server's transport sends (the SDK's minimal AuthProvider shape:
// token() before every request, onUnauthorized() after a 401, then one retry). The SDK refreshes
// only after a 401; we refresh shortly before expiry as well, so Home Assistant (30 min tokens,
// and failed calls count toward its IP ban) rarely sees an expired token. One refresh at a time:
// servers that rotate refresh tokens revoke the grant when an old one is reused. Every new token
// set goes to the store at once.
import { auth, type AuthProvider } from '@modelcontextprotocol/client';
import { McpNodeError, errorMessage } from '../../errors';
import { indieAuthRefresh, TokenEndpointError } from './indieauth';
import { SdkOAuthProvider } from './sdk-provider';
import { expiresAtFrom, sameServer, type OAuthState, type OAuthStateStore } from './state';

export interface OAuthTokenProviderOptions {
  serverUrl: string;
  store: OAuthStateStore;
  /** Configured client (standard servers); the stored state keeps the registered one. */
  clientId?: string;
  clientSecret?: string;
  /** Called after each refresh with the new expiry, for a debug line (never the token). */
  onRefreshed?: (why: 'expiry' | '401', expiresAt?: number) => void;
  now?: () => number;
}

const MAX_MARGIN_MS = 60_000;

export class OAuthTokenProvider implements AuthProvider {
  private refreshing?: Promise<void>;
  private readonly now: () => number;

  constructor(private readonly o: OAuthTokenProviderOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The stored sign-in, if it belongs to this server. */
  current(): OAuthState | undefined {
    const s = this.o.store.load();
    return s && sameServer(s.serverUrl, this.o.serverUrl) ? s : undefined;
  }

  async token(): Promise<string | undefined> {
    let s = this.signedIn();
    if (this.expiresSoon(s)) {
      await this.refresh('expiry');
      s = this.signedIn();
    }
    return s.tokens.access_token;
  }

  async onUnauthorized(): Promise<void> {
    await this.refresh('401');
  }

  private signedIn(): OAuthState {
    const s = this.current();
    if (!s) throw signInRequired(this.o.serverUrl, 'not signed in');
    return s;
  }

  /** Refresh within the last tenth of the lifetime, at most a minute early (HA: 1800 s tokens). */
  private expiresSoon(s: OAuthState): boolean {
    if (!s.expiresAt) return false;
    const margin = Math.min(MAX_MARGIN_MS, Math.max(0, (s.expiresAt - s.obtainedAt) / 10));
    return this.now() >= s.expiresAt - margin;
  }

  private refresh(why: 'expiry' | '401'): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = this.refreshOnce(why).finally(() => {
        this.refreshing = undefined;
      });
    }
    return this.refreshing;
  }

  private async refreshOnce(why: 'expiry' | '401'): Promise<void> {
    const s = this.signedIn();
    if (!s.tokens.refresh_token) {
      this.o.store.save(undefined);
      throw signInRequired(
        this.o.serverUrl,
        why === '401' ? 'the server refused the token and gave no refresh token' : 'the token expired and there is no refresh token',
      );
    }
    const next = s.kind === 'indieauth' ? await this.refreshIndieAuth(s) : await this.refreshWithSdk(s);
    this.o.store.save(next);
    this.o.onRefreshed?.(why, next.expiresAt);
  }

  private async refreshIndieAuth(s: OAuthState): Promise<OAuthState> {
    try {
      const tokens = await indieAuthRefresh(s.tokenEndpoint!, { refreshToken: s.tokens.refresh_token!, clientId: s.clientId! });
      const now = this.now();
      return { ...s, tokens, obtainedAt: now, expiresAt: expiresAtFrom(tokens.expires_in, now) };
    } catch (err) {
      if (
        err instanceof TokenEndpointError &&
        (err.oauthError === 'invalid_grant' || err.oauthError === 'invalid_client' || err.oauthError === 'access_denied')
      ) {
        // The grant is gone (revoked, or the user was removed): asking again would only add to HA's ban count.
        this.o.store.save(undefined);
        throw signInRequired(this.o.serverUrl, `the sign-in was revoked (${err.oauthError})`);
      }
      throw new McpNodeError(`${this.o.serverUrl}: token refresh failed: ${errorMessage(err)}`, 'token refresh failed', 'OAUTH_REFRESH');
    }
  }

  private async refreshWithSdk(s: OAuthState): Promise<OAuthState> {
    const provider = new SdkOAuthProvider({
      redirectUrl: s.redirectUrl,
      clientId: this.o.clientId,
      clientSecret: this.o.clientSecret,
      client: s.client,
      discovery: s.discovery,
      tokens: s.tokens,
    });
    let result: string;
    try {
      result = await auth(provider, { serverUrl: this.o.serverUrl });
    } catch (err) {
      throw new McpNodeError(`${this.o.serverUrl}: token refresh failed: ${errorMessage(err)}`, 'token refresh failed', 'OAUTH_REFRESH');
    }
    // auth() falls back to a new browser sign-in when the refresh fails; it drops the tokens
    // first only when the server refused the refresh token (invalid_grant): then the grant is gone.
    if (result !== 'AUTHORIZED' || !provider.savedTokens) {
      if (provider.savedTokens) throw new McpNodeError(`${this.o.serverUrl}: token refresh failed; will retry`, 'token refresh failed', 'OAUTH_REFRESH');
      this.o.store.save(undefined);
      throw signInRequired(this.o.serverUrl, 'the authorization server refused the refresh token');
    }
    const now = this.now();
    return {
      ...s,
      tokens: provider.savedTokens,
      obtainedAt: now,
      expiresAt: expiresAtFrom(provider.savedTokens.expires_in, now),
      client: provider.client ?? s.client,
      discovery: provider.discovery ?? s.discovery,
    };
  }
}

function signInRequired(serverUrl: string, why: string): McpNodeError {
  return new McpNodeError(
    `${serverUrl}: ${why}: open this mcp-server node in the editor and click Authorize to sign in`,
    'sign-in needed',
    'OAUTH_SIGN_IN_REQUIRED',
  );
}
