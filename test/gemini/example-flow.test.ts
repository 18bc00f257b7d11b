// The shipped example examples/home-assistant-gemini.json, imported as is and run: settings come
// from the environment only (GEMINI_API_KEY, HA_URL, HA_TOKEN, GEMINI_BASE_URL), pointed here at the
// fake Gemini and the Home Assistant stand-in.
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import assert from 'node:assert/strict';
import { setEnv, fromRuntime } from '../helpers/runtime';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HomeAssistantStandIn } from '../peers/home-assistant';
import { reply } from '../peers/fake-gemini';
import { ALL_NODES, API_KEY, helper, type FakeGemini, useAgentPeers } from './harness';

const EXAMPLE = join(__dirname, '..', '..', 'examples', 'home-assistant-gemini.json');
const injectNode = require(fromRuntime('@node-red/nodes/core/common/20-inject.js'));
const debugNode = require(fromRuntime('@node-red/nodes/core/common/21-debug.js'));
const commentNode = require(fromRuntime('@node-red/nodes/core/common/90-comment.js'));
const changeNode = require(fromRuntime('@node-red/nodes/core/function/15-change.js'));
const resourceNode = require('../../nodes/mcp-resource/index.ts');

for (const generation of HA_GENERATIONS) describeExample(generation);

function describeExample(generation: HaGeneration) {
  describe(`example: home-assistant-gemini.json (Home Assistant ${generation})`, function () {
    const n = (tool: string) => haToolName(generation, tool);
    let fake: FakeGemini;
    let ha: HomeAssistantStandIn;
    let restoreEnv = () => {};

    const peers = useAgentPeers({ generation });
    beforeEach(() => {
      ({ fake, ha } = peers); // the names the tests below use
      restoreEnv = setEnv({ GEMINI_API_KEY: API_KEY, HA_URL: ha.url.replace(/\/api\/mcp$/, ''), HA_TOKEN: ha.token, GEMINI_BASE_URL: fake.url });
    });
    afterEach(() => restoreEnv());

    it('imports, and the inject runs Gemini with the Home Assistant tools to the answer and trace debug nodes', async () => {
      const flow = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
      assert.ok(!JSON.stringify(flow).includes('credentials'), 'no credentials in the example');
      await helper.load([...ALL_NODES, injectNode, debugNode, commentNode, changeNode, resourceNode], flow);
      fake.script(reply.call(n('HassTurnOff'), { name: 'Kitchen Light' }), reply.text('The kitchen light is off; the porch light is still on.'));
      const answer = new Promise<any>((resolve) => helper.getNode('hag-answer').on('input', resolve));
      const errors: any[] = [];
      helper.getNode('hag-errors').on('input', (m: any) => errors.push(m));
      helper.getNode('hag-inject').receive({});
      const msg = await answer;
      assert.deepEqual(errors, []);
      assert.equal(msg.payload, 'The kitchen light is off; the porch light is still on.');
      assert.equal(msg.sessionId, 'living-room');
      assert.equal(msg.gemini.steps[0].calls[0].tool, n('HassTurnOff'));
      const call = ha.requests.find((r: any) => r.rpcMethod === 'tools/call') as any;
      assert.equal(call.headers.authorization, `Bearer ${ha.token}`, 'HA token from HA_TOKEN via headers');
      assert.equal(fake.requests[0].headers['x-goog-api-key'], API_KEY, 'Gemini key from GEMINI_API_KEY');
      // The house's state reached Gemini in the system instruction, read from the context snapshot resource.
      const instruction = fake.requests[0].body.systemInstruction.parts[0].text;
      assert.match(instruction, /^You control a smart home through Home Assistant tools\. This is the home right now:\nLive Context: An overview of the areas/);
      assert.ok(instruction.endsWith('\nAnswer in one or two short sentences.'));
      assert.equal(fake.requests[0].body.contents.at(-1).parts[0].text, 'Turn off the kitchen light, then tell me which lights are still on.');
      assert.deepEqual(
        ha.requests.filter((r) => r.rpcMethod === 'resources/read').map((r: any) => r.json.params.uri),
        ['homeassistant://assist/context-snapshot'],
      );
    });
  });
}
