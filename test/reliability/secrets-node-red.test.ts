// Secrets through the real Node-RED runtime: a server that echoes the bearer token and a secret
// header into its answers and error bodies, and a fake Gemini whose answer contains the API key.
// The secrets must appear nowhere observable: output and Catch messages, status, the runtime log
// and our admin routes. GET /flows and GET /credentials: secrets-red-process.test.ts (a real red.js). The peer proves they were really sent.
import assert from 'node:assert/strict';
import { startHostileHttpServer, type HostileHttpServer } from '../peers/hostile-http-server';
import { reply, startFakeGemini, type FakeGemini } from '../peers/fake-gemini';
import { fromRuntime, helper, load, nextMessage, send, startRuntime, stopRuntime } from '../helpers/runtime';

const TOKEN = 'tok-7f3a9c1e-SECRET-bearer';
const API_KEY_HEADER = 'hdr-5d2b8e44-SECRET-apikey';
const GEMINI_KEY = 'AIzaSy-gemini-SECRET-3e9d0c';
const ALL = [TOKEN, API_KEY_HEADER, GEMINI_KEY];

const statusNode = require(fromRuntime('@node-red/nodes/core/common/25-status.js'));
const geminiAgentNode = require('../../nodes/gemini-agent/index.ts');

function assertClean(what: string, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const s of ALL) {
    assert.ok(!text.includes(s), `${what} contains a secret: ${text.slice(0, 400)}`);
    assert.ok(!text.includes(encodeURIComponent(s)), `${what} contains a URL-encoded secret`);
  }
}

describe('secrets stay out of everything observable (real runtime)', function () {
  this.timeout(60000);
  let peer: HostileHttpServer;
  let gemini: FakeGemini;
  const statuses: unknown[] = [];

  before(async () => {
    await startRuntime();
    peer = await startHostileHttpServer();
    gemini = await startFakeGemini({ apiKey: GEMINI_KEY });
  });
  after(async () => {
    await peer?.stop();
    await gemini?.close();
    await stopRuntime();
  });

  beforeEach(async () => {
    peer.mode = 'ok';
    await load(
      [
        { id: 'srv', type: 'mcp-server', transport: 'http', url: peer.url, headers: { 'X-Plain': 'visible' }, timeout: 5 },
        { id: 'call', type: 'mcp-call-tool', server: 'srv', tool: 'whoami', wires: [['out'], []] },
        { id: 'agent', type: 'gemini-agent', baseUrl: gemini.url, model: 'gemini-2.5-flash', servers: [], wires: [['out'], []] },
        { id: 'out', type: 'helper' },
        { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
        { id: 'caught', type: 'helper' },
        { id: 'watch', type: 'status', scope: null, wires: [['statuses']] },
        { id: 'statuses', type: 'helper' },
      ],
      {
        srv: { token: TOKEN, secrets: JSON.stringify({ headers: { 'X-Api-Key': API_KEY_HEADER } }), secretNames: JSON.stringify({ headers: ['X-Api-Key'] }) },
        agent: { apiKey: GEMINI_KEY },
      },
      [statusNode, geminiAgentNode],
    );
    helper.getNode('statuses').on('input', (msg: any) => statuses.push(msg.status));
  });

  afterEach(() => {
    const lines = helper.log().args.map((a: any[]) => a[0]); // every log event of this test's runtime
    assertClean('the runtime log', lines);
    assertClean('a node status', statuses);
  });

  it('a tool answer that echoes the token and a secret header reaches the flow masked', async () => {
    const out = nextMessage('out');
    send('call', { payload: {} });
    const msg = await out;
    assert.equal(peer.lastHeaders.authorization, `Bearer ${TOKEN}`, 'the token was sent');
    assert.equal(peer.lastHeaders['x-api-key'], API_KEY_HEADER, 'the secret header was sent');
    assert.equal(peer.lastHeaders['x-plain'], 'visible');
    assert.match(msg.payload, /authorization=Bearer \*\*\* x-api-key=\*\*\*/);
    assertClean('the output message', msg);
  });

  it('an HTTP 500 whose body echoes the credentials reaches Catch masked, with the status code', async () => {
    const first = nextMessage('out');
    send('call', { payload: {} }); // the session is up: the next failure is a plain POST's error body
    await first;
    peer.mode = 'echo-headers';
    const caught = nextMessage('caught');
    send('call', { payload: {} });
    const msg = await caught;
    assert.match(msg.error.message, /HTTP 500/);
    assert.match(msg.error.message, /Bearer \*\*\*/);
    assertClean('the Catch message', msg);
  });

  it('a Gemini answer containing the API key is masked, and so is an error echoing it', async () => {
    gemini.script(reply.text(`Sure, your key is ${GEMINI_KEY} and url-encoded ${encodeURIComponent(GEMINI_KEY)}`));
    const out = nextMessage('out');
    send('agent', { payload: 'what is my key?' });
    const msg = await out;
    assert.match(msg.payload, /your key is \*\*\*/);
    assertClean('the agent answer', msg);

    gemini.script(reply.error(400, 'INVALID_ARGUMENT', `API key ${GEMINI_KEY} is not allowed here`));
    const caught = nextMessage('caught');
    send('agent', { payload: 'again' });
    const err = await caught;
    assert.match(err.error.message, /API key \*\*\* is not allowed/);
    assertClean('the agent error', err);
  });

  it('our admin routes never carry a secret, stored or typed into the dialog', async () => {
    const tools = await helper.request().get('/mcp-server/srv/tools');
    assert.equal(tools.status, 200, tools.text);
    assert.ok(tools.body.tools.some((t: any) => t.name === 'whoami'));
    peer.mode = 'echo-headers';
    const test = await helper
      .request()
      .post('/mcp-server/test')
      .send({ id: 'srv', config: { transport: 'http', url: peer.url }, token: '__PWRD__' })
      .expect(200);
    assert.equal(test.body.ok, false);
    assert.match(test.body.error, /HTTP 500/);
    assertClean('POST /mcp-server/test', test.text);
    const typed = 'typed-in-dialog-SECRET-99';
    const typedTest = await helper
      .request()
      .post('/mcp-server/test')
      .send({ config: { transport: 'http', url: peer.url }, token: typed })
      .expect(200);
    assert.ok(!typedTest.text.includes(typed), typedTest.text);
  });
});
