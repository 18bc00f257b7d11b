// What a signed-in mcp-server keeps between restarts: the tokens and what is needed to refresh
// them without the browser (the way we signed in, the client id, the SDK's discovery result).
// Stored as one JSON credential of the config node; never sent to the editor, a flow or a log.
import type { OAuthDiscoveryState, StoredOAuthClientInformation } from '@modelcontextprotocol/client';

export type SignInKind = 'oauth' | 'indieauth';

export interface OAuthTokenSet {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  scope?: string;
  /** Lifetime the server gave, seconds (kept so the SDK sees its own shape). */
  expires_in?: number;
  /** Resolved authorization server, stamped by the SDK (SEP-2352). */
  issuer?: string;
}

export interface OAuthState {
  kind: SignInKind;
  /** The MCP URL these tokens were issued for: a changed URL means "sign in again". */
  serverUrl: string;
  tokens: OAuthTokenSet;
  /** Epoch ms when the access token stops working (absent: the server did not say). */
  expiresAt?: number;
  /** Epoch ms of the last token answer. */
  obtainedAt: number;
  /** The redirect URI used at sign-in (refreshes must present the same client). */
  redirectUrl: string;
  /** Standard servers: the registered (DCR) or configured client, and the SDK's discovery. */
  client?: StoredOAuthClientInformation;
  discovery?: OAuthDiscoveryState;
  /** IndieAuth: the client id (the base URL of the redirect URI) and the token endpoint. */
  clientId?: string;
  tokenEndpoint?: string;
}

/** Where a config node keeps its OAuthState; the node adapter backs it with credentials + a file. */
export interface OAuthStateStore {
  load(): OAuthState | undefined;
  save(state: OAuthState | undefined): void;
}

export function expiresAtFrom(expiresIn: unknown, now = Date.now()): number | undefined {
  const seconds = Number(expiresIn);
  return Number.isFinite(seconds) && seconds > 0 ? now + seconds * 1000 : undefined;
}

export function parseState(text: unknown): OAuthState | undefined {
  if (typeof text !== 'string' || !text) return undefined;
  try {
    const s = JSON.parse(text) as OAuthState;
    return s && typeof s === 'object' && s.tokens && typeof s.tokens.access_token === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

/** Same MCP endpoint, ignoring a trailing slash. */
export function sameServer(a: string | undefined, b: string | undefined): boolean {
  const norm = (u?: string) => (u ?? '').trim().replace(/\/+$/, '');
  return !!a && norm(a) === norm(b);
}
