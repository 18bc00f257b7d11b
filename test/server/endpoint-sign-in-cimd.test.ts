// Sign-in by a client named by a Client ID Metadata Document (the MCP SDK's own client with
// clientMetadataUrl, as Claude's connectors sign in): a real Node-RED fetches the document from an
// https server (self-signed, trusted through NODE_EXTRA_CA_CERTS), shows the document's name for
// approval, and the client calls the endpoint without ever registering. A document that does not
// name itself is refused.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { MemoryClientProvider } from '../peers/oauth/memory-client-provider';
import { untilEndpointStarted } from '../helpers/bearer-requests';

const REDIRECT = 'http://127.0.0.1:9/callback';

describe('mcp-endpoint sign-in with a Client ID Metadata Document (real Node-RED)', function () {
  this.timeout(90000);
  const dir = mkdtempSync(join(tmpdir(), 'cimd-endpoint-'));
  let https: Server;
  let origin = '';
  let nodeRed: NodeRedProcess;
  const fetched: string[] = [];

  before(async () => {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' }); // prettier-ignore
    https = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (req, res) => {
      fetched.push(req.url ?? '');
      const self = `${origin}${req.url}`;
      const doc =
        req.url === '/liar.json'
          ? { client_id: `${origin}/someone-else.json`, client_name: 'Liar', redirect_uris: [REDIRECT] }
          : { client_id: self, client_name: 'CIMD client', redirect_uris: [REDIRECT] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    });
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
    origin = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
    nodeRed = await startNodeRed({ installed: {}, env: { NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') } });
    await nodeRed.deploy([
      { id: 'tab1', type: 'tab', label: 'tools' },
      { id: 'ep', type: 'mcp-endpoint', path: '/mcp', name: 'Home tools', signIn: true },
      { id: 'in1', type: 'mcp-tool-in', z: 'tab1', endpoint: 'ep', name: 'hello', wires: [['fn1']] },
      { id: 'fn1', type: 'function', z: 'tab1', func: 'msg.payload = "hello"; return msg;', wires: [['out1']] },
      { id: 'out1', type: 'mcp-tool-out', z: 'tab1' },
    ]);
    await untilEndpointStarted(`${nodeRed.url}/mcp`); // the deploy answers before the endpoint has started
  });
  after(async () => {
    await nodeRed?.stop();
    https?.closeAllConnections();
    await new Promise((r) => https?.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  /** The browser's way to the callback (or to a refusal), the person approving in between. */
  async function browse(url: string): Promise<{ back?: URL; refusal?: string }> {
    const cookies: string[] = [];
    let approved = false;
    for (let hop = 0; hop < 12; hop++) {
      if (url.startsWith(REDIRECT)) return { back: new URL(url) };
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookies.join('; ') } });
      for (const c of res.headers.getSetCookie()) cookies.push(c.split(';')[0]);
      const next = res.headers.get('location');
      if (next) {
        url = new URL(next, url).href;
        continue;
      }
      const text = await res.text();
      const code = /id="code">([A-Z0-9]+)</.exec(text)?.[1];
      if (!code || approved) return { refusal: `${res.status} ${text}` };
      const mine = (await nodeRed.request('GET', '/mcp-endpoint/ep/clients')).body.pending.find((p: { code: string }) => p.code === code);
      assert.equal(mine.name, 'CIMD client', "the document's name is what the person sees");
      assert.equal((await nodeRed.request('POST', `/mcp-endpoint/ep/clients/${encodeURIComponent(mine.request)}/approve`, { code })).status, 200);
      approved = true;
    }
    throw new Error('too many hops');
  }

  it('the SDK client signs in by its document, without registering, and calls a tool', async () => {
    const as = await (await fetch(`${nodeRed.url}/.well-known/oauth-authorization-server/mcp/oauth`)).json();
    assert.equal(as.client_id_metadata_document_supported, true);
    const provider = new MemoryClientProvider(REDIRECT, 'CIMD client', `${origin}/client.json`);
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', nodeRed.url), { authProvider: provider });
    await assert.rejects(new Client({ name: 'cimd', version: '1' }).connect(transport), UnauthorizedError);
    assert.equal(provider.authorizationUrl!.searchParams.get('client_id'), `${origin}/client.json`);
    const { back, refusal } = await browse(provider.authorizationUrl!.href);
    assert.ok(back, refusal);
    await transport.finishAuth(back.searchParams);
    const client = new Client({ name: 'cimd', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', nodeRed.url), { authProvider: provider }));
    assert.match(JSON.stringify((await client.callTool({ name: 'hello', arguments: {} })).content), /hello/);
    await client.close();
    assert.ok(fetched.includes('/client.json'));
    const { approved } = (await nodeRed.request('GET', '/mcp-endpoint/ep/clients')).body;
    assert.deepEqual(
      approved.map((a: { client: string }) => a.client),
      [`${origin}/client.json`],
    );
  });

  it('a document that does not name itself as its client_id is refused before any page waits', async () => {
    const authorize = new URL(`${nodeRed.url}/mcp/oauth/auth`);
    for (const [k, v] of Object.entries({
      client_id: `${origin}/liar.json`,
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      scope: 'mcp',
    }))
      authorize.searchParams.set(k, v);
    const { back, refusal } = await browse(authorize.href);
    assert.equal(back, undefined);
    assert.match(refusal ?? '', /^400 .*invalid_client/s);
    assert.ok(fetched.includes('/liar.json'));
    assert.deepEqual((await nodeRed.request('GET', '/mcp-endpoint/ep/clients')).body.pending, []);
  });
});
