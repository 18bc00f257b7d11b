// An mcp-endpoint in a real Node-RED process answers its path from Node-RED's HTTP server before
// Express (the editor's API and httpNode's router cost more per call than the endpoint itself),
// but only while nothing the user configured would run in front of it: with httpNodeMiddleware (or
// httpNodeAuth, or beneath the editor's root httpAdminMiddleware, httpAdminAuth, requireHttps,
// httpAdminCors) every request meets it, as a flow's `http in` does.
import { createServer } from 'node:http';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { retrying } from '../helpers/wait';
import { isNodeRedsOwnServer, whatRunsInFront } from '../../nodes/shared/ahead-of-express';
import skipEditorParsing from '../../nodes/mcp-endpoint/skip-editor-parsing';

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
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', nodeRed.url), {
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

/** A Node-RED process for the enclosing describe, with these settings added and the flow deployed; stopped after it. */
function nodeRedFor(settingsCode?: string): () => NodeRedProcess {
  let nodeRed: NodeRedProcess | undefined;
  before(async () => {
    nodeRed = await startNodeRed({ installed: settingsCode ? { settingsCode } : {} });
    await nodeRed.deploy(flows(true));
  });
  after(() => nodeRed?.stop());
  return () => nodeRed!;
}

const hello = async (nodeRed: NodeRedProcess) => {
  const res = await fetch(new URL('/hello', nodeRed.url));
  return `${res.status} ${await res.text()}`;
};

describe('mcp-endpoint answers ahead of Express when nothing guards httpNode', function () {
  this.timeout(60_000);

  describe("Node-RED's default settings", () => {
    const nodeRed = nodeRedFor();

    it('serves the tool, keeping the editor CORS header MCP clients got before', async () => {
      const { text, headers } = await retrying(() => callEcho(nodeRed()));
      assert.equal(text, 'hi there');
      assert.ok(headers.length >= 1);
      for (const h of headers) assert.equal(h.get('access-control-allow-origin'), '*');
      assert.equal(await hello(nodeRed()), '200 hello');
    });

    it('refuses a caller without a token on its headers, before any editor body parser (no skip-editor-parsing needed)', async () => {
      const res = await fetch(new URL('/mcp', nodeRed().url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc": "2.0", "method": ',
      });
      // On the Express way the editor API's JSON parser answered this with its 400 error page.
      assert.equal(res.status, 401, await res.clone().text());
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /);
      await res.arrayBuffer();
    });

    it('hands the path back to Express when the endpoint is removed, and takes it again when it returns', async () => {
      await nodeRed().deploy(flows(false));
      const gone = await retrying(async () => {
        const res = await fetch(new URL('/mcp', nodeRed().url), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: '{}' });
        if (res.status !== 404) throw new Error(`still ${res.status}`);
        return res.text();
      });
      assert.match(gone, /Cannot POST \/mcp/, 'the 404 is Express answering');
      // The /mcp 404 can come while the deploy is still starting the new flow's `http in`.
      const helloAgain = await retrying(async () => {
        const answer = await hello(nodeRed());
        if (answer !== '200 hello') throw new Error(answer);
        return answer;
      });
      assert.equal(helloAgain, '200 hello');
      await nodeRed().deploy(flows(true));
      const { text, headers } = await retrying(() => callEcho(nodeRed()));
      assert.equal(text, 'hi there');
      assert.equal(headers[0].get('access-control-allow-origin'), '*');
    });
  });

  describe('with an httpAdminMiddleware of the user (the editor is at "/", so it sees every request)', () => {
    const nodeRed = nodeRedFor(`{ httpAdminMiddleware: (req, res, next) => { res.setHeader('x-editor-api', 'passed'); next(); } }`);

    it('keeps the Express way, so the middleware still meets every MCP request', async () => {
      const { text, headers } = await retrying(() => callEcho(nodeRed()));
      assert.equal(text, 'hi there');
      for (const h of headers) assert.equal(h.get('x-editor-api'), 'passed');
    });
  });

  describe('with httpNodeMiddleware set', () => {
    const nodeRed = nodeRedFor(`{ httpNodeMiddleware: (req, res, next) => {
      if (req.headers['x-deny']) return res.status(418).json({ error: 'refused by httpNodeMiddleware' });
      res.setHeader('x-node-middleware', 'passed');
      next();
    } }`);

    it('lets the middleware see every MCP request and refuse one', async () => {
      const { text, headers } = await retrying(() => callEcho(nodeRed()));
      assert.equal(text, 'hi there');
      for (const h of headers) assert.equal(h.get('x-node-middleware'), 'passed');
      const denied = await fetch(new URL('/mcp', nodeRed().url), {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-deny': '1' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      assert.equal(denied.status, 418);
      assert.deepEqual(await denied.json(), { error: 'refused by httpNodeMiddleware' });
    });
  });

  it('names every setting that would meet the endpoint on the Express way', () => {
    const front = (settings: Record<string, unknown>, path = '/mcp') => whatRunsInFront({ httpAdminRoot: '/', ...settings } as never, path);
    assert.deepEqual(front({}), []);
    // core's http in applies httpNodeCors per route; the endpoint never had it
    assert.deepEqual(front({ httpNodeCors: { origin: '*' } }), []);
    const user = () => undefined;
    for (const [setting, value] of [
      ['httpNodeAuth', { user: 'u', pass: 'p' }],
      ['httpNodeMiddleware', user],
      ['httpAdminAuth', { user: 'u', pass: 'p' }],
      ['httpAdminCors', { origin: 'https://example.org' }],
      ['requireHttps', true],
      ['httpAdminMiddleware', user],
    ] as const) {
      assert.deepEqual(front({ [setting]: value }), [setting], setting);
    }
    // The editor's settings do not reach a path outside its root; the httpNode ones do.
    assert.deepEqual(front({ httpAdminRoot: '/admin', httpAdminMiddleware: user, requireHttps: true }), []);
    assert.deepEqual(front({ httpAdminRoot: false, httpAdminAuth: { user: 'u' } }), []);
    assert.deepEqual(front({ httpAdminRoot: '/admin', httpNodeAuth: { user: 'u' } }), ['httpNodeAuth']);
    assert.deepEqual(front({ httpAdminRoot: '/admin', httpAdminAuth: { user: 'u' } }, '/admin/mcp'), ['httpAdminAuth']);
    // skip-editor-parsing (what the docs and npm start use) guards nothing.
    assert.deepEqual(front({ httpAdminMiddleware: skipEditorParsing }), []);
    assert.deepEqual(front({ httpAdminMiddleware: [skipEditorParsing] }), []);
    assert.deepEqual(front({ httpAdminMiddleware: [skipEditorParsing, user] }), ['httpAdminMiddleware']);
  });

  it("takes over only the server Node-RED's own red.js made, never an application's that embeds Node-RED", () => {
    const app = (_req: unknown, res: { end(): void }) => res.end();
    // red.js: http.createServer(function(req,res) {app(req,res);})
    // prettier-ignore
    const redJs = createServer(function(req,res) {app(req,res);});
    assert.equal(isNodeRedsOwnServer(redJs), true);
    assert.equal(isNodeRedsOwnServer(createServer((req, res) => app(req, res))), false);
    assert.equal(isNodeRedsOwnServer(createServer(app)), false);
  });
});
