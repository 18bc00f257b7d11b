// Who may call an endpoint: bearer tokens (compared in constant time) and, against DNS rebinding,
// the Host and Origin a browser would send. Answers are the SDK's own 401/403 responses, so the
// WWW-Authenticate challenge is the one MCP clients expect.
import { timingSafeEqual, createHash } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';
import {
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  originValidationResponse,
  OAuthError,
  OAuthErrorCode,
  requireBearerAuth,
  type AuthInfo,
} from '@modelcontextprotocol/server';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function tokenMatcher(tokens: string[]): (candidate: string) => boolean {
  const digests = tokens.map(digest);
  return (candidate) => {
    const d = digest(candidate);
    let ok = false;
    for (const t of digests) ok = timingSafeEqual(t, d) || ok; // no early exit: every token is compared
    return ok;
  };
}

/** Sign-in on an endpoint (src/server/oauth/): its access tokens, and where its metadata is. */
export interface OAuthGate {
  /** The caller of an access token issued for the endpoint at `origin`, or undefined. */
  verify(token: string, origin: string): Promise<AuthInfo | undefined>;
  /** The RFC 9728 metadata URL the challenge names, for a request that came to `origin`. */
  metadataUrl(origin: string): string;
}

/**
 * undefined = anonymous endpoint (no tokens, no sign-in and `anonymous` set); else a check answering
 * 401 with the challenge, or the caller's AuthInfo. The endpoint's own tokens are tried first, then
 * (with sign-in) the access tokens its authorization server issued. No tokens and no sign-in without
 * `anonymous` refuses everyone.
 */
export function bearerCheck(
  tokens: string[],
  anonymous: boolean,
  oauth?: OAuthGate,
  /** Variables the tokens come from that are not set: named in the 401, so the client's user knows what the endpoint's owner must set. */
  unsetVariables: string[] = [],
): ((request: Request) => Promise<AuthInfo | Response>) | undefined {
  const noTokens = unsetVariables.length ? noTokensFrom(unsetVariables) : NO_TOKENS;
  if (tokens.length === 0 && anonymous && !oauth) return undefined;
  const matches = tokenMatcher(tokens);
  const verifierFor = (origin: string) => ({
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      if (tokens.length > 0 && matches(token)) {
        // The SDK refuses tokens without an expiry; endpoint tokens live until removed from the node.
        return { token, clientId: 'mcp-endpoint-token', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
      }
      const signedIn = oauth && (await oauth.verify(token, origin));
      if (signedIn) return signedIn;
      if (tokens.length === 0 && !oauth) throw new OAuthError(OAuthErrorCode.InvalidToken, noTokens);
      throw new OAuthError(OAuthErrorCode.InvalidToken, oauth ? NOT_SIGNED_IN : NOT_A_TOKEN);
    },
  });
  const plainCheck = oauth ? undefined : requireBearerAuth({ verifier: verifierFor('') });
  return async (request) => {
    const origin = new URL(request.url).origin;
    const check = plainCheck ?? requireBearerAuth({ verifier: verifierFor(origin), resourceMetadataUrl: oauth!.metadataUrl(origin) });
    const outcome = await check(request);
    return outcome instanceof Response && outcome.status === 401
      ? withReadableBody(outcome, request, tokens.length === 0 && !oauth ? noTokens : undefined, !!oauth)
      : outcome;
  };
}

/**
 * The SDK's 401 keeps its challenge and its OAuth body ({error, error_description}), which MCP
 * clients read; clients in other languages often show only a `message`, and a missing header gets the
 * SDK's bare "Missing Authorization header". Both now say what to do.
 */
async function withReadableBody(response: Response, request: Request, noTokens: string | undefined, signIn: boolean): Promise<Response> {
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  const missing = !request.headers.get('authorization')?.toLowerCase().startsWith('bearer ');
  const description = noTokens ? noTokens : missing ? (signIn ? SIGN_IN : NO_BEARER) : String(body.error_description ?? NOT_A_TOKEN);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return Response.json({ ...body, error: body.error ?? 'invalid_token', error_description: description, message: description }, { status: 401, headers });
}

const NO_TOKENS = 'This endpoint has no tokens: add one to the mcp-endpoint node (or tick "anonymous" for a trusted network).';
const noTokensFrom = (names: string[]) =>
  `This endpoint takes its token from ${names.join(', ')}, which is not set: whoever runs Node-RED sets it in the tab's Environment variables (double-click the tab), and the client sends the same value as 'Authorization: Bearer <token>'.`;
const NO_BEARER =
  "This endpoint needs a bearer token: send 'Authorization: Bearer <token>' with one of the mcp-endpoint node's tokens (in the examples, the tab's MCP_TOKEN).";
const SIGN_IN =
  "This endpoint needs a sign-in: an MCP client that speaks OAuth (Home Assistant, Claude, MCP Inspector) signs in by itself and a person approves it in the Node-RED editor; other clients send one of the endpoint's tokens as a bearer token.";
const NOT_SIGNED_IN = "The bearer token is neither one of this endpoint's tokens nor a current sign-in of an approved client: sign in again.";
const NOT_A_TOKEN =
  "The bearer token is not one of this endpoint's tokens; copy a token from the mcp-endpoint node (in the examples, the tab's MCP_TOKEN) into the client's Authorization header.";

/**
 * Host names this machine answers to: loopback, its host name (also `.local`), its interface
 * addresses, plus any the user configured. A DNS-rebinding page arrives with a foreign Host.
 */
export function allowedHostnames(extra: string[] = []): string[] {
  const names = new Set<string>([...localhostAllowedHostnames(), hostname(), `${hostname()}.local`, ...extra]);
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) names.add(a.family === 'IPv6' ? `[${a.address}]` : a.address);
  }
  return [...names];
}

/**
 * DNS rebinding: a page on a foreign site must not reach the endpoint through the user's browser.
 * Origin is always checked (browsers send it). Host is checked only on an anonymous endpoint: with
 * tokens, a rebinding page has no token, and a reverse proxy's own host name must keep working.
 */
export function rebindingCheck(request: Request, hosts: string[], checkHost: boolean): Response | undefined {
  return (checkHost ? hostHeaderValidationResponse(request, hosts) : undefined) ?? originValidationResponse(request, hosts);
}

/**
 * An anonymous endpoint serves only the local network (loopback, RFC 1918, link-local, IPv6 ULA):
 * Home Assistant's MCP client has no token field, and "anonymous" must not mean "the internet".
 */
export function isLocalNetworkAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ip = address.replace(/^::ffff:/i, '');
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  const lower = ip.toLowerCase();
  return lower === '::1' || /^f[cd][0-9a-f]{2}:/.test(lower) || /^fe[89ab][0-9a-f]:/.test(lower);
}
