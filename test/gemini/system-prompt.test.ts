// gemini-agent `systemPrompt`: Home Assistant's Assist prompt (as the stand-in serves it, reference
// home-assistant-mcp.md §2.5) fetched for every request and put before the node's own instruction,
// as the fake Gemini sees it in `systemInstruction`.
import assert from 'node:assert/strict';
import type { HomeAssistantStandIn } from '../peers/home-assistant';
import { reply } from '../peers/fake-gemini';
import { errorText, haServer, loadAgent, run, type FakeGemini, useAgentPeers } from './harness';

describe('gemini-agent: system prompt from a server prompt', function () {
  let fake: FakeGemini;
  let ha: HomeAssistantStandIn;
  const peers = useAgentPeers();
  beforeEach(() => ({ fake, ha } = peers));
  const promptGets = () => ha.requests.filter((r) => r.rpcMethod === 'prompts/get').map((r: any) => r.json.params);

  it('sends the Assist prompt text, then the node instruction, as systemInstruction; fetched per request', async () => {
    await loadAgent({ fake, servers: [haServer(ha)], agent: { systemPrompt: { server: 'ha', name: 'Assist' }, systemInstruction: 'Answer in one sentence.' } });
    fake.script(reply.text('The kitchen light is off.'), reply.text('Still off.'));
    const first = await run({ payload: 'Is the kitchen light on?' });
    assert.equal(first.caught, undefined, errorText(first.caught));
    const text: string = fake.requests[0].body.systemInstruction.parts.map((p: any) => p.text).join('');
    assert.match(text, /^When controlling Home Assistant always call the intent tools\./);
    assert.match(
      text,
      /Static Context: An overview of the areas and the devices in this smart home:\n- names: Kitchen Light\n {2}domain: light\n {2}areas: Kitchen\n/,
    );
    assert.ok(text.endsWith('\n\nAnswer in one sentence.'), text.slice(-60));
    await run({ payload: 'And now?' });
    assert.deepEqual(promptGets(), [
      { name: 'Assist', arguments: {} },
      { name: 'Assist', arguments: {} },
    ]);
  });

  it('fails the request with the server reason when the prompt does not exist, before asking Gemini', async () => {
    await loadAgent({ fake, servers: [haServer(ha)], agent: { systemPrompt: { server: 'ha', name: 'Nope' } } });
    const { caught } = await run({ payload: 'hi' });
    assert.match(errorText(caught), /Could not fetch the system prompt "Nope" from Home Assistant: .*Unknown prompt: Nope/);
    assert.equal(fake.requests.length, 0);
  });

  it('takes arguments from a JSON text (as the dialog saves them) and a server not among the tool servers', async () => {
    await loadAgent({ fake, servers: [haServer(ha)], agent: { servers: [], systemPrompt: { server: 'ha', name: 'Assist', arguments: '{"area":"Kitchen"}' } } });
    fake.script(reply.text('ok'));
    const { caught } = await run({ payload: 'hi' });
    assert.equal(caught, undefined, errorText(caught));
    assert.deepEqual(promptGets(), [{ name: 'Assist', arguments: { area: 'Kitchen' } }]);
    assert.equal(fake.requests[0].body.tools, undefined, 'no tool servers: no tools offered');
  });
});
