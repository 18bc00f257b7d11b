// How gemini-agent surfaces Gemini's failures: HTTP errors reach a Catch node with Gemini's status
// and own message (unwrapped from the SDK's one or two levels of JSON), a blocked prompt is data on
// output 1, and the API key appears nowhere: not in messages, errors, status or logs.
import assert from 'node:assert/strict';
import { setEnv } from '../helpers/runtime';
import { reply } from '../peers/fake-gemini';
import { API_KEY, allLogs, errorText, collectSide, helper, loadAgent, run, type FakeGemini, useAgentPeers } from './harness';

describe('gemini-agent: Gemini errors and blocked prompts', function () {
  let fake: FakeGemini;
  const statuses: any[] = [];

  const peers = useAgentPeers({ homeAssistant: false });
  beforeEach(() => {
    ({ fake } = peers); // the name the tests below use
    statuses.length = 0;
  });

  async function load(agent: Record<string, unknown> = {}) {
    await loadAgent({ fake, agent });
    const node = helper.getNode('agent');
    const original = node.status.bind(node);
    node.status = (s: any) => {
      statuses.push(s);
      return original(s);
    };
  }

  it('surfaces a 429 with status and Gemini message to Catch, red ring', async () => {
    await load();
    fake.script(
      reply.error(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.', [
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '26s' },
      ]),
    );
    const { answer, caught } = await run({ payload: 'hi' });
    assert.equal(answer, undefined);
    assert.equal(errorText(caught), 'Gemini API error 429 RESOURCE_EXHAUSTED: You exceeded your current quota, please check your plan and billing details.');
    assert.deepEqual(statuses.at(-1), { fill: 'red', shape: 'ring', text: '429 quota exceeded' });
    assert.equal(fake.requests.length, 1, 'no hidden retries');
  });

  it('surfaces a 500 the same way', async () => {
    await load();
    fake.script(
      reply.error(500, 'INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting'),
    );
    const { caught } = await run({ payload: 'hi' });
    assert.match(errorText(caught), /^Gemini API error 500 INTERNAL: An internal error has occurred/);
  });

  it('unwraps the double-wrapped message of a streaming 400 (text/event-stream error body)', async () => {
    await load({ stream: true });
    const text = 'Invalid JSON payload received. Unknown name "additionalProperties" at \'tools[0].function_declarations[0].parameters\': Cannot find field.';
    fake.script(reply.error(400, 'INVALID_ARGUMENT', text));
    const { caught } = await run({ payload: 'hi' });
    assert.equal(errorText(caught), `Gemini API error 400 INVALID_ARGUMENT: ${text}`);
    assert.doesNotMatch(errorText(caught), /\{"error"/);
  });

  it('unwraps a mid-stream error event', async () => {
    await load({ stream: true });
    fake.script(reply.midStreamError(500, 'INTERNAL', 'Internal error'));
    const { caught } = await run({ payload: 'hi' });
    assert.equal(errorText(caught), 'Gemini API error 500 INTERNAL: Internal error');
  });

  it('names an unreachable endpoint and its cause', async () => {
    await fake.close();
    await load();
    const { caught } = await run({ payload: 'hi' });
    assert.match(errorText(caught), /Cannot reach Gemini at http:\/\/127\.0\.0\.1:\d+\/v1beta\/models\/gemini-3\.5-flash/);
    assert.match(errorText(caught), /ECONNREFUSED|fetch failed/);
  });

  it('gives up on a Gemini request after the timeout, naming it', async () => {
    await load({ timeout: 0.5 });
    fake.script({ ...reply.text('too late'), delayMs: 5000 });
    const { caught } = await run({ payload: 'hi' });
    assert.equal(errorText(caught), 'Gemini did not answer within 0.5 s');
    while (!fake.requests[0].aborted) await new Promise((r) => setTimeout(r, 10)); // the HTTP request was really cancelled
  });

  it('cancels the Gemini request in flight when the node is closed (redeploy)', async () => {
    await load();
    fake.script({ ...reply.text('never'), delayMs: 30000 });
    helper.getNode('agent').receive({ payload: 'hi' });
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    await helper.unload();
    while (!fake.requests[0].aborted) await new Promise((r) => setTimeout(r, 10));
    assert.equal(fake.requests[0].aborted, true);
  });

  it('sends every failure to Catch, also a server config node that is missing', async () => {
    await load({ servers: [{ server: 'not-there' }] });
    const { caught } = await run({ payload: 'hi' });
    assert.match(errorText(caught), /mcp-server config node\(s\) not found: not-there/);
    assert.equal(fake.requests.length, 0);
  });

  it('gives a blocked prompt as data: output 1 with msg.gemini.blocked', async () => {
    await load();
    fake.script(reply.blocked('PROHIBITED_CONTENT'));
    const { answer, caught } = await run({ payload: 'something bad' });
    assert.equal(caught, undefined);
    assert.equal(answer.gemini.blocked, 'PROHIBITED_CONTENT');
    assert.equal(answer.payload, '');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(statuses, [{ fill: 'blue', shape: 'dot', text: '' }, {}], 'blue dot in flight, cleared on success');
  });

  it('refuses a payload that is neither a prompt nor contents, with no request made', async () => {
    await load();
    const { caught } = await run({ payload: 42 });
    assert.match(errorText(caught), /msg\.payload must be a prompt string, a Gemini contents array, or an audio\/image Buffer/);
    assert.equal(fake.requests.length, 0);
  });

  it('never lets the API key appear in a message, error, status or log', async () => {
    await load({ stream: true });
    const side = collectSide();
    // A server that echoes the key back in its error text (some proxies do).
    fake.script(reply.error(400, 'INVALID_ARGUMENT', `API key not valid: ${API_KEY}. Please pass a valid API key.`));
    const failed = await run({ payload: 'first' });
    fake.script(reply.text('a streamed answer'));
    const ok = await run({ payload: 'second' });
    assert.match(errorText(failed.caught), /API key not valid: \*\*\*\./);
    assert.equal(ok.answer.payload, 'a streamed answer');
    assert.equal(fake.requests[0].headers['x-goog-api-key'], API_KEY, 'the key did reach Gemini, in its header');
    const everything = JSON.stringify([failed, ok, side, statuses]) + allLogs();
    assert.ok(!everything.includes(API_KEY), 'API key leaked');
  });

  it('reports a missing key with what to do, taking GEMINI_API_KEY from the environment when set', async () => {
    const { flow } = await import('./harness').then((h) => h.agentFlow({ fake }));
    await helper.load((await import('./harness')).ALL_NODES, flow, {});
    const missing = await run({ payload: 'hi' });
    assert.match(errorText(missing.caught), /No Gemini API key/);
    // Where keys are made, and where to put one: a person can act on it.
    assert.match(errorText(missing.caught), /https:\/\/aistudio\.google\.com\/apikey/);
    assert.match(errorText(missing.caught), /tab's Environment variables/);
    const restore = setEnv({ GEMINI_API_KEY: API_KEY });
    try {
      fake.script(reply.text('from env'));
      const ok = await run({ payload: 'hi' });
      assert.equal(ok.answer.payload, 'from env');
    } finally {
      restore();
    }
  });

  it('works from a minimal flow JSON with the documented defaults', async () => {
    const flow = [
      { id: 'tab', type: 'tab' },
      { id: 'agent', type: 'gemini-agent', z: 'tab', baseUrl: fake.url, x: 1, y: 1, wires: [['out']] },
      { id: 'out', type: 'helper', z: 'tab', x: 1, y: 1 },
      { id: 'catcher', type: 'catch', z: 'tab', scope: null, x: 1, y: 1, wires: [['caught']] },
      { id: 'caught', type: 'helper', z: 'tab', x: 1, y: 1 },
    ];
    const { ALL_NODES } = await import('./harness');
    await helper.load(ALL_NODES, flow, { agent: { apiKey: API_KEY } });
    fake.script(reply.text('defaults work'));
    const { answer } = await run({ payload: 'hi' });
    assert.equal(answer.payload, 'defaults work');
    const r = fake.requests[0];
    assert.deepEqual([r.version, r.model, r.method], ['v1beta', 'gemini-flash-latest', 'generateContent']);
    assert.equal(r.body.tools, undefined, 'no servers, no tools');
    assert.equal(answer.gemini.sessionId, 'default');
  });
});
