// Signing in to an authorization server that knows clients only by Client ID Metadata Documents
// (no registration, no IndieAuth, PKCE S256), in the real runtime: the editor is reached over https
// (a TLS-terminating proxy with a self-signed certificate in front of Node-RED, as a user would put
// nginx or the Home Assistant add-on's ingress there), so Node-RED's client id is its own document
// URL; the server fetches the document from Node-RED, checks it names itself and the callback, and
// the flow's server then lists its tools. Over plain http the sign-in says why it cannot work.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helper, load, startRuntime, stopRuntime } from '../helpers/runtime';
import { startCimdOAuthServer, type CimdOAuthServer } from '../peers/oauth/cimd-server';

/** A self-signed certificate for 127.0.0.1, made with Debian's openssl for this run only. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cimd-cert-'));
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** https on 127.0.0.1 in front of Node-RED's http server; the Host header passes unchanged. */
async function tlsProxy(target: string, tls: { key: string; cert: string }): Promise<{ origin: string; server: Server }> {
  const to = new URL(target);
  const server = createHttpsServer(tls, (req, res) => {
    const upstream = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('OAuth sign-in with a Client ID Metadata Document served by Node-RED', function () {
  this.timeout(30000);
  const tls = selfSignedCertificate();
  let as: CimdOAuthServer;
  let proxy: { origin: string; server: Server };
  // The test helper keeps the admin routes in an express app of their own (helper.request() calls
  // it in-process); Node-RED proper serves them on its HTTP port, which this server stands for.
  const admin = createHttpServer((req, res) => (helper as any)._httpAdmin(req, res));

  before(async () => {
    await startRuntime();
    as = await startCimdOAuthServer({ trustCertificate: tls.cert });
    await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', () => resolve()));
    proxy = await tlsProxy(`http://127.0.0.1:${(admin.address() as AddressInfo).port}`, tls);
  });
  after(async () => {
    proxy.server.closeAllConnections();
    await new Promise((r) => proxy.server.close(r));
    admin.closeAllConnections();
    await new Promise((r) => admin.close(r));
    await as.close();
    await stopRuntime();
  });
  beforeEach(() => load([{ id: 'srv', type: 'mcp-server', transport: 'http', url: as.mcpUrl, auth: 'oauth' }]));

  const start = (editorOrigin: string) =>
    helper
      .request()
      .post('/mcp-server/oauth/start')
      .send({ id: 'srv', config: { transport: 'http', url: as.mcpUrl, auth: 'oauth' }, redirectUrl: `${editorOrigin}/mcp-server/oauth/callback` });

  it('an https editor: the client id is the document URL, the server fetches it from Node-RED, and the flow lists its tools', async () => {
    const started = await start(proxy.origin);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.kind, 'oauth');
    const documentUrl = `${proxy.origin}/mcp-server/oauth/client-metadata.json`;
    const authorize = new URL(started.body.authorizationUrl);
    assert.equal(authorize.searchParams.get('client_id'), documentUrl);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');

    const answer = await fetch(authorize, { redirect: 'manual' });
    assert.equal(answer.status, 302, `refused: ${as.refused.join('; ')}`);
    assert.deepEqual(as.fetched.at(-1), {
      url: documentUrl,
      status: 200,
      document: {
        client_id: documentUrl,
        client_name: 'Node-RED (node-red-contrib-mcp-gemini)',
        redirect_uris: [`${proxy.origin}/mcp-server/oauth/callback`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
    });
    const back = new URL(answer.headers.get('location')!);
    assert.equal(back.origin + back.pathname, `${proxy.origin}/mcp-server/oauth/callback`);
    const callback = await helper.request().get(`/mcp-server/oauth/callback${back.search}`);
    assert.equal(callback.status, 200, callback.text);
    assert.deepEqual(as.grants, ['authorization_code']);

    const listed = await (helper.getNode('srv') as any).provider.listTools({ refresh: true });
    assert.deepEqual(
      listed.tools.map((t: any) => t.name),
      ['lights_on', 'lights_off'],
    );
    assert.match(as.mcp.bearers.at(-1)!, /^Bearer [0-9a-f]{48}$/);
  });

  it('a plain-http editor: Authorize says the document needs https, and nothing reaches the server', async () => {
    const fetchedBefore = as.fetched.length;
    const started = await start(helper.url().replace(/\/$/, ''));
    assert.equal(started.status, 400);
    assert.match(started.body.error, /Client ID Metadata Document, which must be served over https: open the editor through https/);
    assert.equal(as.fetched.length, fetchedBefore);
  });

  it('the document route answers without an editor login, names the address it was reached at, and holds only public facts', async () => {
    const direct = await helper.request().get('/mcp-server/oauth/client-metadata.json').set('Host', new URL(proxy.origin).host);
    assert.equal(direct.status, 200);
    assert.equal(direct.body.client_id, `${proxy.origin}/mcp-server/oauth/client-metadata.json`);
    assert.deepEqual(Object.keys(direct.body).sort(), [
      'client_id',
      'client_name',
      'grant_types',
      'redirect_uris',
      'response_types',
      'token_endpoint_auth_method',
    ]);
  });
});
