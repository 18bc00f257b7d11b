// Flow mode: each call leaves on output 2 with a correlation (`_agent`), a Node-RED function node
// implements the tool, and its message coming back into the agent continues the loop once every
// call of the step is answered.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { HA_GENERATIONS, haToolName, startHomeAssistant } from '../peers/home-assistant';
import { ALL_NODES, agentFlow, collectSide, haServer, helper, loadAgent, run, type FakeGemini, useAgentPeers } from './harness';

const mcpCallToolNode = require('../../nodes/mcp-call-tool');

// A weather tool written as a function node: answers in reverse order of arrival (the later call
// first), fails for one city, to prove order, ids and errors survive the round trip.
const WEATHER_FUNCTION = `
const city = msg.payload.args.city;
if (city === 'Atlantis') { msg.error = 'no weather station in ' + city; return msg; }
const delay = city === 'Paris' ? 60 : 5;
setTimeout(() => { msg.payload = { city, temperature: city.length }; node.send(msg); node.done(); }, delay);
return null;
`;

const weatherTool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Current weather for a city',
      parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
};

describe('gemini-agent: flow mode with a function node as the tool', function () {
  let fake: FakeGemini;

  const peers = useAgentPeers({ homeAssistant: false });
  beforeEach(() => ({ fake } = peers)); // the names the tests below use

  async function load(agent: Record<string, unknown> = {}) {
    await loadAgent({
      fake,
      agent: { toolMode: 'flow', ...agent },
      output2: ['weather', 'side'],
      extra: [{ id: 'weather', type: 'function', func: WEATHER_FUNCTION, outputs: 1, wires: [['agent']] }],
    });
  }

  it('sends each call out on output 2, waits for all results, and continues the loop', async () => {
    await load();
    const side = collectSide();
    fake.script(
      reply.calls(
        [
          { name: 'get_weather', args: { city: 'Paris' } },
          { name: 'get_weather', args: { city: 'Oslo' } },
          { name: 'get_weather', args: { city: 'Atlantis' } },
        ],
        { ids: ['w1', 'w2', 'w3'] },
      ),
      reply.text('Paris 5, Oslo 4, Atlantis unknown.'),
    );
    const { answer, caught } = await run({ payload: 'weather in Paris, Oslo and Atlantis?', tools: weatherTool });
    assert.equal(caught, undefined, caught && caught.error?.message);
    assert.equal(answer.payload, 'Paris 5, Oslo 4, Atlantis unknown.');
    assert.deepEqual(
      side.map((m) => [m.topic, m.payload.id, m.payload.name, m.payload.args.city, m.mcp.tool, typeof m._agent]),
      [
        ['tool_call', 'w1', 'get_weather', 'Paris', 'get_weather', 'string'],
        ['tool_call', 'w2', 'get_weather', 'Oslo', 'get_weather', 'string'],
        ['tool_call', 'w3', 'get_weather', 'Atlantis', 'get_weather', 'string'],
      ],
    );
    const responses = fake.requests[1].body.contents[2].parts.map((p: any) => p.functionResponse);
    assert.deepEqual(
      responses.map((r: any) => [r.id, r.response]),
      [
        ['w1', { output: { city: 'Paris', temperature: 5 } }],
        ['w2', { output: { city: 'Oslo', temperature: 4 } }],
        ['w3', { error: 'no weather station in Atlantis' }],
      ],
    );
    assert.deepEqual(
      answer.gemini.steps[0].calls.map((c: any) => c.isError),
      [false, false, true],
    );
  });

  it('validates arguments before a call leaves, answering the model itself', async () => {
    await load();
    const side = collectSide();
    fake.script(reply.call('get_weather', { town: 'Paris' }), reply.text('I need a city.'));
    const { answer } = await run({
      payload: 'weather?',
      tools: weatherTool,
      mcp: { names: { get_weather: 'get_weather' }, tools: [{ name: 'get_weather', inputSchema: weatherTool.functionDeclarations[0].parametersJsonSchema }] },
    });
    assert.equal(answer.payload, 'I need a city.');
    assert.equal(side.length, 0, 'the invalid call never left the node');
    assert.match(fake.requests[1].body.contents[2].parts[0].functionResponse.response.error, /city/);
  });

  it('gives up on a result that never comes back with an {error} to the model, and rejects the late result', async () => {
    await loadAgent({
      fake,
      agent: { toolMode: 'flow', timeout: 1 },
      output2: ['side'],
    });
    const side = collectSide();
    fake.script(reply.call('get_weather', { city: 'Paris' }), reply.text('The weather service did not answer.'));
    const { answer } = await run({ payload: 'weather?', tools: weatherTool });
    assert.equal(answer.payload, 'The weather service did not answer.');
    assert.match(fake.requests[1].body.contents[2].parts[0].functionResponse.response.error, /No result came back/);
    // The result arriving now finds nothing waiting: a Catch node hears about it.
    const late = await run({ ...side[0], payload: { too: 'late' } });
    assert.match(late.caught.error.message, /no call of this node is waiting for it/);
    // A result meant for another agent is not taken for a prompt either.
    const foreign = await run({ payload: { x: 1 }, _agent: 'someone-else:1:1:0' });
    assert.match(foreign.caught.error.message, /a tool result came back for someone-else:1:1:0/);
    assert.equal(fake.requests.length, 2);
  });

  for (const generation of HA_GENERATIONS) {
    const n = (tool: string) => haToolName(generation, tool);
    it(`works with an mcp-call-tool node as the tool runner (Gemini-style call, names mapped back; Home Assistant ${generation})`, async () => {
      const ha = await startHomeAssistant({ generation });
      try {
        const { flow, credentials } = agentFlow({
          fake,
          agent: { toolMode: 'flow' },
          servers: [{ ...haServer(ha), prefix: 'ha_' }],
          output2: ['caller', 'side'],
          extra: [{ id: 'caller', type: 'mcp-call-tool', server: 'ha', tool: '', toolErrors: 'output', wires: [['agent'], []] }],
        });
        await helper.load([...ALL_NODES, mcpCallToolNode], flow, credentials);
        fake.script(
          reply.calls([
            { name: `ha_${n('HassTurnOff')}`, args: { name: 'Kitchen Light' } },
            { name: `ha_${n('todo_get_items')}`, args: { todo_list: 'Shopping List', bogus: true } },
          ]),
          reply.text('Kitchen off; the list lookup failed.'),
        );
        const { answer, caught } = await run({ payload: 'kitchen off, read my list' });
        assert.equal(caught, undefined, caught && caught.error?.message);
        const responses = fake.requests[1].body.contents[2].parts.map((p: any) => p.functionResponse);
        assert.equal(responses[0].response.output.response_type, 'action_done');
        assert.match(responses[1].response.error, /extra keys not allowed|not a valid option/); // voluptuous before 2026.9, probatio since
        assert.deepEqual(
          answer.gemini.steps[0].calls.map((c: any) => [c.tool, c.isError]),
          [
            [n('HassTurnOff'), false],
            [n('todo_get_items'), true],
          ],
        );
        const called = ha.requests.filter((r: any) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params.name);
        assert.deepEqual(called.sort(), [n('HassTurnOff'), n('todo_get_items')].sort());
      } finally {
        await helper.unload();
        await ha.close();
      }
    });
  }
});
