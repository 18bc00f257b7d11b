// Sign-in laid out as in the Home Assistant app: a real Node-RED with flows under /endpoint
// (httpNodeRoot) and the editor at / (httpAdminRoot). Home Assistant 2026.10's client, replayed
// from the fixture notes, finds the metadata at the origin's root (served by the admin side), signs
// in after a person approves it through the admin route, and calls the endpoint.
import assert from 'node:assert/strict';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { initializeWith, untilEndpointStarted } from '../helpers/bearer-requests';
import { HA_CALLBACK, homeAssistantSignIn } from '../peers/home-assistant/mcp-client-sign-in';

describe('mcp-endpoint sign-in in the Home Assistant app layout (real Node-RED, httpNodeRoot /endpoint)', function () {
  this.timeout(90000);
  let nodeRed: NodeRedProcess;
  before(async () => {
    nodeRed = await startNodeRed({ installed: { settingsCode: "{ httpNodeRoot: '/endpoint' }" } });
    await nodeRed.deploy([
      { id: 'tab1', type: 'tab', label: 'tools' },
      { id: 'ep', type: 'mcp-endpoint', path: '/mcp', name: 'Home tools', signIn: true },
      { id: 'in1', type: 'mcp-tool-in', z: 'tab1', endpoint: 'ep', name: 'hello', wires: [['out1']] },
      { id: 'out1', type: 'mcp-tool-out', z: 'tab1' },
    ]);
  });
  after(() => nodeRed?.stop());

  it("Home Assistant's client finds the metadata at the root, is approved in the editor and calls the endpoint", async () => {
    const mcpUrl = `${nodeRed.url}/endpoint/mcp`;
    await untilEndpointStarted(mcpUrl); // the deploy answers before the endpoint has started
    const root = await fetch(`${nodeRed.url}/.well-known/oauth-protected-resource/endpoint/mcp`);
    assert.equal(root.status, 200, 'the resource metadata at the origin root');
    assert.equal((await root.json()).resource, mcpUrl);
    const as = await fetch(`${nodeRed.url}/.well-known/oauth-authorization-server/endpoint/mcp/oauth`);
    assert.equal(as.status, 200, 'RFC 8414 metadata at the path-inserted place, served by the admin side');
    assert.equal((await as.json()).issuer, `${nodeRed.url}/endpoint/mcp/oauth`);
    const challenge = (await fetch(mcpUrl, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).headers.get('www-authenticate');
    assert.match(challenge ?? '', new RegExp(`resource_metadata="${nodeRed.url}/.well-known/oauth-protected-resource/endpoint/mcp"`));
    const signedIn = await homeAssistantSignIn(mcpUrl, async (authorizeUrl) => {
      const cookies: string[] = [];
      let url = authorizeUrl;
      const open = async () => {
        for (;;) {
          const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookies.join('; ') } });
          for (const c of res.headers.getSetCookie()) cookies.push(c.split(';')[0]);
          const next = res.headers.get('location');
          if (!next) return res.text();
          url = new URL(next, url).href;
          if (url.startsWith(HA_CALLBACK)) return '';
        }
      };
      const page = await open();
      const code = /id="code">([A-Z0-9]+)</.exec(page)?.[1];
      assert.ok(code, page);
      const listed = await nodeRed.request('GET', '/mcp-endpoint/ep/clients');
      const mine = listed.body.pending.find((p: { code: string }) => p.code === code);
      assert.equal((await nodeRed.request('POST', `/mcp-endpoint/ep/clients/${mine.request}/approve`, { code })).status, 200);
      await open();
      return new URL(url);
    });
    const res = await initializeWith(mcpUrl, signedIn.tokens.access_token);
    assert.equal(res.status, 200);
    assert.ok(!nodeRed.log.join('\n').includes(signedIn.tokens.access_token), 'no token in the log');
  });
});
