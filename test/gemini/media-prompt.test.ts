// gemini-agent with audio or an image as the prompt (an esp32-mcp-in utterance is a WAV Buffer):
// the real runtime, the fake Gemini recording exactly what the SDK sent.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../peers/fake-gemini';
import { errorText, loadAgent, run, useAgentPeers } from './harness';

const utterance = readFileSync(join(__dirname, '../peers/xiaozhi-device/fixtures/speech-16k.wav'));

describe('gemini-agent: audio and image prompts', () => {
  const peers = useAgentPeers({ homeAssistant: false });

  it('sends a WAV Buffer as one inline audio/wav part, recognised by its header', async () => {
    await loadAgent({ fake: peers.fake, agent: { systemInstruction: 'Answer what the person says.' } });
    peers.fake.script(reply.text('The kitchen light is on.'));
    const { answer } = await run({ payload: utterance });
    assert.equal(answer.payload, 'The kitchen light is on.');
    const parts = peers.fake.requests[0].body.contents[0].parts;
    assert.deepEqual(parts, [{ inlineData: { mimeType: 'audio/wav', data: utterance.toString('base64') } }]);
  });

  it('takes the type of other media from msg.contentType', async () => {
    await loadAgent({ fake: peers.fake });
    peers.fake.script(reply.text('a cat'));
    const jpeg = Buffer.from([0x00, 0x01, 0x02, 0x03]);
    await run({ payload: jpeg, contentType: 'image/jpeg' });
    assert.deepEqual(peers.fake.requests[0].body.contents[0].parts[0].inlineData, { mimeType: 'image/jpeg', data: jpeg.toString('base64') });
  });

  it('refuses a Buffer of unknown type (raw PCM) with a message that says what to send', async () => {
    await loadAgent({ fake: peers.fake });
    const { caught } = await run({ payload: Buffer.alloc(640) });
    assert.match(errorText(caught), /audio\/image Buffer \(a WAV, or with msg.contentType/);
    assert.equal(peers.fake.requests.length, 0);
  });
});
