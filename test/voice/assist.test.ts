// Voice through Home Assistant's Assist pipeline, end to end in the real Node-RED runtime: the
// esp32-listener with voice "assist", its Home Assistant mcp-server, esp32-mcp-in taking the
// transcripts and errors, a status node watching it; the Home Assistant stand-in speaking HA's side
// (test/peers/home-assistant/assist.ts); a simulated xiaozhi device speaking real Opus speech
// ("Turn on the kitchen light, please.", espeak-ng) over WebSocket and over mqtt-gateway + UDP.
import assert from 'node:assert/strict';
import { helper, load, nextMessages, startRuntime, stopRuntime, fromRuntime, type FlowNode } from '../helpers/runtime';
import { waitFor } from '../helpers/wait';
import { gatewayVoice } from './gateway-voice';
import { lichuangDev, XiaozhiWsDevice, DeviceVoice } from '../peers/xiaozhi-device';
import { speechSamples } from '../peers/xiaozhi-device/microphone';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';
import { voicedMs, type TtsFormat } from '../peers/home-assistant/assist';
import { freePort } from '../peers/free-port';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ASSIST_PIPELINES } from '../peers/home-assistant/assist';

const voiceNodes = [
  require('../../nodes/esp32-listener/index.ts'),
  require('../../nodes/esp32-mcp-in/index.ts'),
  require(fromRuntime('@node-red/nodes/core/common/25-status.js')),
];
const PATH = '/xiaozhi/assist-test/';
/** The fixture answers' length (espeak-ng "The kitchen light is on."), ms. */
const ANSWER_MS = 1666;

function flow(haUrl: string, assist: Record<string, unknown> = {}, listener: Record<string, unknown> = {}): FlowNode[] {
  return [
    { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: haUrl },
    {
      id: 'lst',
      type: 'esp32-listener',
      name: 'voice',
      transport: 'websocket',
      path: PATH,
      anonymous: true,
      voice: 'assist',
      assist: { server: 'ha', ...assist },
      ...listener,
    },
    { id: 'in', type: 'esp32-mcp-in', listener: 'lst', events: 'transcript\nassist_error', wires: [['events']] },
    { id: 'events', type: 'helper' },
    { id: 'watch', type: 'status', scope: ['in'], wires: [['statuses']] },
    { id: 'statuses', type: 'helper' },
  ];
}

describe('voice "assist": a xiaozhi device through a Home Assistant Assist pipeline (real runtime, HA stand-in)', function () {
  this.timeout(60_000);
  const closers: Array<() => unknown> = [];
  let ha: HomeAssistantStandIn;
  before(async () => {
    await startRuntime();
    ha = await startHomeAssistant({ assist: true });
  });
  after(async () => {
    await ha?.close();
    await stopRuntime();
  });
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
    await helper.unload();
  });

  async function wsVoice(deviceId: string): Promise<DeviceVoice> {
    const device = await XiaozhiWsDevice.connect({ url: helper.url().replace('http', 'ws') + PATH, deviceId, fixture: lichuangDev() });
    closers.push(() => device.close());
    return DeviceVoice.overWebSocket(device);
  }

  async function loadAssist(assist: Record<string, unknown> = {}, listener: Record<string, unknown> = {}, token = ha.token): Promise<void> {
    await load(flow(ha.url, assist, listener), { ha: { token } }, voiceNodes);
  }

  /** Speech as HA's VAD measures it: what the device said, and what the stand-in received. */
  function assertReceivedTheSpeech(runIndex: number): void {
    const run = ha.assist!.runs[runIndex];
    const said = voicedMs(speechSamples());
    const got = voicedMs(run.pcm);
    assert.ok(Math.abs(got - said) <= said * 0.1, `Home Assistant received ${got} ms of speech, the device said ${said} ms`);
  }

  function assertHeard(voice: DeviceVoice, sentence: string, ms = ANSWER_MS): void {
    const r = voice.speaker.report;
    assert.deepEqual(r.sentences, [sentence]);
    assert.ok(Math.abs(r.playedMs - ms) <= ms * 0.1, `the device played ${r.playedMs} ms of a ${ms} ms answer`);
    assert.equal(r.outsideSpeaking + r.overflows + r.decodeErrors, 0);
  }

  it('WebSocket, auto mode: HA gets the speech as 16 kHz PCM and its VAD ends the turn; the device shows the text and plays the answer; both transcripts reach the flow', async () => {
    await loadAssist();
    ha.assist!.script({ transcript: 'Turn on the kitchen light', answer: 'The kitchen light is on.' });
    const runsBefore = ha.assist!.runs.length;
    const voice = await wsVoice('ab:00:00:00:22:01');
    const transcripts = nextMessages('events', 2);
    const stopped = voice.speaker.nextStop();
    await voice.say({ mode: 'auto', realTime: true, trailingSilenceMs: 1500 });
    await stopped;
    const run = ha.assist!.runs[runsBefore];
    assert.equal(run.endedBy, 'vad', "Home Assistant's VAD ended the speech");
    assertReceivedTheSpeech(runsBefore);
    assert.deepEqual(voice.speaker.report.stt, ['Turn on the kitchen light']);
    assertHeard(voice, 'The kitchen light is on.');
    const [user, assistant] = await transcripts;
    assert.equal(user.topic, 'transcript');
    assert.equal(user.payload, 'Turn on the kitchen light');
    assert.equal(user.role, 'user');
    assert.equal(user.device.id, 'ab:00:00:00:22:01');
    assert.equal(user.conversationId, run.conversationIdOut, "the first turn's user transcript carries run-start's conversation id");
    assert.equal(assistant.payload, 'The kitchen light is on.');
    assert.equal(assistant.role, 'assistant');
    assert.equal(assistant.conversationId, run.conversationIdOut);
    assert.ok(
      ha.assist!.served.some((f) => f.endsWith('.mp3')),
      'the answer came from the TTS proxy as MP3',
    );
  });

  it('MQTT gateway + UDP, manual mode: listen stop ends the speech; the answer plays over encrypted UDP', async () => {
    await loadAssist({}, { transport: 'mqtt-gateway', port: '0', bind: '127.0.0.1' });
    const voice = await gatewayVoice('ab:00:00:00:22:02', closers);
    ha.assist!.script({ transcript: 'Turn on the kitchen light', answer: 'The kitchen light is on.' });
    const runsBefore = ha.assist!.runs.length;
    const transcripts = nextMessages('events', 2);
    const stopped = voice.speaker.nextStop();
    await voice.say({ mode: 'manual', realTime: true });
    await stopped;
    assert.equal(ha.assist!.runs[runsBefore].endedBy, 'end-marker', 'listen stop ended the speech');
    assertReceivedTheSpeech(runsBefore);
    assertHeard(voice, 'The kitchen light is on.');
    const [user, assistant] = await transcripts;
    assert.deepEqual([user.role, assistant.role, user.device.transport], ['user', 'assistant', 'mqtt-gateway']);
  });

  it("a follow-up: when HA's answer continues the conversation, the next turn carries its conversation_id; otherwise a new one starts", async () => {
    await loadAssist();
    ha.assist!.script(
      { transcript: 'Turn on the kitchen light', answer: 'Which kitchen light, the ceiling or the counter?', audio: 'followup', continueConversation: true },
      { transcript: 'The ceiling', answer: 'The kitchen light is on.' },
      { transcript: 'Thanks', answer: 'The kitchen light is on.' },
    );
    const first = ha.assist!.runs.length;
    const voice = await wsVoice('ab:00:00:00:22:03');
    for (let turn = 0; turn < 3; turn++) {
      const stopped = voice.speaker.nextStop();
      await voice.say({ mode: 'manual', realTime: false });
      await stopped;
    }
    const runs = ha.assist!.runs.slice(first);
    assert.equal(runs[0].conversationIdIn, undefined);
    assert.equal(runs[1].conversationIdIn, runs[0].conversationIdOut, 'the follow-up keeps the conversation');
    assert.equal(runs[2].conversationIdIn, undefined, 'no follow-up asked: the next turn starts afresh');
  });

  for (const format of ['wav', 'flac', 'ogg'] as TtsFormat[]) {
    it(`plays a ${format.toUpperCase()} answer as well (decoded as it downloads)`, async () => {
      await loadAssist();
      ha.assist!.script({ transcript: 'Turn on the kitchen light', answer: 'The kitchen light is on.', format });
      const voice = await wsVoice('ab:00:00:00:22:04');
      const stopped = voice.speaker.nextStop();
      await voice.say({ mode: 'manual', realTime: false });
      await stopped;
      assertHeard(voice, 'The kitchen light is on.');
      assert.ok(ha.assist!.served.some((f) => f.endsWith(`.${format}`)));
    });
  }

  it("the token goes to Home Assistant's origin only: an answer on another host is fetched without it", async () => {
    // Another origin (another port) that serves the same file, as HA's TTS proxy behind its external URL would.
    const seen: IncomingHttpHeaders[] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers);
      fetch(new URL(req.url!, ha.url).href).then(async (r) =>
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? '' }).end(Buffer.from(await r.arrayBuffer())),
      );
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => other.close(r)));
    await loadAssist();
    ha.assist!.script({
      transcript: 'Turn on the kitchen light',
      answer: 'The kitchen light is on.',
      ttsOrigin: `http://127.0.0.1:${(other.address() as AddressInfo).port}`,
    });
    const voice = await wsVoice('ab:00:00:00:22:06');
    const stopped = voice.speaker.nextStop();
    await voice.say({ mode: 'manual', realTime: false });
    await stopped;
    assertHeard(voice, 'The kitchen light is on.');
    assert.equal(seen.length, 1, 'the answer came from the other host');
    assert.equal(seen[0].authorization, undefined, 'without the Home Assistant token');
  });

  it('the pipelines route passes what Home Assistant answers through the secret scrubber', async () => {
    await loadAssist();
    // A pipeline whose name echoes the token (Home Assistant echoing what it was sent).
    ha.assist!.pipelines.push({ ...ASSIST_PIPELINES[0], id: 'echo', name: `echo ${ha.token}` });
    try {
      const res = await helper.request().get('/esp32-listener/assist/pipelines?server=ha').expect(200);
      assert.equal(res.body.ok, true, JSON.stringify(res.body));
      const text = JSON.stringify(res.body);
      assert.doesNotMatch(text, new RegExp(ha.token));
      assert.match(text, /echo \*\*\*/);
    } finally {
      ha.assist!.pipelines.pop();
    }
  });

  const failures: Array<{ name: string; code: string; setUp: () => { assist?: Record<string, unknown>; token?: string } }> = [
    {
      name: 'nothing recognised',
      code: 'stt-no-text-recognized',
      setUp: () => (ha.assist!.script({ transcript: '', answer: '', fail: 'stt-no-text-recognized' }), {}),
    },
    {
      name: 'the agent fails',
      code: 'intent-failed',
      setUp: () => (ha.assist!.script({ transcript: 'Turn on the kitchen light', answer: '', fail: 'intent-failed' }), {}),
    },
    {
      name: 'text to speech fails',
      code: 'tts-failed',
      setUp: () => (ha.assist!.script({ transcript: 'Turn on the kitchen light', answer: 'x', fail: 'tts-failed' }), {}),
    },
    { name: 'an unknown pipeline', code: 'pipeline-not-found', setUp: () => ({ assist: { pipeline: 'no-such-pipeline' } }) },
    { name: 'a refused token', code: 'unavailable', setUp: () => ({ token: 'not-the-token' }) },
  ];
  for (const f of failures) {
    it(`${f.name}: the turn ends within 2 s with assist_error ${f.code}, the device hears the error tone and is let go`, async () => {
      ha.assist!.script({ transcript: 'Turn on the kitchen light', answer: 'The kitchen light is on.' });
      const { assist, token } = f.setUp();
      await loadAssist(assist, {}, token);
      const voice = await wsVoice('ab:00:00:00:22:05');
      const events: any[] = [];
      helper.getNode('events').on('input', (m: any) => events.push(m));
      const error = waitFor(() => events.find((m) => m.topic === 'assist_error'), 'an assist_error message', 5000);
      const stopped = voice.speaker.nextStop();
      await voice.say({ mode: 'manual', realTime: false });
      const spokeAt = voice.endOfSpeechAt!;
      const msg = await error;
      await stopped;
      const tookMs = performance.now() - spokeAt;
      assert.equal(msg.topic, 'assist_error');
      assert.equal(msg.payload.code, f.code);
      assert.ok(msg.payload.message, 'a message says what failed');
      assert.equal(msg.device.id, 'ab:00:00:00:22:05');
      assert.ok(tookMs < 2000, `the turn ended ${Math.round(tookMs)} ms after the speech`);
      assert.deepEqual(voice.speaker.report.sentences, ['Sorry, that did not work.']);
      assert.ok(voice.speaker.report.playedMs > 300, 'the error tone played');
      if (f.code === 'unavailable') assert.doesNotMatch(JSON.stringify(msg), /not-the-token/);
    });
  }

  it('Home Assistant down at deploy: the status says so; once it is up the next turn works without a redeploy', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/api/mcp`;
    await load(flow(url), { ha: { token: 'late-token' } }, voiceNodes);
    const seen: any[] = [];
    helper.getNode('statuses').on('input', (m: any) => seen.push(m));
    const status = await waitFor(() => seen.find((s) => /^Home Assistant: .*refused/.test(s.status.text)), 'a status naming Home Assistant', 10_000);
    assert.equal(status.status.fill, 'red');
    const late = await startHomeAssistant({ assist: true, port, token: 'late-token' });
    closers.push(() => late.close());
    late.assist!.script({ transcript: 'Turn on the kitchen light', answer: 'The kitchen light is on.' });
    const voice = await wsVoice('ab:00:00:00:22:06');
    const stopped = voice.speaker.nextStop();
    await voice.say({ mode: 'manual', realTime: false });
    await stopped;
    assertHeard(voice, 'The kitchen light is on.');
    assert.equal(late.assist!.runs.length, 1);
  });
});
