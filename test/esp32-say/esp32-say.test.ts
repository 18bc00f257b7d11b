// esp32-say in the real Node-RED runtime with a real esp32-listener (voice "flow", on Node-RED's
// own port) and no esp32-mcp-in: esp32-say is a user of the listener by itself, so the listener
// opens for it and it shows the listener's status. The simulated device connects over WebSocket and
// its speaker judges what arrives; the fake Gemini does the TTS.
import { strict as assert } from 'node:assert';
import { encodeWav } from '../../src/audio';
import { startFakeGemini, reply, ANSWER_PCM, type FakeGemini } from '../peers/fake-gemini';
import { lichuangDev, XiaozhiWsDevice, DeviceVoice } from '../peers/xiaozhi-device';
import { fromRuntime, helper } from '../helpers/runtime';
import { waitFor } from '../helpers/wait';

const KEY = 'AIzaSy-say-test-key-DO-NOT-LEAK-77';
const DEVICE = 'aa:bb:cc:dd:00:01';
const DEVICE_TOKEN = 'say-test-device-token';
const PATH = '/xiaozhi/say-test/';
const ANSWER_MS = (ANSWER_PCM.length / 2 / 24000) * 1000;
const sayNode = require('../../nodes/esp32-say');
const listenerNode = require('../../nodes/esp32-listener');
const catchNode = require(fromRuntime('@node-red/nodes/core/common/25-catch.js'));
const statusNode = require(fromRuntime('@node-red/nodes/core/common/25-status.js'));

describe('esp32-say', () => {
  let fake: FakeGemini;
  let device: XiaozhiWsDevice;
  let voice: DeviceVoice;
  before((done) => void helper.startServer(done));
  after(() => helper.stopServer());
  let statuses: any[];
  beforeEach(async function () {
    fake = await startFakeGemini({ apiKey: KEY });
    statuses = [];
    // The spec about the tab's variables sets key and model only there, as a Home Assistant add-on user does.
    const fromTab = /tab's variables/.test(this.currentTest?.title ?? '');
    const tabEnv = fromTab
      ? [
          { name: 'GEMINI_API_KEY', value: KEY, type: 'str' },
          { name: 'SAY_MODEL', value: 'gemini-3.5-flash-tts', type: 'str' },
        ]
      : [];
    const flow = [
      { id: 'tab', type: 'tab', env: tabEnv },
      { id: 'listener', type: 'esp32-listener', name: 'voice', transport: 'websocket', path: PATH, voice: 'flow' },
      {
        id: 'say',
        type: 'esp32-say',
        z: 'tab',
        listener: 'listener',
        deviceId: '',
        tts: { provider: 'gemini', model: fromTab ? '${SAY_MODEL}' : 'gemini-2.5-flash-preview-tts', voice: 'Puck' },
        baseUrl: fake.url,
        wires: [['out']],
        x: 100,
        y: 100,
      },
      { id: 'out', type: 'helper', z: 'tab', x: 300, y: 100 },
      { id: 'catcher', type: 'catch', z: 'tab', scope: null, uncaught: false, wires: [['caught']], x: 100, y: 200 },
      { id: 'caught', type: 'helper', z: 'tab', x: 300, y: 200 },
      { id: 'watch', type: 'status', z: 'tab', scope: ['say'], wires: [['statuses']], x: 100, y: 300 },
      { id: 'statuses', type: 'helper', z: 'tab', x: 300, y: 300 },
    ];
    await helper.load([listenerNode, sayNode, catchNode, statusNode], flow, { say: fromTab ? {} : { apiKey: KEY }, listener: { tokens: DEVICE_TOKEN } });
    helper.getNode('statuses').on('input', (m: any) => statuses.push(m.status));
    const url = helper.url().replace('http', 'ws') + PATH;
    device = await XiaozhiWsDevice.connect({ url, deviceId: DEVICE, token: DEVICE_TOKEN, fixture: lichuangDev() });
    voice = await DeviceVoice.overWebSocket(device);
  });
  afterEach(async () => {
    device.close();
    await helper.unload();
    await fake.close();
  });

  it('opens the listener by itself (no esp32-mcp-in in the flow) and shows its status', async () => {
    await waitFor(() => statuses.some((st) => /1 device\(s\)/.test(st.text ?? '')), 'esp32-say showing the connected device');
  });

  function send(msg: Record<string, unknown>): Promise<{ out?: any; caught?: any }> {
    return new Promise((resolve) => {
      helper.getNode('out').once('input', (m: any) => resolve({ out: m }));
      helper.getNode('caught').once('input', (m: any) => resolve({ caught: m }));
      helper.getNode('say').receive(msg);
    });
  }

  it('speaks a text through Gemini TTS with the configured model and voice, to msg.device.id', async () => {
    fake.script(reply.audio(ANSWER_PCM));
    const { out } = await send({ payload: 'The kitchen light is on.', display: 'turn on the kitchen light', device: { id: DEVICE } });
    assert.equal(out.payload.aborted, false);
    assert.equal(out.payload.durationMs, Math.ceil(ANSWER_MS / 60) * 60);
    assert.equal(fake.requests[0].model, 'gemini-2.5-flash-preview-tts');
    assert.equal(fake.requests[0].body.generationConfig.speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName, 'Puck');
    const r = voice.speaker.report;
    assert.deepEqual(r.stt, ['turn on the kitchen light']);
    assert.deepEqual(r.sentences, ['The kitchen light is on.']);
    assert.ok(Math.abs(r.playedMs - ANSWER_MS) <= 60);
    assert.equal(r.outsideSpeaking + r.overflows + r.decodeErrors, 0);
  });

  it("takes the API key and the model from the tab's variables (no key in the node, none in the process)", async () => {
    const saved = { GEMINI_API_KEY: process.env.GEMINI_API_KEY, GOOGLE_API_KEY: process.env.GOOGLE_API_KEY };
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
    try {
      fake.script(reply.audio(ANSWER_PCM));
      const { out, caught } = await send({ payload: 'The kitchen light is on.', device: { id: DEVICE } });
      assert.equal(caught, undefined, caught && JSON.stringify(caught.error));
      assert.equal(out.payload.aborted, false);
      assert.equal(fake.requests[0].model, 'gemini-3.5-flash-tts');
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
    }
  });

  it('plays a WAV from the flow, resampled to the announced rate', async () => {
    const wav = encodeWav(
      new Int16Array(16000).map((_, i) => 7000 * Math.sin(i / 4)),
      16000,
    );
    const { out } = await send({ payload: wav, device: { id: DEVICE } });
    assert.deepEqual(out.payload, { durationMs: 1020, aborted: false });
    assert.equal(voice.speaker.report.sampleRate, 24000);
    assert.ok(Math.abs(voice.speaker.report.playedMs - 1000) <= 60);
    assert.equal(fake.requests.length, 0, 'no TTS for audio');
  });

  it('reports to Catch: raw PCM without msg.sampleRate, a device that is not connected, a Gemini refusal without the key', async () => {
    let r = await send({ payload: Buffer.alloc(480), device: { id: DEVICE } });
    assert.match(r.caught.error.message, /set msg.sampleRate/);
    assert.match(r.caught.error.message, /^esp32-say: /, 'the sentence itself, no error class name in front');
    r = await send({ payload: 'hi', device: { id: '11:22:33:44:55:66' } });
    assert.match(r.caught.error.message, /11:22:33:44:55:66 has no open audio channel/);
    fake.script(reply.error(403, 'PERMISSION_DENIED', `key ${KEY} is not allowed`));
    r = await send({ payload: 'hi', device: { id: DEVICE } });
    assert.match(r.caught.error.message, /403/);
    assert.ok(!JSON.stringify(r.caught).includes(KEY));
    // The tts stop is sent before the error is raised; it reaches the device a moment later.
    await new Promise<void>((resolve) => (voice.speaker.report.ttsStops ? resolve() : voice.speaker.once('tts-stop', () => resolve())));
    assert.equal(voice.speaker.report.ttsStarts, 1);
    assert.equal(voice.speaker.report.ttsStops, 1, 'the failed answer still ended with tts stop');
  });

  it('ends with aborted:true when the device aborts playback', async () => {
    const long = encodeWav(
      new Int16Array(24000 * 6).map((_, i) => 5000 * Math.sin(i / 6)),
      24000,
    );
    voice.speaker.once('first-audio', () => voice.abort());
    const { out } = await send({ payload: long, device: { id: DEVICE } });
    assert.equal(out.payload.aborted, true);
    assert.ok(out.payload.durationMs < 6000);
  });
});
