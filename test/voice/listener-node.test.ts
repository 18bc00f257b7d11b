// The voice path through the real nodes in the real Node-RED runtime: an esp32-listener with
// voice "flow", esp32-mcp-in emitting the utterance, a function node answering with audio and
// esp32-say playing it back, over WebSocket and over the MQTT gateway + encrypted UDP. And what a
// real device may do wrong: audio before its hello, corrupt and truncated Opus, vanishing while
// it is being spoken to. None of it may take the listener (or Node-RED) down.
import assert from 'node:assert/strict';
import { helper, load, nextMessage, startRuntime, stopRuntime, type FlowNode } from '../helpers/runtime';
import { waitFor } from '../helpers/wait';
import { gatewayVoice } from './gateway-voice';
import { lichuangDev, XiaozhiWsDevice, DeviceVoice, frameForServer } from '../peers/xiaozhi-device';
import { decodeWav } from '../../src/audio';
import type { VoiceHub } from '../../src/voice/voice-hub';

const voiceNodes = [require('../../nodes/esp32-listener/index.ts'), require('../../nodes/esp32-mcp-in/index.ts'), require('../../nodes/esp32-say/index.ts')];
const PATH = '/xiaozhi/voice-test/';
const ANSWER_MS = 1200;

/** The flow's answer: ANSWER_MS of a 24 kHz tone as PCM with msg.sampleRate, to the device that spoke. */
const ANSWER_FUNCTION = `
const rate = 24000, n = rate * ${ANSWER_MS} / 1000, pcm = Buffer.alloc(n * 2);
for (let i = 0; i < n; i++) pcm.writeInt16LE(Math.round(6000 * Math.sin(i / 5)), i * 2);
return { payload: pcm, sampleRate: rate, device: msg.device, display: 'heard ' + msg.payload.length + ' bytes' };`;

function flow(listener: Record<string, unknown>): FlowNode[] {
  return [
    { id: 'lst', type: 'esp32-listener', name: 'voice', transport: 'websocket', path: PATH, anonymous: true, voice: 'flow', ...listener },
    { id: 'in', type: 'esp32-mcp-in', listener: 'lst', events: 'utterance', wires: [['utterances', 'answer']] },
    { id: 'utterances', type: 'helper' },
    { id: 'answer', type: 'function', func: ANSWER_FUNCTION, outputs: 1, wires: [['say']] },
    { id: 'say', type: 'esp32-say', listener: 'lst', deviceId: '', tts: { provider: 'gemini' }, wires: [['played']] },
    { id: 'played', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

describe('voice through the esp32-listener node (real runtime)', function () {
  this.timeout(30_000);
  const closers: Array<() => unknown> = [];
  const wsUrl = () => helper.url().replace('http', 'ws') + PATH;
  const hub = () => helper.getNode('lst').voice as VoiceHub;
  before(startRuntime);
  after(stopRuntime);
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
    await helper.unload();
  });

  async function wsDevice(deviceId: string, opts: Partial<Parameters<typeof XiaozhiWsDevice.connect>[0]> = {}): Promise<XiaozhiWsDevice> {
    const device = await XiaozhiWsDevice.connect({ url: wsUrl(), deviceId, fixture: lichuangDev(), ...opts });
    closers.push(() => device.close());
    return device;
  }

  /** The person speaks, the flow answers: the utterance message and what the device heard. */
  async function converse(voice: DeviceVoice, wakeWord?: string) {
    const utterance = nextMessage('utterances');
    const played = nextMessage('played');
    const stopped = voice.speaker.nextStop();
    await voice.say({ mode: 'manual', realTime: false, wakeWord });
    const [msg, done] = await Promise.all([utterance, played, stopped]);
    return { msg, done };
  }

  function assertHeardTheAnswer(voice: DeviceVoice) {
    const r = voice.speaker.report;
    assert.equal(r.sampleRate, 24000);
    assert.ok(Math.abs(r.playedMs - ANSWER_MS) <= 60, `played ${r.playedMs} of ${ANSWER_MS} ms`);
    assert.equal(r.outsideSpeaking + r.overflows + r.decodeErrors, 0);
    assert.equal(r.stt.length, 1);
  }

  it('WebSocket: the utterance leaves esp32-mcp-in as a 16 kHz WAV with device and wake word, and the answer plays on the device', async () => {
    await load(flow({}), {}, voiceNodes);
    const device = await wsDevice('ab:00:00:00:10:01');
    const voice = await DeviceVoice.overWebSocket(device);
    assert.equal((await device.serverHello).audio_params.sample_rate, 24000, 'the hello answer announces the downlink');
    const { msg, done } = await converse(voice, '你好小智');
    assert.equal(msg.topic, 'utterance');
    assert.ok(Buffer.isBuffer(msg.payload), 'payload is a Buffer');
    const wav = decodeWav(msg.payload);
    assert.equal(wav.sampleRate, 16000);
    assert.ok(wav.samples.length > 16000, 'more than a second of speech');
    assert.equal(msg.wakeWord, '你好小智');
    assert.equal(msg.device.id, 'ab:00:00:00:10:01');
    assert.equal(msg.device.transport, 'websocket');
    assert.equal(msg.device.sessionId, device.sessionId);
    assert.deepEqual(done.payload, { durationMs: ANSWER_MS, aborted: false });
    assertHeardTheAnswer(voice);
  });

  it('MQTT gateway + UDP: the hello answer carries the UDP channel, the utterance and the answer travel encrypted', async () => {
    await load(flow({ transport: 'mqtt-gateway', port: '0', bind: '127.0.0.1' }), {}, voiceNodes);
    const voice = await gatewayVoice('ab:00:00:00:10:02', closers);
    const { msg, done } = await converse(voice);
    assert.equal(msg.device.id, 'ab:00:00:00:10:02');
    assert.equal(msg.device.transport, 'mqtt-gateway');
    assert.equal(decodeWav(msg.payload).sampleRate, 16000);
    assert.equal(msg.wakeWord, undefined);
    assert.equal(done.payload.aborted, false);
    assertHeardTheAnswer(voice);
  });

  it('audio before the hello is dropped, and the device that then says hello is served normally', async () => {
    await load(flow({}), {}, voiceNodes);
    const device = await wsDevice('ab:00:00:00:10:03', { sendHello: false });
    for (let i = 0; i < 20; i++) device.sendBinary(frameForServer(1, Buffer.from([0xf8, 0xff, 0xfe, i]), i * 60));
    device.sendBinary(Buffer.from([1, 2, 3]));
    device.sendText(device.helloFrame());
    const voice = await DeviceVoice.overWebSocket(device);
    const { done } = await converse(voice);
    assert.equal(done.payload.aborted, false);
    assertHeardTheAnswer(voice);
  });

  it('corrupt and truncated Opus in a turn are skipped: the real frames still make the utterance', async () => {
    await load(flow({}), {}, voiceNodes);
    const device = await wsDevice('ab:00:00:00:10:04', { protocolVersion: '3' });
    const voice = await DeviceVoice.overWebSocket(device);
    const utterance = nextMessage('utterances');
    voice.listenStart('manual');
    const frames = voice.mic.frames(new Int16Array(16000).map((_, i) => Math.round(7000 * Math.sin(i / 4))));
    for (const [i, f] of frames.entries()) {
      voice.sendOpusPacket(f);
      voice.sendOpusPacket(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x13, i])); // undecodable
      voice.sendOpusPacket(f.subarray(0, 2)); // truncated
      device.sendBinary(Buffer.from([0, 0, 0, 0xff, 1])); // a protocol 3 header announcing 255 bytes, carrying 1
    }
    device.sendBinary(Buffer.alloc(0));
    voice.listenStop();
    const msg = await utterance;
    const wav = decodeWav(msg.payload);
    assert.ok(wav.samples.length >= 15000, `${wav.samples.length} samples from the good frames`);
    assert.ok(hub().stats.badFrames >= frames.length, 'bad headers were counted');
    assert.ok(hub().conversation('ab:00:00:00:10:04')!.stats.decodeFailures > 0, 'undecodable packets were counted');
    await nextMessage('played');
  });

  it('a device that vanishes mid-playback ends esp32-say with aborted:true, and the listener serves the next device', async () => {
    await load(flow({}), {}, voiceNodes);
    const device = await wsDevice('ab:00:00:00:10:05');
    const voice = await DeviceVoice.overWebSocket(device);
    const long = Buffer.alloc(24000 * 2 * 8);
    for (let i = 0; i < long.length / 2; i++) long.writeInt16LE(Math.round(6000 * Math.sin(i / 5)), i * 2);
    const played = nextMessage('played');
    helper.getNode('say').receive({ payload: long, sampleRate: 24000, device: { id: 'ab:00:00:00:10:05' } });
    await new Promise((r) => voice.speaker.once('first-audio', r));
    device.dropTcp();
    const done = await played;
    assert.equal(done.payload.aborted, true);
    assert.ok(done.payload.durationMs < 8000);
    await waitFor(() => hub().conversation('ab:00:00:00:10:05') === undefined || undefined, 'the channel to close');
    const next = await wsDevice('ab:00:00:00:10:06');
    const { done: second } = await converse(await DeviceVoice.overWebSocket(next));
    assert.equal(second.payload.aborted, false);
  });

  it('voice "off" opens no channel: audio is skipped and esp32-say says what to configure', async () => {
    await load(flow({ voice: 'off' }), {}, voiceNodes);
    const device = await wsDevice('ab:00:00:00:10:07');
    await device.serverHello;
    device.sendBinary(frameForServer(1, Buffer.from([0xf8, 0xff, 0xfe]), 0));
    const caught = nextMessage('caught');
    helper.getNode('say').receive({ payload: 'hello', device: { id: 'ab:00:00:00:10:07' } });
    const err = await caught;
    assert.match(err.error.message, /voice setting is "off"/);
  });
});
