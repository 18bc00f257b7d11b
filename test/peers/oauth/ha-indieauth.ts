// Home Assistant's sign-in for the HA stand-in, written from HA's auth API documentation
// (developers.home-assistant docs/auth_api.md) and its code as reference home-assistant-mcp.md and
// mcp-oauth-and-server.md §3 describe it: RFC 8414 metadata without PKCE or registration,
// `/auth/authorize` (a login page here; a redirect_uri must share scheme, host and port with the
// client_id), `/auth/token` form POSTs (authorization_code: single-use codes bound to the client_id,
// 10 minutes; refresh_token: a new access token and no new refresh token), `/auth/revoke` (always
// 200). Access tokens live `accessTokenTtl` seconds (HA: 1800). Every token request is recorded.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const HA_USER = { username: 'homeowner', password: 'correct horse' };

interface Grant {
  clientId: string;
  refreshToken: string;
  revoked: boolean;
}

export interface TokenRequestRecord {
  grant_type: string;
  client_id: string;
  status: number;
}

export class HaIndieAuth {
  readonly tokenRequests: TokenRequestRecord[] = [];
  private readonly codes = new Map<string, { clientId: string; expires: number }>();
  private readonly grants = new Map<string, Grant>(); // by refresh token
  private readonly access = new Map<string, { grant: Grant; expires: number }>();

  /**
   * `relativeMetadata`: the metadata as Home Assistant 2026.9+ serves it (core issue #181505):
   * endpoints as paths relative to the base URL, no `issuer`, still no registration or PKCE.
   */
  constructor(private readonly o: { accessTokenTtl?: number; relativeMetadata?: boolean } = {}) {}

  private get ttl(): number {
    return this.o.accessTokenTtl ?? 1800;
  }

  /** True when `authorization` is `Bearer <a live access token of a live grant>`. */
  accepts(authorization: string | undefined): boolean {
    const m = /^Bearer (\S+)$/.exec(authorization ?? '');
    const at = m ? this.access.get(m[1]) : undefined;
    return !!at && !at.grant.revoked && at.expires > Date.now();
  }

  /** Every access and refresh token issued so far (a test proves none leaks). */
  issuedTokens(): string[] {
    return [...this.access.keys(), ...this.grants.keys()];
  }

  /** Test control: every access token issued so far stops working (as after 30 minutes). */
  expireAccessTokens(): void {
    for (const at of this.access.values()) at.expires = 0;
  }

  /** Test control: the user removed the refresh token in their HA profile. */
  revokeAll(): void {
    for (const g of this.grants.values()) g.revoked = true;
  }

  /** Serves HA's auth routes; false when `path` is not one of them. */
  route(req: IncomingMessage, res: ServerResponse, body: string, origin: string): boolean {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    if (path === '/.well-known/oauth-authorization-server' && req.method === 'GET') {
      const at = this.o.relativeMetadata ? '' : origin;
      json(res, 200, {
        ...(this.o.relativeMetadata ? {} : { issuer: origin }),
        authorization_endpoint: `${at}/auth/authorize`,
        token_endpoint: `${at}/auth/token`,
        revocation_endpoint: `${at}/auth/revoke`,
        response_types_supported: ['code'],
        service_documentation: 'https://developers.home-assistant.io/docs/auth_api',
        client_id_metadata_document_supported: true,
      });
      return true;
    }
    if (path === '/auth/authorize' && req.method === 'GET') {
      const clientId = url.searchParams.get('client_id') ?? '';
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      if (!validRedirect(clientId, redirectUri)) {
        text(res, 400, 'Invalid redirect URI');
        return true;
      }
      const hidden = ['client_id', 'redirect_uri', 'state']
        .map((k) => `<input type="hidden" name="${k}" value="${esc(url.searchParams.get(k) ?? '')}">`)
        .join('');
      text(
        res,
        200,
        `<!doctype html><title>Home Assistant</title><form method="post" action="/auth/login">${hidden}` +
          `<input name="username" placeholder="Username"><input name="password" type="password" placeholder="Password">` +
          `<button type="submit" id="ha-login">Log in</button></form>`,
        'text/html',
      );
      return true;
    }
    if (path === '/auth/login' && req.method === 'POST') {
      const f = new URLSearchParams(body);
      const clientId = f.get('client_id') ?? '';
      const redirectUri = f.get('redirect_uri') ?? '';
      if (!validRedirect(clientId, redirectUri)) return (text(res, 400, 'Invalid redirect URI'), true);
      if (f.get('username') !== HA_USER.username || f.get('password') !== HA_USER.password) {
        return (text(res, 403, 'Invalid username or password'), true);
      }
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, { clientId, expires: Date.now() + 10 * 60_000 });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      if (f.get('state')) back.searchParams.set('state', f.get('state')!);
      res.writeHead(302, { Location: back.href });
      res.end();
      return true;
    }
    if (path === '/auth/token' && req.method === 'POST') {
      this.token(res, new URLSearchParams(body));
      return true;
    }
    if (path === '/auth/revoke' && req.method === 'POST') {
      const g = this.grants.get(new URLSearchParams(body).get('token') ?? '');
      if (g) g.revoked = true;
      res.writeHead(200);
      res.end();
      return true;
    }
    return false;
  }

  private token(res: ServerResponse, f: URLSearchParams): void {
    const grantType = f.get('grant_type') ?? '';
    const clientId = f.get('client_id') ?? '';
    const answer = (status: number, body: object) => {
      this.tokenRequests.push({ grant_type: grantType, client_id: clientId, status });
      json(res, status, body, { 'Cache-Control': 'no-store' });
    };
    if (grantType === 'authorization_code') {
      const code = this.codes.get(f.get('code') ?? '');
      this.codes.delete(f.get('code') ?? '');
      if (!code || code.expires < Date.now() || code.clientId !== clientId) {
        return answer(400, { error: 'invalid_request', error_description: 'Invalid code' });
      }
      const grant: Grant = { clientId, refreshToken: randomBytes(32).toString('hex'), revoked: false };
      this.grants.set(grant.refreshToken, grant);
      return answer(200, { ...this.issue(grant), refresh_token: grant.refreshToken, ha_auth_provider: 'homeassistant' });
    }
    if (grantType === 'refresh_token') {
      const grant = this.grants.get(f.get('refresh_token') ?? '');
      if (!grant || grant.revoked) return answer(400, { error: 'invalid_grant' });
      if (grant.clientId !== clientId) return answer(400, { error: 'invalid_request' });
      return answer(200, this.issue(grant));
    }
    answer(400, { error: 'unsupported_grant_type' });
  }

  private issue(grant: Grant): { access_token: string; token_type: string; expires_in: number } {
    const token = randomBytes(32).toString('hex');
    this.access.set(token, { grant, expires: Date.now() + this.ttl * 1000 });
    return { access_token: token, token_type: 'Bearer', expires_in: this.ttl };
  }
}

/** HA's verify_redirect_uri, the same-origin rule (no fetching of the client's page here). */
function validRedirect(clientId: string, redirectUri: string): boolean {
  try {
    const c = new URL(clientId);
    const r = new URL(redirectUri);
    return /^https?:$/.test(c.protocol) && c.protocol === r.protocol && c.host === r.host;
  } catch {
    return false;
  }
}

function json(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function text(res: ServerResponse, status: number, body: string, type = 'text/plain'): void {
  res.writeHead(status, { 'Content-Type': `${type}; charset=utf-8` });
  res.end(body);
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
