// Home Assistant's sign-in: IndieAuth (https://indieauth.spec.indieweb.org/) as HA implements it.
// No registration and no PKCE; the client id is the base URL of the redirect URI; the token
// endpoint takes form POSTs (grant_type=authorization_code|refresh_token, client_id). A refresh
// returns no new refresh token. Done here rather than by the SDK's auth(), which refuses a plain-HTTP
// token endpoint off loopback, and a LAN Home Assistant is usually http://homeassistant.local:8123.
import { McpNodeError } from '../../errors';
import type { OAuthTokenSet } from './state';

type FetchLike = typeof fetch;

/** `http://host:1880/` for a redirect URI `http://host:1880/mcp-server/oauth/callback`. */
export function indieAuthClientId(redirectUrl: string): string {
  return new URL('/', redirectUrl).href;
}

export function indieAuthAuthorizationUrl(authorizationEndpoint: string, o: { clientId: string; redirectUrl: string; state: string }): URL {
  const url = new URL(authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', o.clientId);
  url.searchParams.set('redirect_uri', o.redirectUrl);
  url.searchParams.set('state', o.state);
  return url;
}

export async function indieAuthExchangeCode(
  tokenEndpoint: string,
  o: { code: string; clientId: string; redirectUrl: string },
  fetchFn: FetchLike = fetch,
): Promise<OAuthTokenSet> {
  return postTokenForm(tokenEndpoint, { grant_type: 'authorization_code', code: o.code, client_id: o.clientId, redirect_uri: o.redirectUrl }, fetchFn);
}

export async function indieAuthRefresh(
  tokenEndpoint: string,
  o: { refreshToken: string; clientId: string },
  fetchFn: FetchLike = fetch,
): Promise<OAuthTokenSet> {
  const tokens = await postTokenForm(tokenEndpoint, { grant_type: 'refresh_token', refresh_token: o.refreshToken, client_id: o.clientId }, fetchFn);
  return { ...tokens, refresh_token: tokens.refresh_token ?? o.refreshToken };
}

/** A token endpoint's OAuth error (`invalid_grant` means the grant is gone: sign in again). */
export class TokenEndpointError extends McpNodeError {
  constructor(
    readonly oauthError: string,
    description: string | undefined,
    httpStatus: number,
  ) {
    super(`token endpoint answered ${httpStatus} ${oauthError}${description ? `: ${description}` : ''}`, oauthError, 'OAUTH_TOKEN_ERROR', {
      status: httpStatus,
    });
  }
}

async function postTokenForm(tokenEndpoint: string, fields: Record<string, string>, fetchFn: FetchLike): Promise<OAuthTokenSet> {
  const res = await fetchFn(tokenEndpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    /* HA answers some errors as text */
  }
  if (!res.ok) {
    const error = typeof body.error === 'string' ? body.error : `http_${res.status}`;
    const description = typeof body.error_description === 'string' ? body.error_description : undefined;
    throw new TokenEndpointError(error, description, res.status);
  }
  if (typeof body.access_token !== 'string' || !body.access_token) {
    throw new McpNodeError(`token endpoint ${tokenEndpoint} answered without an access_token`, 'bad token answer', 'OAUTH_TOKEN_ERROR');
  }
  return {
    access_token: body.access_token,
    token_type: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
    refresh_token: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
    expires_in: typeof body.expires_in === 'number' ? body.expires_in : undefined,
  };
}
