// A server asking for input in the middle of a call (MCP elicitation), through mcp-call-tool: the
// request leaves on output 2 as {topic:"input", payload:{message, schema|url}, input:{id}}, the
// flow's answer comes back as msg.input = {id, action, content}, is checked against the requested
// schema, and the call goes on with it. On both protocol eras against the server SDK's own server:
// 2025 revisions over stdio (elicitation/create while the call is open, on the shared pipe) and
// 2026-07-28 over HTTP (input_required, then the call retried with the answers).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ORDER_FORM, startAskingServer, type AskingServer } from '../peers/asking-server';
import { captureLogs, helper, load, nextMessage, nextMessageWithTopic, send, startRuntime, stopRuntime } from '../helpers/runtime';

const STDIO = { transport: 'stdio', command: process.execPath, args: ['--import', 'tsx', join(__dirname, '../peers/asking-stdio.ts')] };

for (const era of ['2025-06-18', '2026-07-28']) {
  describe(`mcp-call-tool: input requests (protocol ${era}, ${era < '2026' ? 'stdio' : 'HTTP'})`, function () {
    this.timeout(30000);
    let peer: AskingServer;
    before(async () => {
      await startRuntime();
      peer = await startAskingServer();
    });
    after(async () => {
      await stopRuntime();
      await peer.close();
    });
    afterEach(() => helper.unload());

    const flow = (tool: string, inputTimeout: number, timeout: string, second: string[]) => [
      { id: 'srv', type: 'mcp-server', protocolVersion: era, ...(era < '2026' ? STDIO : { transport: 'http', url: peer.url }) },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', tool, inputTimeout, timeout, wires: [['out'], second] },
      { id: 'out', type: 'helper' },
      { id: 'asked', type: 'helper' },
      { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', type: 'helper' },
    ];

    async function deploy(tool: string, inputTimeout = 30, timeout = '', second: string[] = ['asked']): Promise<void> {
      await load(flow(tool, inputTimeout, timeout, second));
    }

    async function ask(tool: string, args: Record<string, unknown>): Promise<{ request: any; result: Promise<any> }> {
      // Progress passes by on the same output: the SDK reports each round of input it fulfils.
      const asked = nextMessageWithTopic('asked', 'input');
      const result = nextMessage('out');
      send('call', { payload: args });
      return { request: await asked, result };
    }

    it('the request leaves on output 2; an accepted, valid answer reaches the server and the call completes', async () => {
      await deploy('order');
      const { request, result } = await ask('order', { item: 'lamps' });
      assert.equal(request.topic, 'input');
      assert.equal(request.payload.message, 'How many lamps?');
      assert.equal(request.payload.mode, 'form');
      assert.deepEqual(request.payload.schema.required, ORDER_FORM.required);
      assert.equal(request.mcp.tool, 'order');
      assert.equal(typeof request.input.id, 'string');
      send('call', { input: { id: request.input.id, action: 'accept', content: { confirm: true, quantity: 3 } } });
      assert.equal((await result).payload, 'ordered 3', 'the server received the quantity');
    });

    it('an answer that does not match the requested schema goes to Catch and the request keeps waiting', async () => {
      await deploy('order');
      const { request, result } = await ask('order', { item: 'chairs' });
      const caught = nextMessage('caught');
      send('call', { input: { id: request.input.id, action: 'accept', content: { confirm: true, quantity: 12 } } });
      const error = (await caught).error;
      assert.match(error.message, /does not match the requested schema/);
      assert.match(error.message, /quantity/);
      send('call', { input: { id: request.input.id, action: 'accept', content: { confirm: true, quantity: 2 } } });
      assert.equal((await result).payload, 'ordered 2');
    });

    it('a decline is passed on; a second answer to the same request is refused, naming why', async () => {
      await deploy('order');
      const { request, result } = await ask('order', { item: 'desks' });
      send('call', { input: { id: request.input.id, action: 'decline' } });
      assert.equal((await result).payload, 'not done: decline');
      const caught = nextMessage('caught');
      send('call', { input: { id: request.input.id, action: 'accept', content: { confirm: true, quantity: 1 } } });
      assert.match((await caught).error.message, /no call waits for input .* answered already/);
    });

    it('no answer within the input wait declines, and nothing is left waiting', async () => {
      await deploy('order', 0.3);
      const { request, result } = await ask('order', { item: 'rugs' });
      assert.equal((await result).payload, 'not done: decline', 'the server received a decline');
      // The timed-out request is gone: a late answer finds nothing to answer.
      const caught = nextMessage('caught');
      send('call', { input: { id: request.input.id, action: 'accept', content: { confirm: true, quantity: 1 } } });
      assert.match((await caught).error.message, /no call waits for input/);
    });

    it('with nothing wired to output 2 the request is declined at once, not after the input wait, and said once; once wired, the next one goes out', async () => {
      // An input wait of ten minutes: only an immediate decline finishes within the test's time.
      await deploy('order', 600, '', []);
      const logs = captureLogs();
      const results = [nextMessage('out')];
      send('call', { payload: { item: 'shelves' } });
      assert.equal((await results[0]).payload, 'not done: decline', 'the server received a decline');
      const second = nextMessage('out');
      send('call', { payload: { item: 'stools' } });
      assert.equal((await second).payload, 'not done: decline');
      const said = logs.lines().filter((l) => l.includes('nothing is wired to output 2'));
      assert.equal(said.length, 1, `one warning per deploy: ${said.join(' | ')}`);
      assert.match(said[0], /How many shelves\?/);

      // The wires are read at each call: the node Node-RED rewires (a deploy that changes only wires
      // calls updateWires on the running node) sends its next request out of output 2.
      helper.getNode('call').updateWires([['out'], ['asked']]);
      const { request, result } = await ask('order', { item: 'benches' });
      send('call', { input: { id: request.input.id, action: 'accept', content: { confirm: true, quantity: 4 } } });
      assert.equal((await result).payload, 'ordered 4');
    });

    it("a person may answer after the call's own timeout: the call's clock stands still while input waits", async () => {
      await deploy('order', 30, '1');
      const { request, result } = await ask('order', { item: 'vases' });
      await new Promise((r) => setTimeout(r, 1500)); // the person takes longer than the call's 1 s
      send('call', { input: { id: request.input.id, action: 'accept', content: { confirm: true, quantity: 5 } } });
      assert.equal((await result).payload, 'ordered 5');
    });

    it('URL mode: the flow gets the URL to open and accepts once the person is done', async () => {
      await deploy('sign_in');
      const { request, result } = await ask('sign_in', {});
      assert.equal(request.payload.mode, 'url');
      assert.equal(request.payload.url, 'https://auth.example/sign-in?session=42');
      assert.equal(request.payload.schema, undefined);
      send('call', { input: { id: request.input.id, action: 'accept' } });
      assert.equal((await result).payload, 'signed in');
    });

    it('an unknown action is refused with the actions there are', async () => {
      await deploy('order');
      const { request, result } = await ask('order', { item: 'beds' });
      const caught = nextMessage('caught');
      send('call', { input: { id: request.input.id, action: 'maybe' } });
      assert.match((await caught).error.message, /action must be one of accept, decline, cancel/);
      send('call', { input: { id: request.input.id, action: 'cancel' } });
      assert.equal((await result).payload, 'not done: cancel');
    });
  });
}
