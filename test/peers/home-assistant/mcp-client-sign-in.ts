// Home Assistant 2026.10's MCP integration as a client that signs in, replayed step by step from
// fixtures/home-assistant/2026.10/mcp-client-oauth.md (its notes on config_flow.py and
// registration.py): the 401's resource_metadata, the protected resource metadata it accepts only
// when `resource` is exactly the URL typed, the three metadata places it tries for an issuer with a
// path, registration with its own body and its own checks of the answer, then authorize with PKCE
// S256, access_type=offline and prompt=consent. The person in between is the caller's `browse`.
import { createHash, randomBytes } from 'node:crypto';

export const HA_CALLBACK = 'https://my.home-assistant.io/redirect/oauth';

export interface HaSignIn {
  clientId: string;
  registration: Record<string, unknown>;
  tokens: { access_token: string; refresh_token?: string; expires_in?: number };
  /** What Home Assistant does 30 minutes on, or after a 401: the refresh grant. */
  refresh(): Promise<{ access_token: string; refresh_token?: string }>;
}

export async function homeAssistantSignIn(mcpUrl: string, browse: (authorizeUrl: string) => Promise<URL>): Promise<HaSignIn> {
  const first = await fetch(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{}',
  });
  if (first.status !== 401) throw new Error(`expected 401, got ${first.status}`);
  const challenge = first.headers.get('www-authenticate') ?? '';
  const origin = new URL(mcpUrl).origin;
  const candidates = [
    /resource_metadata="([^"]+)"/.exec(challenge)?.[1],
    `${origin}/.well-known/oauth-protected-resource${new URL(mcpUrl).pathname}`,
    `${origin}/.well-known/oauth-protected-resource`,
  ].filter((u): u is string => !!u);
  let resource: { resource?: string; authorization_servers?: string[] } | undefined;
  for (const url of candidates) {
    const r = await fetch(url);
    if (!r.ok) continue;
    const doc = (await r.json()) as typeof resource;
    if (doc?.resource === mcpUrl && Array.isArray(doc.authorization_servers) && doc.authorization_servers.length) {
      resource = doc;
      break;
    }
  }
  if (!resource) throw new Error('no protected resource metadata whose resource is exactly the MCP URL');
  const issuer = new URL(resource.authorization_servers![0]);
  const path = issuer.pathname.replace(/\/$/, '');
  const places = path
    ? [
        `${issuer.origin}/.well-known/oauth-authorization-server${path}`,
        `${issuer.origin}/.well-known/openid-configuration${path}`,
        `${issuer.href.replace(/\/$/, '')}/.well-known/openid-configuration`,
      ]
    : [`${issuer.origin}/.well-known/oauth-authorization-server`, `${issuer.origin}/.well-known/openid-configuration`];
  // fetched concurrently, first success wins
  const meta = await Promise.any(
    places.map(async (u) => {
      const r = await fetch(u);
      if (!r.ok) throw new Error(`${u}: ${r.status}`);
      return (await r.json()) as Record<string, unknown>;
    }),
  );
  const abs = (v: unknown) => new URL(String(v), issuer.origin).href;
  const scopes = (meta.scopes_supported as string[] | undefined) ?? [];
  if (!meta.registration_endpoint) throw new Error('no registration_endpoint: Home Assistant would ask for application credentials');
  const offered = meta.token_endpoint_auth_methods_supported as string[] | undefined;
  const method = !offered ? 'client_secret_basic' : ['none', 'client_secret_post', 'client_secret_basic'].find((m) => offered.includes(m));
  if (!method) throw new Error('no auth method Home Assistant takes');
  const reg = await fetch(abs(meta.registration_endpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      redirect_uris: [HA_CALLBACK],
      token_endpoint_auth_method: method,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'Home Assistant',
      ...(scopes.length ? { scope: scopes.join(' ') } : {}),
      application_type: 'web',
    }),
  });
  const registration = (await reg.json()) as Record<string, unknown>;
  if (reg.status !== 200 && reg.status !== 201) throw new Error(`registration refused: ${reg.status} ${JSON.stringify(registration)}`);
  if (typeof registration.client_id !== 'string' || !registration.client_id) throw new Error('registration without client_id');
  if (Array.isArray(registration.redirect_uris) && !registration.redirect_uris.includes(HA_CALLBACK)) throw new Error('registration dropped the callback');
  if (typeof registration.scope === 'string') {
    const granted = registration.scope.split(' ');
    if (!scopes.every((s) => granted.includes(s))) throw new Error(`registration scope ${registration.scope} does not cover ${scopes.join(' ')}`);
  }
  const usedMethod = (registration.token_endpoint_auth_method as string | undefined) ?? method;
  if (!['none', 'client_secret_post', 'client_secret_basic'].includes(usedMethod)) throw new Error(`auth method ${usedMethod}`);
  if (usedMethod !== 'none' && !registration.client_secret) throw new Error('confidential client without a secret');
  if (registration.client_secret_expires_at !== undefined && registration.client_secret_expires_at !== 0) throw new Error('oauth_secret_expires');
  const clientId = registration.client_id;
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const authorize = new URL(abs(meta.authorization_endpoint));
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: HA_CALLBACK,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    access_type: 'offline',
    prompt: 'consent',
    ...(scopes.length ? { scope: scopes.join(' ') } : {}),
  }))
    authorize.searchParams.set(k, v);
  const back = await browse(authorize.href);
  if (back.searchParams.get('state') !== state) throw new Error(`state mismatch: ${back.href}`);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code: ${back.href}`);
  const token = async (params: Record<string, string>) => {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const body = new URLSearchParams({ ...params, client_id: clientId });
    if (usedMethod === 'client_secret_basic') headers.authorization = `Basic ${Buffer.from(`${clientId}:${registration.client_secret}`).toString('base64')}`;
    if (usedMethod === 'client_secret_post') body.set('client_secret', String(registration.client_secret));
    const r = await fetch(abs(meta.token_endpoint), { method: 'POST', headers, body });
    const json = (await r.json()) as Record<string, unknown>;
    if (!r.ok) throw new Error(`token endpoint: ${r.status} ${JSON.stringify(json)}`);
    return json as HaSignIn['tokens'];
  };
  let tokens = await token({ grant_type: 'authorization_code', code, redirect_uri: HA_CALLBACK, code_verifier: verifier });
  return {
    clientId,
    registration,
    get tokens() {
      return tokens;
    },
    async refresh() {
      tokens = await token({ grant_type: 'refresh_token', refresh_token: String(tokens.refresh_token) });
      return tokens;
    },
  };
}
