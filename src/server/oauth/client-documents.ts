// Clients named by a Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document, as
// the MCP authorization spec takes it): the client_id is an https URL, and the document at that URL
// says the client's name and redirect URIs. Fetched when such a client first asks to sign in, with
// the bounds an unauthenticated request deserves: https only, a path below the host, GET, no
// redirects, 5 seconds, at most 5 KB, and a document whose own client_id is the URL exactly. (The
// fetch goes wherever the URL points, as the draft requires; what comes back is never shown to the
// requester, and a person still approves the client.)
import { request } from 'undici';

const MAX_BYTES = 5 * 1024;
const TIMEOUT_MS = 5000;

export function isClientDocumentUrl(id: string): boolean {
  try {
    const url = new URL(id);
    return url.protocol === 'https:' && url.pathname.length > 1 && !url.hash && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** The client as oidc-provider keeps it, from the document at `url`; throws with a reason a person can read. */
export async function clientFromDocument(url: string): Promise<Record<string, unknown>> {
  const res = await request(url, { method: 'GET', headers: { accept: 'application/json' }, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new Error(`the client metadata document answered ${res.statusCode}`);
  }
  const declared = Number(res.headers['content-length']);
  if (declared > MAX_BYTES) {
    await res.body.dump();
    throw new Error('the client metadata document is larger than 5 KB');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_BYTES) {
      res.body.destroy();
      throw new Error('the client metadata document is larger than 5 KB');
    }
    chunks.push(chunk as Buffer);
  }
  const doc = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  if (!doc || typeof doc !== 'object' || doc.client_id !== url) throw new Error('the client metadata document does not name itself as its client_id');
  const redirects = Array.isArray(doc.redirect_uris) ? doc.redirect_uris.filter((u): u is string => typeof u === 'string') : [];
  if (!redirects.length) throw new Error('the client metadata document lists no redirect_uris');
  return {
    client_id: url,
    client_name: typeof doc.client_name === 'string' ? doc.client_name.slice(0, 200) : new URL(url).host,
    redirect_uris: redirects,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // A document names a public client: there is nowhere safe to keep a secret in it.
    token_endpoint_auth_method: 'none',
    application_type: redirects.every((u) => u.startsWith('https:')) ? 'web' : 'native',
  };
}

/** The store's lookup for clients it does not hold: a document client is fetched; a failure is logged and the client stays unknown. */
export function documentClients(log: (message: string) => void): (kind: string, id: string) => Promise<Record<string, unknown> | undefined> {
  return async (kind, id) => {
    if (kind !== 'Client' || !isClientDocumentUrl(id)) return undefined;
    try {
      return await clientFromDocument(id);
    } catch (err) {
      log(`sign-in: client ${id}: ${(err as Error).message}`);
      return undefined;
    }
  };
}
