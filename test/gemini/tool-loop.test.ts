// gemini-agent in auto mode against the fake Gemini and the Home Assistant stand-in, through the
// real Node-RED runtime: the loop's wire contract (verbatim model turns, ids, signatures, one user
// content of responses per step) and how tool failures go back to the model.
import assert from 'node:assert/strict';
import type { HomeAssistantStandIn } from '../peers/home-assistant';
import { reply } from '../peers/fake-gemini';
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import { haServer, loadAgent, run, type FakeGemini, type ServerDef, useAgentPeers } from './harness';

// Once per Home Assistant generation: the loop declares and calls each generation's own names.
for (const generation of HA_GENERATIONS) describeLoop(generation);

function describeLoop(generation: HaGeneration) {
  describe(`gemini-agent: the tool loop (auto mode, Home Assistant ${generation} stand-in)`, function () {
    const n = (tool: string) => haToolName(generation, tool);
    let fake: FakeGemini;
    let ha: HomeAssistantStandIn;
    let server: ServerDef;

    const peers = useAgentPeers({ generation });
    beforeEach(async () => {
      ({ fake, ha } = peers); // the names the tests below use
      server = haServer(ha);
    });

    const toolCalls = () => ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params);

    it('runs one call and answers with the final text and the trace', async () => {
      await loadAgent({ fake, servers: [server] });
      fake.script(reply.call(n('HassTurnOff'), { name: 'Kitchen Light', domain: ['light'] }), reply.text('The kitchen light is off.'));
      const { answer, caught } = await run({ payload: 'Turn off the kitchen light', topic: 't1', keep: 'me' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.equal(answer.payload, 'The kitchen light is off.');
      assert.equal(answer.keep, 'me', 'the incoming message passes through');
      assert.deepEqual(toolCalls(), [{ name: n('HassTurnOff'), arguments: { name: 'Kitchen Light', domain: ['light'] } }]);
      const g = answer.gemini;
      assert.equal(g.model, 'gemini-3.5-flash');
      assert.equal(g.finishReason, 'STOP');
      assert.equal(g.steps.length, 2);
      const call = g.steps[0].calls[0];
      assert.equal(call.name, n('HassTurnOff'));
      assert.equal(call.server, 'Home Assistant');
      assert.equal(call.tool, n('HassTurnOff'));
      assert.equal(call.isError, false);
      assert.equal(call.result.response_type, 'action_done');
      assert.ok(typeof call.durationMs === 'number');
      assert.ok(g.usage.totalTokenCount > 0);
      // The declarations reached Gemini as parametersJsonSchema, with the API version in the path.
      const first = fake.requests[0];
      assert.equal(first.version, 'v1beta');
      const names = first.body.tools[0].functionDeclarations.map((d: any) => d.name);
      assert.ok(names.includes(n('HassTurnOff')) && names.includes(n('GetLiveContext')));
      assert.ok(first.body.tools[0].functionDeclarations.every((d: any) => d.parametersJsonSchema && !d.parameters));
      assert.deepEqual(first.body.toolConfig, { functionCallingConfig: { mode: 'AUTO' } });
      // The second request carries the function response as a user turn, with the id Gemini gave.
      const second = fake.requests[1].body.contents;
      assert.equal(second.length, 3);
      const issuedId = second[1].parts[0].functionCall.id;
      assert.ok(issuedId);
      assert.deepEqual(second[2].role, 'user');
      assert.equal(second[2].parts[0].functionResponse.id, issuedId);
      assert.equal(second[2].parts[0].functionResponse.name, n('HassTurnOff'));
      assert.equal(second[2].parts[0].functionResponse.response.output.response_type, 'action_done');
    });

    it('runs two parallel calls and answers both in one user content, same order, same ids', async () => {
      await loadAgent({ fake, servers: [server] });
      fake.script(
        reply.calls(
          [
            { name: n('HassTurnOn'), args: { name: 'Porch Light' } },
            { name: n('HassLightSet'), args: { area: 'Kitchen', brightness: 40 } },
          ],
          { ids: ['call-a', 'call-b'] },
        ),
        reply.text('Done.'),
      );
      const { answer, caught } = await run({ payload: 'Porch on, kitchen to 40%' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.equal(toolCalls().length, 2);
      const contents = fake.requests[1].body.contents;
      const model = contents[1];
      assert.equal(model.role, 'model');
      assert.deepEqual(
        model.parts.map((p: any) => p.functionCall.id),
        ['call-a', 'call-b'],
      );
      assert.ok(model.parts[0].thoughtSignature, 'signature kept on the first call');
      const responses = contents[2];
      assert.equal(contents.length, 3);
      assert.equal(responses.role, 'user');
      assert.deepEqual(
        responses.parts.map((p: any) => [p.functionResponse.id, p.functionResponse.name]),
        [
          ['call-a', n('HassTurnOn')],
          ['call-b', n('HassLightSet')],
        ],
      );
      assert.deepEqual(
        answer.gemini.steps[0].calls.map((c: any) => c.id),
        ['call-a', 'call-b'],
      );
    });

    it('carries three sequential steps with every thought signature echoed byte for byte', async () => {
      await loadAgent({ fake, servers: [server] });
      fake.script(
        reply.call(n('GetLiveContext'), {}),
        reply.call(n('HassTurnOff'), { area: 'Kitchen' }),
        reply.call(n('HassListAddItem'), { item: 'milk', name: 'Shopping List' }),
        reply.text('Lights off, milk added.'),
      );
      const { answer, caught } = await run({ payload: 'Turn off the kitchen and add milk' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.equal(answer.payload, 'Lights off, milk added.');
      assert.equal(fake.requests.length, 4);
      assert.ok(fake.requests.every((r) => r.violations.length === 0));
      const last = fake.requests[3].body.contents;
      assert.deepEqual(
        last.map((c: any) => c.role),
        ['user', 'model', 'user', 'model', 'user', 'model', 'user'],
      );
      const signatures = [1, 3, 5].map((i) => last[i].parts[0].thoughtSignature);
      assert.ok(signatures.every((s: unknown) => typeof s === 'string' && s.length > 0));
      assert.equal(new Set(signatures).size, 3, 'each step keeps its own signature');
      assert.deepEqual(
        answer.gemini.steps.map((s: any) => s.calls.map((c: any) => c.tool)),
        [[n('GetLiveContext')], [n('HassTurnOff')], [n('HassListAddItem')], []],
      );
    });

    it('the fake refuses a missing signature, so the check above can fail', async () => {
      // Guard for the previous test: a client that dropped signatures would get Gemini's 400.
      await loadAgent({ fake, servers: [server] });
      fake.script(reply.call(n('GetLiveContext'), {}), reply.text('unreachable'));
      const { caught } = await run({
        payload: [
          { role: 'user', parts: [{ text: 'hi' }] },
          { role: 'model', parts: [{ functionCall: { id: 'fc-x', name: n('GetLiveContext'), args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { id: 'fc-x', name: n('GetLiveContext'), response: { output: 1 } } }] },
        ],
      });
      assert.ok(caught, 'expected the fake to refuse the request');
      assert.match(caught.error.message, /400/);
      assert.match(caught.error.message, /thought_signature/);
    });

    it('sends a tool error back to the model as {error}, not as a node error', async () => {
      await loadAgent({ fake, servers: [server] });
      // Valid for the advertised schema, but HA's own voluptuous (probatio since 2026.9) check rejects the extra key (isError:true).
      fake.script(reply.call(n('todo_get_items'), { todo_list: 'Shopping List', bogus: 1 }), reply.text('That failed.'));
      const { answer, caught } = await run({ payload: 'what is on my list' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      const call = answer.gemini.steps[0].calls[0];
      assert.equal(call.isError, true);
      assert.match(String(call.result), /extra keys not allowed|not a valid option/); // voluptuous before 2026.9, probatio since
      const response = fake.requests[1].body.contents[2].parts[0].functionResponse.response;
      assert.deepEqual(Object.keys(response), ['error']);
      assert.match(response.error, /extra keys not allowed|not a valid option/);
    });

    it('answers a function name the model invented with {error} listing the real ones', async () => {
      await loadAgent({ fake, servers: [server] });
      fake.script(reply.call('OpenThePodBayDoors', { please: true }), reply.text("I can't do that."));
      const { answer, caught } = await run({ payload: 'open the doors' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.equal(toolCalls().length, 0, 'nothing reached Home Assistant');
      const response = fake.requests[1].body.contents[2].parts[0].functionResponse;
      assert.equal(response.name, 'OpenThePodBayDoors');
      assert.match(response.response.error, /Unknown function "OpenThePodBayDoors"/);
      assert.match(response.response.error, /HassTurnOn/);
      assert.equal(answer.gemini.steps[0].calls[0].isError, true);
    });

    it('answers arguments that fail the tool schema with {error} naming the path, without calling', async () => {
      await loadAgent({ fake, servers: [server] });
      fake.script(reply.call(n('HassLightSet'), { area: 'Kitchen', brightness: 'very bright' }), reply.text('Sorry.'));
      const { answer, caught } = await run({ payload: 'make it bright' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      assert.equal(toolCalls().length, 0, 'the invalid call never reached Home Assistant');
      const error = fake.requests[1].body.contents[2].parts[0].functionResponse.response.error;
      assert.match(error, new RegExp(`Invalid arguments for ${n('HassLightSet')}`));
      assert.match(error, /brightness/);
      assert.equal(answer.gemini.steps[0].calls[0].isError, true);
    });

    it('stops at maxSteps with an error to Catch that carries the partial trace', async () => {
      await loadAgent({ fake, servers: [server], agent: { maxSteps: 2 } });
      fake.script(reply.call(n('GetDateTime'), {}), reply.call(n('GetDateTime'), {}), reply.text('never asked for'));
      const { answer, caught } = await run({ payload: 'loop forever' });
      assert.equal(answer, undefined);
      assert.match(caught.error.message, /maxSteps|model turns/);
      assert.match(caught.error.message, /GetDateTime/);
      assert.equal(fake.requests.length, 2, 'no third model request');
      assert.equal(fake.pending(), 1);
      assert.equal(caught.gemini.steps.length, 2);
      assert.equal(caught.gemini.steps[0].calls[0].tool, n('GetDateTime'));
      assert.ok(caught.gemini.steps[0].calls[0].result, 'the executed step has its result');
      assert.equal(toolCalls().length, 1, 'the last step was not executed');
    });

    it('sends the functionCalling mode and temperature it is configured with', async () => {
      await loadAgent({
        fake,
        servers: [server],
        agent: { functionCalling: 'ANY', temperature: '0.2', systemInstruction: 'Be terse.', systemInstructionType: 'str' },
      });
      fake.script(reply.text('ok'));
      const { caught } = await run({ payload: 'hi' });
      assert.equal(caught, undefined, caught && caught.error?.message);
      const body = fake.requests[0].body;
      assert.deepEqual(body.toolConfig, { functionCallingConfig: { mode: 'ANY' } });
      assert.equal(body.generationConfig.temperature, 0.2);
      assert.deepEqual(body.systemInstruction, { parts: [{ text: 'Be terse.' }], role: 'user' });
    });

    it('with functionCalling NONE still declares the tools but tells Gemini not to call them', async () => {
      await loadAgent({ fake, servers: [server], agent: { functionCalling: 'NONE' } });
      fake.script(reply.text('just text'));
      const { answer } = await run({ payload: 'hi', systemInstruction: 'from msg' });
      assert.equal(answer.payload, 'just text');
      const body = fake.requests[0].body;
      assert.deepEqual(body.toolConfig, { functionCallingConfig: { mode: 'NONE' } });
      assert.deepEqual(body.systemInstruction.parts, [{ text: 'from msg' }], 'msg.systemInstruction fills the blank setting');
    });
  });
}
