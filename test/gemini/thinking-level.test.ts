// gemini-agent's thinking level (Gemini 3's generationConfig.thinkingConfig.thinkingLevel) through the
// real Node-RED runtime, the real @google/genai client and the fake Gemini, which refuses a level the
// API does not know as the API does. Temperature, which Gemini 3 deprecated in favour of the level,
// stays what an older flow set: the node still sends it.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { loadAgent, run, useAgentPeers } from './harness';

describe('gemini-agent: thinking level, and the temperature older flows keep', function () {
  const peers = useAgentPeers({ homeAssistant: false });

  it('a thinking level goes out as thinkingConfig.thinkingLevel, and no temperature with it', async () => {
    await loadAgent({ fake: peers.fake, agent: { model: 'gemini-3.5-flash', thinkingLevel: 'high' } });
    peers.fake.script(reply.text('Done.'));
    const { answer, caught } = await run({ payload: 'Plan my evening' });
    assert.equal(caught, undefined, caught && caught.error?.message);
    assert.equal(answer.payload, 'Done.');
    const config = peers.fake.requests[0].body.generationConfig;
    assert.deepEqual(config.thinkingConfig, { thinkingLevel: 'HIGH' });
    assert.equal(config.temperature, undefined);
  });

  it('a flow saved with a temperature and no level keeps sending its temperature, and no thinking config', async () => {
    await loadAgent({ fake: peers.fake, agent: { model: 'gemini-2.5-flash', temperature: '0.2' } });
    peers.fake.script(reply.text('Done.'));
    const { caught } = await run({ payload: 'Hello' });
    assert.equal(caught, undefined, caught && caught.error?.message);
    const config = peers.fake.requests[0].body.generationConfig;
    assert.equal(config.temperature, 0.2);
    assert.equal(config.thinkingConfig, undefined);
  });

  it('a level the dialog does not offer (a hand-written flow) leaves the model its own level instead of a refused request', async () => {
    await loadAgent({ fake: peers.fake, agent: { model: 'gemini-3.5-flash', thinkingLevel: 'extreme' } });
    peers.fake.script(reply.text('Done.'));
    const { caught } = await run({ payload: 'Hello' });
    assert.equal(caught, undefined, caught && caught.error?.message);
    assert.equal(peers.fake.requests[0].body.generationConfig?.thinkingConfig, undefined);
  });

  it('the fake refuses an unknown level and a level beside a budget, as the API does', async () => {
    const post = (generationConfig: unknown) =>
      fetch(`${peers.fake.url}/v1beta/models/gemini-3.5-flash:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': peers.fake.apiKey },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig }),
      });
    const unknown = await post({ thinkingConfig: { thinkingLevel: 'EXTREME' } });
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /thinking_level/);
    const both = await post({ thinkingConfig: { thinkingLevel: 'LOW', thinkingBudget: 128 } });
    assert.equal(both.status, 400);
  });
});
