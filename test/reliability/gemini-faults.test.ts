// A hostile Gemini (test/peers/fake-gemini speaking the real REST wire format to the real
// @google/genai client) through the real runtime: 500s, an unreadable answer, an endless stream, a
// model that keeps calling a tool that does not exist, and an API host that does not resolve.
// Every prompt ends at Catch within the node's timeout, and "could not reach" is told apart from
// "reached, but the answer is unreadable".
import assert from 'node:assert/strict';
import { reply, startFakeGemini, type FakeGemini } from '../peers/fake-gemini';
import { helper, load, nextMessage, send, startRuntime, stopRuntime } from '../helpers/runtime';

const geminiAgentNode = require('../../nodes/gemini-agent/index.ts');
const KEY = 'AIzaSy-reliability-key-0123456789';

describe('hostile Gemini: every prompt ends at Catch with a message that says what happened', function () {
  this.timeout(60000);
  let gemini: FakeGemini;
  before(async () => {
    await startRuntime();
    gemini = await startFakeGemini({ apiKey: KEY });
  });
  after(async () => {
    await gemini.close();
    await stopRuntime();
  });
  afterEach(() => helper.unload());

  async function agent(settings: Record<string, unknown>): Promise<void> {
    await load(
      [
        { id: 'agent', type: 'gemini-agent', baseUrl: gemini.url, model: 'gemini-2.5-flash', servers: [], timeout: 5, ...settings, wires: [['out'], []] },
        { id: 'out', type: 'helper' },
        { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
        { id: 'caught', type: 'helper' },
      ],
      { agent: { apiKey: KEY } },
      [geminiAgentNode],
    );
  }

  async function failureOf(prompt = 'hello'): Promise<string> {
    const caught = nextMessage('caught');
    send('agent', { payload: prompt });
    return (await caught).error.message;
  }

  it("a 500 names the status and Gemini's own message", async () => {
    await agent({});
    gemini.script(reply.error(500, 'INTERNAL', 'An internal error has occurred.'));
    assert.match(await failureOf(), /Gemini API error 500 INTERNAL: An internal error has occurred\./);
  });

  for (const stream of [false, true]) {
    it(`an unreadable answer (${stream ? 'streamed' : 'whole'}) says Gemini answered, not that it could not be reached`, async () => {
      await agent({ stream });
      gemini.script(reply.unreadable());
      const message = await failureOf();
      assert.match(message, new RegExp(`Gemini at ${gemini.url}/v1beta/models/gemini-2\\.5-flash answered, but the answer is unreadable`));
      assert.match(message, /check that the base URL points at the Gemini API/);
      assert.doesNotMatch(message, /Cannot reach/);
    });
  }

  it('an endless stream ends at the configured timeout', async () => {
    await agent({ stream: true, timeout: 2 });
    gemini.script(reply.endless(50));
    assert.match(await failureOf(), /Gemini did not answer within 2 s/);
  });

  it('a model that keeps calling a missing tool stops at maxSteps, with the trace', async () => {
    await agent({ maxSteps: 3 });
    gemini.script(reply.call('no_such_tool'), reply.call('no_such_tool'), reply.call('no_such_tool'));
    const caught = nextMessage('caught');
    send('agent', { payload: 'do it' });
    const msg = await caught;
    assert.match(msg.error.message, /Gemini still wanted to call no_such_tool after 3 model turns \(maxSteps\)/);
    assert.equal(msg.gemini.steps.length, 3, 'the partial trace travels with the error');
    // What the model was told about the missing tool on the way (it could have corrected itself).
    const told = JSON.stringify(gemini.requests[gemini.requests.length - 1].body.contents);
    assert.match(told, /no_such_tool/);
  });

  it('an API host that does not resolve: "Cannot reach Gemini" with the code and what to check', async () => {
    await agent({ baseUrl: 'http://gemini-api.nonexistent.invalid' });
    const message = await failureOf();
    assert.match(message, /Cannot reach Gemini at http:\/\/gemini-api\.nonexistent\.invalid\/v1beta\/models\/gemini-2\.5-flash: .*\((ENOTFOUND|EAI_AGAIN)\)/);
    assert.match(message, /does not resolve, check the base URL and DNS/);
  });
});
