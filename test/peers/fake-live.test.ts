// The fake Live API holds clients to the documented rules, so a client bug fails a test: these
// talk to it with a bare WebSocket, not through our code.
import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { startFakeGemini, type FakeGemini } from './fake-gemini';
import { waitFor } from '../helpers/wait';

const KEY = 'fake-live-key-0123456789';
const PATH = '//ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent';

function open(fake: FakeGemini, key = KEY): Promise<{ ws: WebSocket; messages: any[]; closed: Promise<{ code: number; reason: string }> }> {
  const ws = new WebSocket(`ws://127.0.0.1:${fake.port}${PATH}?key=${key}`);
  const messages: any[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, closed }));
    ws.once('error', reject);
  });
}

const setup = { setup: { model: 'models/gemini-3.8-live', generationConfig: { responseModalities: ['AUDIO'] } } };

describe('fake Gemini Live: the rules it enforces', () => {
  let fake: FakeGemini;
  beforeEach(async () => (fake = await startFakeGemini({ apiKey: KEY })));
  afterEach(() => fake.close());

  it('answers setup with setupComplete, on the path the SDK uses', async () => {
    const { ws, messages } = await open(fake);
    ws.send(JSON.stringify(setup));
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(messages, [{ setupComplete: {} }]);
    ws.close();
  });

  it('closes 1007 when the first message is not setup, on a second setup, and on a wrong key', async () => {
    let c = await open(fake);
    c.ws.send(JSON.stringify({ realtimeInput: { audioStreamEnd: true } }));
    assert.equal((await c.closed).code, 1007);
    c = await open(fake);
    c.ws.send(JSON.stringify(setup));
    c.ws.send(JSON.stringify(setup));
    assert.equal((await c.closed).code, 1007);
    c = await open(fake, 'wrong-key');
    c.ws.send(JSON.stringify(setup));
    assert.deepEqual(await c.closed, { code: 1007, reason: 'API key not valid. Please pass a valid API key.' });
  });

  it('closes 1008 for a model that is not a Live model', async () => {
    const c = await open(fake);
    c.ws.send(JSON.stringify({ setup: { model: 'models/gemini-flash-latest' } }));
    assert.equal((await c.closed).code, 1008);
  });

  it('closes 1007 for a tool response whose id it never issued, and for audio without its rate', async () => {
    fake.live.script({ calls: [{ name: 'HassTurnOn', args: { name: 'Kitchen Light' } }] });
    let c = await open(fake);
    c.ws.send(JSON.stringify(setup));
    c.ws.send(JSON.stringify({ clientContent: { turns: [{ role: 'user', parts: [{ text: 'light on' }] }], turnComplete: true } }));
    const call = await waitFor(() => c.messages.find((m) => m.toolCall)?.toolCall.functionCalls[0], 'the tool call');
    assert.equal(call.name, 'HassTurnOn');
    c.ws.send(JSON.stringify({ toolResponse: { functionResponses: [{ id: 'function-call-1', name: 'HassTurnOn', response: { output: {} } }] } }));
    assert.equal((await c.closed).code, 1007);
    c = await open(fake);
    c.ws.send(JSON.stringify(setup));
    c.ws.send(JSON.stringify({ realtimeInput: { audio: { data: 'AAAA', mimeType: 'audio/pcm' } } }));
    assert.equal((await c.closed).code, 1007);
  });
});
