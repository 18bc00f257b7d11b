// Home Assistant 2026.9+ publishes its authorization server metadata (RFC 8414) with endpoint
// paths relative to its base URL (`"token_endpoint": "/auth/token"`) and without `issuer`
// (home-assistant/core issue #181505); the MCP SDK's discovery refuses such a document outright.
// This fetch wrapper hands the SDK the same document with each relative endpoint resolved against
// the authorization server's URL and the issuer RFC 8414 §3.1 derives from the metadata URL
// (`<origin>/.well-known/oauth-authorization-server<path>` is the issuer `<origin><path>`). Nothing
// else changes: a complete document passes through untouched, so the SDK's own checks still apply.
// Only a path is completed: a scheme-relative value (`//host/token`) names another host, and is
// left as it is, for the SDK to refuse. The document is read up to 1 MB (./../reply-limit.ts).
import { ReplyTooLargeError, boundedText } from '../transport/reply-limit';

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const METADATA_PATH = /^(.*?)\/\.well-known\/(?:oauth-authorization-server|openid-configuration)(\/.*)?$/;
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:/i;
/** `//host`, `\\host`, `/\host`: URL parsers read these as another host, never as a path. */
const OTHER_HOST = /^[\\/]{2}/;
const MAX_METADATA_BYTES = 1024 * 1024;

/** The issuer a metadata URL stands for, or undefined when `url` is not a metadata URL. */
export function issuerOfMetadataUrl(url: URL): string | undefined {
  const m = METADATA_PATH.exec(url.pathname);
  if (!m) return undefined;
  return url.origin + (m[2] ?? m[1] ?? '');
}

/** The document with relative endpoints made absolute and a missing issuer filled in. */
export function completeMetadata(doc: Record<string, unknown>, issuer: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...doc };
  if (typeof out.issuer !== 'string' || !out.issuer) out.issuer = issuer;
  const base = issuer.endsWith('/') ? issuer : `${issuer}/`;
  for (const [key, value] of Object.entries(out)) {
    if ((key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string' && value && !ABSOLUTE_URL.test(value) && !OTHER_HOST.test(value)) {
      out[key] = new URL(value, base).href;
    }
  }
  return out;
}

export function metadataCompletingFetch(base: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    const res = await base(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const issuer = issuerOfMetadataUrl(url);
    if (!issuer || !res.ok) return res;
    const text = await boundedText(res, MAX_METADATA_BYTES, () => new ReplyTooLargeError(url.href, MAX_METADATA_BYTES, 'reply'));
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      doc = undefined;
    }
    const body = doc && typeof doc === 'object' && !Array.isArray(doc) ? JSON.stringify(completeMetadata(doc as Record<string, unknown>, issuer)) : text;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  };
}
