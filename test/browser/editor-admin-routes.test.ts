// The admin routes behind the editor's dropdowns, warnings and Test connection, through
// helper.request() against the real runtime and the Home Assistant stand-in: deployed servers
// answer from their session, undeployed settings through a one-off connection, and the token the
// editor never holds (the "__PWRD__" placeholder) is taken from the stored credential.
import assert from 'node:assert/strict';
import { helper, load, useRuntimeWithHomeAssistant } from '../helpers/runtime';

describe('editor admin routes (mcp-server tools and test)', function () {
  this.timeout(30000);
  const peers = useRuntimeWithHomeAssistant();
  beforeEach(async () => {
    await load([{ id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: peers.ha.url }], { ha: { token: peers.ha.token } });
  });

  it("GET mcp-server/:id/tools lists a deployed server's 19 tools, with compiler warnings for a format", async () => {
    const plain = await helper.request().get('/mcp-server/ha/tools').expect(200);
    assert.equal(plain.body.tools.length, 19);
    assert.deepEqual(plain.body.warnings ?? [], [], 'a clean list has no warnings');
    const compiled = await helper.request().get('/mcp-server/ha/tools?format=gemini-schema').expect(200);
    assert.ok(compiled.body.warnings.length > 0, 'HA schemas use what Gemini Schema cannot express');
    for (const w of compiled.body.warnings) assert.deepEqual(Object.keys(w).sort(), ['message', 'path', 'tool']);
    assert.equal(compiled.body.names.HassTurnOn, 'HassTurnOn');
  });

  it('GET mcp-server/:id/tools answers 404 with what to do for a server that is not deployed', async () => {
    const res = await helper.request().get('/mcp-server/not-deployed/tools').expect(404);
    assert.match(res.body.error, /deploy/);
  });

  it('POST mcp-server/tools lists tools from undeployed settings and a typed token', async () => {
    const res = await helper
      .request()
      .post('/mcp-server/tools')
      .send({ id: 'new-server', config: { transport: 'http', url: peers.ha.url }, token: peers.ha.token, format: 'openai' })
      .expect(200);
    assert.equal(res.body.tools.length, 19);
    assert.ok(Array.isArray(res.body.warnings));
    assert.equal(res.body.server.serverInfo.name, 'home-assistant');
  });

  it('POST mcp-server/tools with the password placeholder uses the stored credential of that node', async () => {
    const res = await helper
      .request()
      .post('/mcp-server/tools')
      .send({ id: 'ha', config: { transport: 'http', url: peers.ha.url }, token: '__PWRD__' })
      .expect(200);
    assert.equal(res.body.tools.length, 19);
    const sent = peers.ha.requests.filter((r) => r.rpcMethod === 'tools/list').at(-1)!;
    assert.equal(sent.headers.authorization, `Bearer ${peers.ha.token}`);
  });

  it('POST mcp-server/tools and mcp-server/test give the exact error for a wrong token, without echoing it', async () => {
    const tools = await helper
      .request()
      .post('/mcp-server/tools')
      .send({ id: 'other', config: { transport: 'http', url: peers.ha.url }, token: 'wrong-token-123' })
      .expect(502);
    assert.match(tools.body.error, /401/);
    assert.doesNotMatch(JSON.stringify(tools.body), /wrong-token-123/);
    const test = await helper
      .request()
      .post('/mcp-server/test')
      .send({ id: 'other', config: { transport: 'http', url: peers.ha.url }, token: 'wrong-token-123' })
      .expect(200);
    assert.equal(test.body.ok, false);
    assert.match(test.body.error, /401/);
    assert.doesNotMatch(JSON.stringify(test.body), /wrong-token-123/);
  });

  it('POST mcp-server/test reports server name, protocol version and tool count', async () => {
    const res = await helper
      .request()
      .post('/mcp-server/test')
      .send({ id: 'ha', config: { transport: 'http', url: peers.ha.url }, token: '__PWRD__' })
      .expect(200);
    assert.equal(res.body.ok, true);
    assert.equal(res.body.toolCount, 19);
    assert.equal(res.body.serverInfo.name, 'home-assistant');
    assert.match(res.body.protocolVersion, /^\d{4}-\d{2}-\d{2}$/);
  });
});
