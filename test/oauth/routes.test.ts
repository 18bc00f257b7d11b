// The OAuth admin routes in the real runtime (node-red-node-test-helper, helper.request()), with
// the HA stand-in's IndieAuth: /start answers the sign-in URL for our own callback only; the
// callback, which no bearer can guard, accepts a state once and stores the tokens as the node's
// credential; the deployed server then lists its tools; /status never shows a token.
import assert from 'node:assert/strict';
import { helper, load, startRuntime, stopRuntime } from '../helpers/runtime';
import { HA_GENERATIONS, haToolName, startHomeAssistant, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';
import { HaIndieAuth } from '../peers/oauth/ha-indieauth';
import { loginAtHa, REDIRECT } from './ha-login';

for (const generation of HA_GENERATIONS) describeRoutes(generation);

function describeRoutes(generation: HaGeneration) {
  describe(`OAuth admin routes: /mcp-server/oauth/start, /callback, /:id/status (Home Assistant ${generation})`, function () {
    this.timeout(20000);
    let auth: HaIndieAuth;
    let ha: HomeAssistantStandIn;

    before(startRuntime);
    after(stopRuntime);
    beforeEach(async () => {
      // 2026.9+ publishes relative endpoints and no issuer, which the SDK's discovery alone refuses.
      auth = new HaIndieAuth({ relativeMetadata: generation !== 'pre-2026.9' });
      ha = await startHomeAssistant({ auth, generation });
      await load([{ id: 'srv', type: 'mcp-server', transport: 'http', url: ha.url, auth: 'oauth' }]);
    });
    afterEach(async () => {
      await helper.unload();
      await ha.close();
    });

    const start = (redirectUrl = REDIRECT) =>
      helper
        .request()
        .post('/mcp-server/oauth/start')
        .send({ id: 'srv', config: { transport: 'http', url: ha.url, auth: 'oauth' }, redirectUrl });

    it('before sign-in the server says to click Authorize; after the callback its tools list, and the state works only once', async () => {
      const server = helper.getNode('srv') as any;
      await assert.rejects(server.provider.listTools(), /not signed in.*click Authorize/);
      assert.equal(ha.requests.filter((r) => r.path.startsWith('/api/mcp')).length, 0, 'nothing was sent to HA without a token');

      const started = await start();
      assert.equal(started.status, 200, JSON.stringify(started.body));
      assert.equal(started.body.kind, 'indieauth');
      const back = await loginAtHa(started.body.authorizationUrl);
      const callback = await helper.request().get(`/mcp-server/oauth/callback?${back}`);
      assert.equal(callback.status, 200);
      assert.match(callback.text, /Signed in/);

      const stored = (helper as any)._RED.nodes.getCredentials('srv');
      assert.equal(JSON.parse(stored.oauthState).kind, 'indieauth');
      const listed = await server.provider.listTools({ refresh: true });
      assert.ok(listed.tools.some((t: any) => t.name === haToolName(generation, 'HassTurnOn')));
      const { client_id: clientId } = Object.fromEntries(new URL(started.body.authorizationUrl).searchParams) as Record<string, string>;
      assert.equal(clientId, new URL('/', REDIRECT).href, "IndieAuth: the client id is Node-RED's own URL, the redirect on its origin");
      assert.ok(started.body.authorizationUrl.startsWith(`${new URL(ha.url).origin}/auth/authorize?`), 'the relative endpoint resolved against the base URL');

      const replay = await helper.request().get(`/mcp-server/oauth/callback?${back}`);
      assert.equal(replay.status, 400);
      assert.match(replay.text, /unknown or expired/);
      assert.equal(auth.tokenRequests.length, 1, 'a replayed callback never reaches the token endpoint');

      const status = await helper.request().get('/mcp-server/oauth/srv/status').query({ url: ha.url });
      assert.equal(status.body.signedIn, true);
      for (const t of auth.issuedTokens()) assert.ok(!JSON.stringify(status.body).includes(t));
      const otherUrl = await helper
        .request()
        .get('/mcp-server/oauth/srv/status')
        .query({ url: ha.url + '/other' });
      assert.equal(otherUrl.body.signedIn, false);
    });

    it('a callback without a known state, or refused by the server, changes nothing', async () => {
      const forged = await helper.request().get('/mcp-server/oauth/callback?code=abc&state=forged');
      assert.equal(forged.status, 400);
      const started = await start();
      const state = new URL(started.body.authorizationUrl).searchParams.get('state');
      const refused = await helper.request().get(`/mcp-server/oauth/callback?error=access_denied&state=${state}`);
      assert.equal(refused.status, 400);
      assert.match(refused.text, /refused the sign-in: access_denied/);
      assert.equal((helper as any)._RED.nodes.getCredentials('srv')?.oauthState, undefined);
    });

    it('/start sends the code only to our own callback route', async () => {
      const evil = await start('http://attacker.example/steal');
      assert.equal(evil.status, 400);
      assert.match(evil.body.error, /redirectUrl must be/);
    });
  });
}

describe('OAuth admin route /start: a stored client secret goes only to the deployed server', function () {
  this.timeout(20000);
  let deployed: HomeAssistantStandIn;
  let other: HomeAssistantStandIn;

  before(async () => {
    await startRuntime();
    deployed = await startHomeAssistant({ auth: new HaIndieAuth() });
    other = await startHomeAssistant({ auth: new HaIndieAuth() });
    await load([{ id: 'srv', type: 'mcp-server', transport: 'http', url: deployed.url, auth: 'oauth' }], {
      srv: { clientId: 'node-red-client', clientSecret: 'stored-client-secret-7e1d' },
    });
  });
  after(async () => {
    await stopRuntime();
    await deployed.close();
    await other.close();
  });

  it('pointed at another server without the secret typed again: 400 saying so, and nothing reaches that server', async () => {
    const res = await helper
      .request()
      .post('/mcp-server/oauth/start')
      .send({ id: 'srv', config: { transport: 'http', url: other.url, auth: 'oauth' }, clientSecret: '__PWRD__', redirectUrl: REDIRECT });
    assert.equal(res.status, 400);
    assert.match(res.body.error, /The stored secret is sent only to the address this node was deployed with/);
    assert.equal(other.requests.length, 0, 'not even discovery');
    assert.ok(!JSON.stringify(res.body).includes('stored-client-secret-7e1d'));
  });

  it('the deployed server, or a secret typed again, passes that check', async () => {
    const same = await helper
      .request()
      .post('/mcp-server/oauth/start')
      .send({ id: 'srv', config: { transport: 'http', url: deployed.url, auth: 'oauth' }, clientSecret: '__PWRD__', redirectUrl: REDIRECT });
    assert.doesNotMatch(String(same.body.error ?? ''), /stored secret/);
    const typed = await helper
      .request()
      .post('/mcp-server/oauth/start')
      .send({ id: 'srv', config: { transport: 'http', url: other.url, auth: 'oauth' }, clientSecret: 'a-secret-typed-for-this-server', redirectUrl: REDIRECT });
    assert.doesNotMatch(String(typed.body.error ?? ''), /stored secret/);
    assert.ok(other.requests.length > 0, 'discovery reached the server the secret was typed for');
  });
});
