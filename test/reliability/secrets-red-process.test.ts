// Secrets in a real Node-RED (red.js, started as `npm start` does) at debug log level: an MCP server
// that echoes the token, a secret header and a secret stdio env value into answers and error
// bodies. Neither the debug sidebar (messages, Catch, status), the process log, GET /flows, the
// editor's GET /credentials nor our admin routes may carry them; the flow on disk holds the names
// only as plain settings, never the values.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHostileHttpServer, type HostileHttpServer } from '../peers/hostile-http-server';
import { startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';

const TOKEN = 'tok-91c2e7-SECRET-bearer';
const API_KEY_HEADER = 'hdr-0b7d4f-SECRET-apikey';
const ENV_SECRET = 'env-6a1f3c-SECRET-github';
const ALL = [TOKEN, API_KEY_HEADER, ENV_SECRET];

function assertClean(what: string, text: string): void {
  for (const s of ALL) assert.ok(!text.includes(s) && !text.includes(encodeURIComponent(s)), `${what} contains ${s}:\n${text.slice(0, 600)}`);
}

// A stdio server that prints its secret env value on stderr and in its only tool's answer.
const LEAKY_STDIO = `
const { McpServer } = require('@modelcontextprotocol/server');
const { StdioServerTransport } = require('@modelcontextprotocol/server/stdio');
const server = new McpServer({ name: 'leaky', version: '1.0.0' });
server.registerTool('leak', { description: 'prints its token' }, async () => ({ content: [{ type: 'text', text: 'token=' + process.env.GITHUB_TOKEN }] }));
console.error('starting with GITHUB_TOKEN=' + process.env.GITHUB_TOKEN);
server.connect(new StdioServerTransport());
`;

describe('secrets in a real Node-RED process (red.js)', function () {
  this.timeout(120000);
  let peer: HostileHttpServer;
  let nr: NodeRedProcess;

  before(async () => {
    peer = await startHostileHttpServer();
    nr = await startNodeRed({ env: { NODE_RED_LOG_LEVEL: 'debug' } });
  });
  after(async () => {
    await nr?.stop();
    await peer?.stop();
  });

  it('masks echoed secrets everywhere and keeps them out of /flows, /credentials and flows.json', async () => {
    const flow: FlowNode[] = [
      { id: 'tab', type: 'tab', label: 'secrets' },
      {
        id: 'httpServer',
        type: 'mcp-server',
        transport: 'http',
        url: peer.url,
        headers: '{"X-Plain":"visible"}',
        timeout: 5,
        credentials: { token: TOKEN, secrets: JSON.stringify({ headers: { 'X-Api-Key': API_KEY_HEADER } }), secretNames: '{"headers":["X-Api-Key"]}' },
      },
      {
        id: 'stdioServer',
        type: 'mcp-server',
        transport: 'stdio',
        command: process.execPath,
        args: JSON.stringify(['-e', LEAKY_STDIO]),
        cwd: join(__dirname, '..', '..'),
        env: '{"PLAIN":"1"}',
        timeout: 10,
        credentials: { secrets: JSON.stringify({ env: { GITHUB_TOKEN: ENV_SECRET } }), secretNames: '{"env":["GITHUB_TOKEN"]}' },
      },
      { id: 'go', type: 'inject', z: 'tab', payload: '{}', payloadType: 'json', wires: [['callWhoami', 'callLeak']] },
      { id: 'callWhoami', type: 'mcp-call-tool', z: 'tab', server: 'httpServer', tool: 'whoami', wires: [['seen'], []] },
      { id: 'callLeak', type: 'mcp-call-tool', z: 'tab', server: 'stdioServer', tool: 'leak', wires: [['seen'], []] },
      { id: 'boom', type: 'inject', z: 'tab', payload: '{}', payloadType: 'json', wires: [['callWhoami']] },
      { id: 'catcher', type: 'catch', z: 'tab', scope: null, uncaught: false, wires: [['seen']] },
      { id: 'watch', type: 'status', z: 'tab', scope: null, wires: [['seen']] },
      { id: 'seen', type: 'debug', z: 'tab', active: true, tosidebar: true, complete: 'true', targetType: 'full' },
    ];
    await nr.deploy(flow);
    await nr.inject('go');
    const got = [
      await nr.debug.next('seen', (m) => /authorization=/.test(JSON.stringify(m.value))),
      await nr.debug.next('seen', (m) => /token=/.test(JSON.stringify(m.value))),
    ];
    assert.equal(peer.lastHeaders.authorization, `Bearer ${TOKEN}`, 'the token was sent');
    assert.equal(peer.lastHeaders['x-api-key'], API_KEY_HEADER, 'the secret header was sent');
    assert.match(JSON.stringify(got), /authorization=Bearer \*\*\* x-api-key=\*\*\*/);
    assert.match(JSON.stringify(got), /token=\*\*\*/, 'the stdio server got its secret env value and it came back masked');

    peer.mode = 'echo-headers';
    await nr.inject('boom');
    const caught = await nr.debug.next('seen', (m) => /HTTP 500/.test(JSON.stringify(m.value?.error ?? '')));
    assert.match(JSON.stringify(caught.value), /Bearer \*\*\*/);

    assertClean('the debug sidebar', JSON.stringify(nr.debug.messages.map((m) => m.raw)));
    assertClean('the Node-RED log', nr.log.join('\n'));
    assert.ok(
      nr.log.some((l) => l.includes('starting with GITHUB_TOKEN=***')),
      'the stdio stderr line is logged, masked',
    );
    const flows = await nr.request('GET', '/flows');
    assert.equal(flows.status, 200);
    assertClean('GET /flows', flows.text);
    assertClean('flows.json', readFileSync(join(nr.userDir, 'flows.json'), 'utf8'));
    const creds = await nr.request('GET', '/credentials/mcp-server/httpServer');
    assert.equal(creds.body.has_token, true);
    assert.equal(creds.body.has_secrets, true);
    assertClean('GET /credentials', creds.text);
    const tools = await nr.request('POST', '/mcp-server/test', { id: 'httpServer', config: { transport: 'http', url: peer.url }, token: '__PWRD__' });
    assert.match(tools.text, /HTTP 500/);
    assertClean('POST /mcp-server/test', tools.text);
  });
});
