// Sign-in on mcp-endpoint, with the MCP SDK's own client OAuth (discovery, dynamic registration,
// PKCE S256, the resource indicator, refresh) against the real runtime: a person approves the client
// through the admin routes with the code the sign-in page shows, and nothing is granted before that.
// Then the attacks: a wrong code, a replayed authorization code, a swapped redirect URI, a token of
// one endpoint on another, a denied client, a token revoked mid-session.
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { MemoryClientProvider } from '../peers/oauth/memory-client-provider';
import { helper } from '../helpers/runtime';
import { baseUrl, loadFlow, startEndpointRuntime, stopEndpointRuntime } from './harness';
import { toolFlow } from './tool-flow';
import { initializeWith } from '../helpers/bearer-requests';
import { HA_CALLBACK, homeAssistantSignIn } from '../peers/home-assistant/mcp-client-sign-in';
import { CookieBrowser } from '../helpers/cookie-browser';

const REDIRECT = 'http://127.0.0.1:9/callback';

const clients = async (id = 'ep') => (await helper.request().get(`/mcp-endpoint/${id}/clients`).expect(200)).body;
const decide = (request: string, decision: 'approve' | 'deny', code: string, id = 'ep') =>
  helper
    .request()
    .post(`/mcp-endpoint/${id}/clients/${encodeURIComponent(request)}/${decision}`)
    .send({ code });

async function connectWith(provider: MemoryClientProvider, path = '/mcp'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(path, baseUrl), { authProvider: provider });
  const client = new Client({ name: 'sign-in-spec', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return client;
}

/** The SDK runs discovery and registration, the browser waits on the sign-in page until `approve` decides. */
async function signIn(
  provider: MemoryClientProvider,
  approve: (pending: { request: string; code: string }) => Promise<unknown>,
  path = '/mcp',
): Promise<{ page: string; back: URL; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(path, baseUrl), { authProvider: provider });
  const client = new Client({ name: 'sign-in-spec', version: '1.0.0' }, { capabilities: {} });
  await assert.rejects(client.connect(transport), UnauthorizedError);
  assert.ok(provider.authorizationUrl, 'the SDK was sent to the authorization page');
  const browser = new CookieBrowser(REDIRECT);
  const waiting = await browser.open(provider.authorizationUrl.href);
  assert.equal(waiting.status, 200, waiting.text);
  const code = /id="code">([A-Z0-9]+)</.exec(waiting.text)?.[1];
  assert.ok(code, 'the page shows a code');
  const again = await browser.open(waiting.url);
  assert.equal(again.status, 200, 'still waiting: a reload grants nothing');
  const { pending } = await clients();
  const mine = pending.find((p: { code: string }) => p.code === code);
  assert.ok(mine, `the editor lists the request with the same code: ${JSON.stringify(pending)}`);
  assert.equal(mine.name, 'Sign-in spec');
  assert.equal(mine.redirectHost, '127.0.0.1:9');
  await approve(mine);
  const done = await browser.open(waiting.url);
  return { page: waiting.text, back: new URL(done.url), transport };
}

describe('mcp-endpoint sign-in: OAuth clients, each approved by a person', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  beforeEach(() =>
    loadFlow(
      [
        ...toolFlow().map((n) => (n.id === 'ep' ? { ...n, signIn: true } : n)),
        { id: 'ep2', type: 'mcp-endpoint', path: '/other', name: 'other', signIn: true },
        { id: 'in2', type: 'mcp-tool-in', endpoint: 'ep2', name: 'other_echo', wires: [['out2']] },
        { id: 'out2', type: 'mcp-tool-out' },
      ],
      { ep: { tokens: 'static-token-1' } },
    ),
  );

  it('publishes RFC 9728 and RFC 8414 metadata, and the 401 names it', async () => {
    const res = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
    assert.equal(metadataUrl, `${baseUrl}/.well-known/oauth-protected-resource/mcp`);
    const prm = await (await fetch(metadataUrl!)).json();
    assert.equal(prm.resource, `${baseUrl}/mcp`, 'exactly the endpoint URL');
    assert.deepEqual(prm.authorization_servers, [`${baseUrl}/mcp/oauth`]);
    const as = await (await fetch(`${baseUrl}/.well-known/oauth-authorization-server/mcp/oauth`)).json();
    assert.equal(as.issuer, `${baseUrl}/mcp/oauth`);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.equal(as.token_endpoint_auth_methods_supported[0], 'none', 'public clients offered first');
    assert.ok(as.registration_endpoint, 'dynamic client registration');
    assert.ok(as.revocation_endpoint);
  });

  it('the SDK client signs in after a person approves it, with the code the page shows; static tokens still work', async () => {
    const provider = new MemoryClientProvider(REDIRECT, 'Sign-in spec');
    const { back, transport } = await signIn(provider, (p) => decide(p.request, 'approve', p.code.toLowerCase()).expect(200));
    assert.ok(back.searchParams.get('code'), `back at the client with a code: ${back.href}`);
    await transport.finishAuth(back.searchParams); // with iss (RFC 9207), which the SDK checks
    const client = await connectWith(provider);
    const tools = await client.listTools();
    assert.ok(tools.tools.some((t) => t.name === 'echo'));
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    assert.match(JSON.stringify(result.content), /echo: hi/);
    await client.close();
    const { approved, pending } = await clients();
    assert.deepEqual(pending, []);
    assert.equal(approved.length, 1);
    assert.equal(approved[0].name, 'Sign-in spec');
    assert.ok(approved[0].lastUsed >= approved[0].approvedAt);
    // The endpoint's own tokens keep working beside sign-in.
    assert.equal((await initializeAt('static-token-1')).status, 200);
  });

  it("Home Assistant 2026.10's client (its discovery, registration and checks, replayed) signs in, calls and refreshes", async () => {
    const signedIn = await homeAssistantSignIn(`${baseUrl}/mcp`, async (authorizeUrl) => {
      const browser = new CookieBrowser(HA_CALLBACK);
      const waiting = await browser.open(authorizeUrl);
      assert.equal(waiting.status, 200, waiting.text);
      const code = /id="code">([A-Z0-9]+)</.exec(waiting.text)![1];
      const mine = (await clients()).pending.find((p: { code: string }) => p.code === code);
      assert.equal(mine.name, 'Home Assistant');
      assert.equal(mine.redirectHost, 'my.home-assistant.io');
      await decide(mine.request, 'approve', code).expect(200);
      return new URL((await browser.open(waiting.url)).url);
    });
    assert.equal(signedIn.registration.token_endpoint_auth_method, 'none', 'a public client, as offered first');
    assert.equal((await initializeAt(signedIn.tokens.access_token)).status, 200);
    const old = signedIn.tokens.access_token;
    const oldRefresh = signedIn.tokens.refresh_token;
    assert.ok(oldRefresh, 'a refresh token for staying signed in');
    const renewed = await signedIn.refresh();
    assert.notEqual(renewed.refresh_token, oldRefresh, 'refresh tokens rotate');
    assert.equal((await initializeAt(renewed.access_token)).status, 200);
    assert.notEqual(renewed.access_token, old);
  });

  it('a wrong code approves nothing, a denied client is sent back with access_denied', async () => {
    const provider = new MemoryClientProvider(REDIRECT, 'Sign-in spec');
    const { back } = await signIn(provider, async (p) => {
      const wrong = await decide(p.request, 'approve', 'AAAAAA');
      assert.equal(wrong.status, 400);
      assert.match(wrong.body.error, /code does not match/);
      await decide(p.request, 'deny', p.code).expect(200);
      await decide(p.request, 'approve', p.code).expect(404); // decided once
    });
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('code'), null);
    assert.deepEqual((await clients()).approved, []);
  });

  it('a replayed code is refused and takes back what the code gave; a swapped redirect URI goes nowhere', async () => {
    const provider = new MemoryClientProvider(REDIRECT, 'Sign-in spec');
    const { back, transport } = await signIn(provider, (p) => decide(p.request, 'approve', p.code).expect(200));
    const code = back.searchParams.get('code')!;
    await transport.finishAuth(back.searchParams);
    const token = provider.saved!.access_token;
    assert.equal((await initializeAt(token)).status, 200);
    // the same code again, straight at the token endpoint (RFC 6749 §4.1.2: revoke what it issued)
    const replay = await fetch(`${baseUrl}/mcp/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: provider.info!.client_id,
        code_verifier: provider.verifier,
      }),
    });
    assert.equal(replay.status, 400);
    assert.equal((await replay.json()).error, 'invalid_grant');
    assert.equal((await initializeAt(token)).status, 401, 'the token the code gave is revoked with it');
    // an authorization request that sends the browser somewhere the client did not register
    const swapped = new URL(provider.authorizationUrl!.href);
    swapped.searchParams.set('redirect_uri', 'http://attacker.example/cb');
    const res = await fetch(swapped, { redirect: 'manual' });
    assert.equal(res.status, 400);
    assert.ok(!(res.headers.get('location') ?? '').includes('attacker.example'), 'never redirected to the attacker');
  });

  it('a token is good for its own endpoint only, and a client revoked in the editor stops at once, mid-session', async () => {
    const provider = new MemoryClientProvider(REDIRECT, 'Sign-in spec');
    const { back, transport } = await signIn(provider, (p) => decide(p.request, 'approve', p.code).expect(200));
    await transport.finishAuth(back.searchParams);
    const token = provider.saved!.access_token;
    assert.equal((await initializeAt(token, '/other')).status, 401, 'not a token of /other');
    const client = await connectWith(provider);
    await client.listTools();
    await helper
      .request()
      .post(`/mcp-endpoint/ep/clients/${encodeURIComponent(provider.info!.client_id)}/revoke`)
      .expect(200);
    assert.equal((await initializeAt(token)).status, 401);
    await assert.rejects(client.listTools());
    assert.deepEqual((await clients()).approved, []);
    await client.close().catch(() => undefined);
  });
});

const initializeAt = (token: string, path = '/mcp') => initializeWith(`${baseUrl}${path}`, token);
