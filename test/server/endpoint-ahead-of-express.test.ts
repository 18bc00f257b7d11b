// An mcp-endpoint in a real Node-RED process answers its path from Node-RED's HTTP server before
// Express (the editor's API and httpNode's router cost more per call than the endpoint itself),
// but only while nothing the user configured runs in front of httpNode routes: with httpNodeMiddleware
// (or httpNodeAuth, requireHttps) every request meets it, as a flow's `http in` does.
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { deployFlows, startNodeRed, type NodeRedProcess } from '../browser/node-red-process';
import { nothingInFrontOfHttpNode } from '../../nodes/mcp-endpoint/ahead-of-express';

const TOKEN = 'tok-ahead-7c1e';
const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

/** The endpoint with an echo tool, and an `http in` route beside it on /hello. */
const flows = (withEndpoint: boolean) => [
  { id: 'tab', type: 'tab', label: 'tools' },
  ...(withEndpoint
    ? [
        { id: 'ep', type: 'mcp-endpoint', path: '/mcp', credentials: { tokens: TOKEN } },
        { id: 'in', type: 'mcp-tool-in', z: 'tab', endpoint: 'ep', name: 'echo', inputSchema: schema, wires: [['out']] },
        { id: 'out', type: 'mcp-tool-out', z: 'tab', wires: [] },
      ]
    : []),
  { id: 'hi', type: 'http in', z: 'tab', url: '/hello', method: 'get', wires: [['hi-set']] },
  { id: 'hi-set', type: 'change', z: 'tab', rules: [{ t: 'set', p: 'payload', pt: 'msg', to: 'hello', tot: 'str' }], wires: [['hi-out']] },
  { id: 'hi-out', type: 'http response', z: 'tab', wires: [] },
];

/** Calls echo with the real SDK client, keeping the headers of every answer the endpoint gave. */
async function callEcho(nodeRed: NodeRedProcess): Promise<{ text: string; headers: Headers[] }> {
  const headers: Headers[] = [];
  const transport = new StreamableHTTPClientTransport(new URL('mcp', nodeRed.url), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      headers.push(res.headers);
      return res;
    },
  });
  const client = new Client({ name: 'ahead-of-express', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } } as never);
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi there' } });
    return { text: (result.structuredContent as { text: string }).text, headers };
  } finally {
    await client.close();
  }
}

/** Retries until the freshly deployed endpoint answers (a deploy returns before its nodes have started). */
async function eventually<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i > 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const hello = async (nodeRed: NodeRedProcess) => {
  const res = await fetch(new URL('hello', nodeRed.url));
  return `${res.status} ${await res.text()}`;
};

describe('mcp-endpoint answers ahead of Express when nothing guards httpNode', function () {
  this.timeout(60_000);

  describe('default settings (with an httpAdminMiddleware that marks what passes the editor API)', () => {
    let nodeRed: NodeRedProcess;
    before(async () => {
      nodeRed = await startNodeRed(undefined, {
        settingsCode: `{ httpAdminMiddleware: (req, res, next) => { res.setHeader('x-editor-api', 'passed'); next(); } }`,
      });
      await deployFlows(nodeRed, flows(true));
    });
    after(() => nodeRed?.stop());

    it('serves the tool without passing the editor API, keeping the editor CORS header MCP clients got before', async () => {
      const { text, headers } = await eventually(() => callEcho(nodeRed));
      assert.equal(text, 'hi there');
      assert.ok(headers.length >= 1);
      for (const h of headers) {
        assert.equal(h.get('x-editor-api'), null, 'an MCP answer passed the editor API');
        assert.equal(h.get('access-control-allow-origin'), '*');
      }
      // The marker is real: everything else still passes the editor API.
      const settings = await fetch(new URL('settings', nodeRed.url));
      assert.equal(settings.headers.get('x-editor-api'), 'passed');
      assert.equal(await hello(nodeRed), '200 hello');
    });

    it('refuses a caller without a token on its headers, before any editor body parser (no skip-editor-parsing needed)', async () => {
      const res = await fetch(new URL('mcp', nodeRed.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc": "2.0", "method": ',
      });
      assert.equal(res.status, 401, await res.clone().text());
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /);
      assert.equal(res.headers.get('x-editor-api'), null);
      await res.arrayBuffer();
    });

    it('hands the path back to Express when the endpoint is removed, and takes it again when it returns', async () => {
      await deployFlows(nodeRed, flows(false));
      const gone = await eventually(async () => {
        const res = await fetch(new URL('mcp', nodeRed.url), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: '{}' });
        if (res.status !== 404) throw new Error(`still ${res.status}`);
        return res;
      });
      assert.equal(gone.headers.get('x-editor-api'), 'passed', 'the 404 is Express answering');
      // The /mcp 404 can come while the deploy is still starting the new flow's `http in`.
      const helloAgain = await eventually(async () => {
        const answer = await hello(nodeRed);
        if (answer !== '200 hello') throw new Error(answer);
        return answer;
      });
      assert.equal(helloAgain, '200 hello');
      await deployFlows(nodeRed, flows(true));
      const { text, headers } = await eventually(() => callEcho(nodeRed));
      assert.equal(text, 'hi there');
      assert.equal(headers[0].get('x-editor-api'), null);
    });
  });

  describe('with httpNodeMiddleware set', () => {
    let nodeRed: NodeRedProcess;
    before(async () => {
      nodeRed = await startNodeRed(undefined, {
        settingsCode: `{ httpNodeMiddleware: (req, res, next) => {
          if (req.headers['x-deny']) return res.status(418).json({ error: 'refused by httpNodeMiddleware' });
          res.setHeader('x-node-middleware', 'passed');
          next();
        } }`,
      });
      await deployFlows(nodeRed, flows(true));
    });
    after(() => nodeRed?.stop());

    it('lets the middleware see every MCP request and refuse one', async () => {
      const { text, headers } = await eventually(() => callEcho(nodeRed));
      assert.equal(text, 'hi there');
      for (const h of headers) assert.equal(h.get('x-node-middleware'), 'passed');
      const denied = await fetch(new URL('mcp', nodeRed.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-deny': '1' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      assert.equal(denied.status, 418);
      assert.deepEqual(await denied.json(), { error: 'refused by httpNodeMiddleware' });
    });
  });

  it('counts every setting that runs in front of httpNode routes', () => {
    assert.equal(nothingInFrontOfHttpNode({} as never), true);
    // core's http in applies httpNodeCors per route; the endpoint never had it
    assert.equal(nothingInFrontOfHttpNode({ httpNodeCors: { origin: '*' } } as never), true);
    for (const setting of ['httpNodeAuth', 'httpNodeMiddleware', 'requireHttps']) {
      assert.equal(nothingInFrontOfHttpNode({ [setting]: { user: 'u' } } as never), false, setting);
    }
  });
});
