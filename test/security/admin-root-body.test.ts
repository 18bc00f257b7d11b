// With Node-RED's default httpAdminRoot "/", the editor's API sits in front of every HTTP route,
// and its JSON body parser used to read and parse an endpoint's request body (up to 5 MB) before the
// endpoint had checked the caller's token. With the httpAdminMiddleware the docs give (and `npm
// start` uses: scripts/settings.cjs), the endpoint's path goes past the editor's API, so a caller
// without a token is refused on its headers, whatever it sends. A real Node-RED process with the
// default roots.
import assert from 'node:assert/strict';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';

const TOKEN = 'admin-root-token-3b1f';

describe('security: the editor API parses no endpoint body before the token check (httpAdminRoot "/")', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  before(async () => {
    nr = await startNodeRed();
    await nr.deploy([
      { id: 'tab', type: 'tab', label: 'endpoint' },
      { id: 'ep', type: 'mcp-endpoint', path: '/mcp', credentials: { tokens: TOKEN } },
    ]);
    // A deploy answers before its nodes have started (Node-RED 5 sooner than 4): until the endpoint
    // serves its path (a GET without a token gets its 401), every request is Node-RED's alone.
    for (let i = 0; i < 100 && (await fetch(`${nr.url}/mcp`)).status !== 401; i++) await new Promise((r) => setTimeout(r, 100));
  });
  after(async () => nr?.stop());

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${nr.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body,
    });

  it('a body that is not JSON, without a token, gets 401 from the endpoint, not a parse error from the editor API', async () => {
    const res = await post('{"jsonrpc": "2.0", "method": ');
    assert.equal(res.status, 401, await res.text());
    assert.match(res.headers.get('www-authenticate') ?? '', /Bearer/);
  });

  it('a 4 MiB JSON body without a token gets 401 as well', async () => {
    const res = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(4 * 1024 * 1024) } }));
    assert.equal(res.status, 401);
    await res.arrayBuffer();
  });

  it('a client with the token is served as before', async () => {
    const res = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
      }),
      { authorization: `Bearer ${TOKEN}` },
    );
    assert.equal(res.status, 200, await res.clone().text());
    assert.match(await res.text(), /"serverInfo"/);
  });
});
