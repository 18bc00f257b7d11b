// An authorization server that knows clients only by Client ID Metadata Documents
// (draft-ietf-oauth-client-id-metadata-document; the MCP authorization spec 2025-11-25 §"Client ID
// Metadata Documents"), with a protected MCP server on the same origin. It offers no registration
// endpoint and no IndieAuth: a client_id must be an https URL with a path; at /authorize the server
// fetches it (no redirects, at most 5 KB), requires its `client_id` to equal the URL exactly and the
// requested redirect_uri to be one of its `redirect_uris` (exact string match), and requires PKCE S256.
// The login is skipped (the test user consents at once) so a test can follow the redirect itself.
// `trustCertificate` lets it fetch a document from a test's self-signed https server.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { get as httpsGet } from 'node:https';
import { freePort } from '../free-port';
import { protectedMcp, type ProtectedMcp } from './protected-mcp';
import { sendWebResponse, toWebRequest } from '../../../src/server/http/web-bridge';

export interface CimdOAuthServer {
  issuer: string;
  mcpUrl: string;
  mcp: ProtectedMcp;
  /** Every client metadata document fetched: the URL and what it answered. */
  fetched: Array<{ url: string; status: number; document?: Record<string, unknown> }>;
  /** Every /authorize refusal, with its reason. */
  refused: string[];
  grants: string[];
  close(): Promise<void>;
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string;
}

export async function startCimdOAuthServer(o: { trustCertificate?: string } = {}): Promise<CimdOAuthServer> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const mcpUrl = `${issuer}/mcp`;
  const prmPath = '/.well-known/oauth-protected-resource/mcp';
  const codes = new Map<string, Code>();
  const access = new Set<string>();
  const refresh = new Map<string, string>(); // refresh token -> client id
  const fetched: CimdOAuthServer['fetched'] = [];
  const refused: string[] = [];
  const grants: string[] = [];
  const mcp = protectedMcp({ resourceMetadataUrl: issuer + prmPath, accepts: (token) => access.has(token) });

  const fetchDocument = (url: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpsGet(url, { ca: o.trustCertificate, timeout: 5000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
          if (body.length > 5120) req.destroy(new Error('document over 5 KB'));
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
    });

  async function authorize(url: URL, res: ServerResponse): Promise<void> {
    const p = Object.fromEntries(url.searchParams);
    const refuse = (why: string) => {
      refused.push(why);
      json(res, 400, { error: 'invalid_request', error_description: why });
    };
    let idUrl: URL;
    try {
      idUrl = new URL(p.client_id ?? '');
    } catch {
      return refuse('client_id is not a URL');
    }
    if (idUrl.protocol !== 'https:' || idUrl.pathname === '/' || idUrl.hash) return refuse('client_id must be an https URL with a path');
    if (p.response_type !== 'code') return refuse('response_type must be code');
    if (p.code_challenge_method !== 'S256' || !p.code_challenge) return refuse('PKCE S256 is required');
    let answer: { status: number; body: string };
    try {
      answer = await fetchDocument(p.client_id);
    } catch (err) {
      return refuse(`client metadata document not fetched: ${(err as Error).message}`);
    }
    let doc: Record<string, unknown> | undefined;
    try {
      doc = JSON.parse(answer.body);
    } catch {
      doc = undefined;
    }
    fetched.push({ url: p.client_id, status: answer.status, document: doc });
    if (answer.status !== 200 || !doc) return refuse(`client metadata document answered ${answer.status}`);
    if (doc.client_id !== p.client_id) return refuse('the document names another client_id');
    if (!Array.isArray(doc.redirect_uris) || !doc.redirect_uris.includes(p.redirect_uri)) return refuse('redirect_uri not in the document');
    const code = randomBytes(16).toString('hex');
    codes.set(code, { clientId: p.client_id, redirectUri: p.redirect_uri, challenge: p.code_challenge });
    const back = new URL(p.redirect_uri);
    back.searchParams.set('code', code);
    if (p.state) back.searchParams.set('state', p.state);
    back.searchParams.set('iss', issuer);
    res.writeHead(302, { Location: back.href });
    res.end();
  }

  function token(f: URLSearchParams, res: ServerResponse): void {
    const issue = (clientId: string) => {
      const at = randomBytes(24).toString('hex');
      const rt = randomBytes(24).toString('hex');
      access.add(at);
      refresh.set(rt, clientId);
      return { access_token: at, token_type: 'Bearer', expires_in: 3600, refresh_token: rt };
    };
    if (f.get('grant_type') === 'authorization_code') {
      const code = codes.get(f.get('code') ?? '');
      codes.delete(f.get('code') ?? '');
      const verifier = f.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (!code || code.clientId !== f.get('client_id') || code.redirectUri !== f.get('redirect_uri') || code.challenge !== challenge) {
        return json(res, 400, { error: 'invalid_grant' });
      }
      grants.push('authorization_code');
      return json(res, 200, issue(code.clientId));
    }
    if (f.get('grant_type') === 'refresh_token') {
      const clientId = refresh.get(f.get('refresh_token') ?? '');
      if (!clientId || clientId !== f.get('client_id')) return json(res, 400, { error: 'invalid_grant' });
      refresh.delete(f.get('refresh_token')!);
      grants.push('refresh_token');
      return json(res, 200, issue(clientId));
    }
    json(res, 400, { error: 'unsupported_grant_type' });
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === prmPath) return json(res, 200, { resource: mcpUrl, authorization_servers: [issuer] });
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        client_id_metadata_document_supported: true,
      });
    }
    if (url.pathname === '/mcp') {
      void (async () => sendWebResponse(await mcp.fetch(await toWebRequest(req, { origin: issuer })), res))().catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(err.message));
      });
      return;
    }
    if (url.pathname === '/authorize' && req.method === 'GET') {
      void authorize(url, res);
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => token(new URLSearchParams(body), res));
      return;
    }
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    issuer,
    mcpUrl,
    mcp,
    fetched,
    refused,
    grants,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await mcp.close();
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}
