// The voice engine end to end against the simulated device: it speaks real Opus (espeak-ng speech)
// over WebSocket (protocol v1, v2, v3) and over MQTT + encrypted UDP; the engine turns it into a
// 16 kHz WAV utterance and speaks an answer back, which the device's speaker decodes and judges
// (rate, duration, pacing, tts brackets). Then everything a real device can do wrong.
import { waitFor } from '../helpers/wait';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { decodeWav, pcmFromBytes, encodeWav, type PcmAudio } from '../../src/audio';
import { Conversation, type Utterance } from '../../src/voice/conversation';
import { lichuangDev, XiaozhiWsDevice, XiaozhiMqttDevice, DeviceVoice, speechSamples } from '../peers/xiaozhi-device';
import { startWsVoiceServer, startMqttVoiceServer, type ConversationFactory } from './voice-harness';

const ANSWER: PcmAudio = { samples: pcmFromBytes(readFileSync(join(__dirname, '../peers/fake-gemini/fixtures/answer-24k.pcm'))), sampleRate: 24000 };
const ANSWER_MS = (ANSWER.samples.length * 1000) / 24000;
const SPEECH_MS = (speechSamples().length * 1000) / 16000;

/** A conversation that answers every utterance with the answer fixture and records what happened. */
function answering(record: { utterances: Utterance[]; results: any[] }, answer: PcmAudio | string = ANSWER): ConversationFactory {
  return (base) => {
    const conversation = new Conversation({ ...base, tts: async () => ANSWER });
    conversation.on('utterance', (u) => {
      record.utterances.push(u);
      conversation.speak(answer, { display: 'heard you' }).then(
        (r) => record.results.push(r),
        (e) => record.results.push(e),
      );
    });
    return conversation;
  };
}

function assertHeardAnswer(voice: DeviceVoice): void {
  const r = voice.speaker.report;
  assert.equal(r.sampleRate, 24000, 'downlink announced at 24 kHz');
  assert.equal(r.ttsStarts, 1);
  assert.equal(r.ttsStops, 1);
  assert.equal(r.decodeErrors, 0);
  assert.equal(r.oversized, 0, 'no packet longer than the announced 60 ms');
  assert.equal(r.outsideSpeaking, 0, 'all audio between tts start and stop');
  assert.equal(r.overflows, 0, 'the 40-packet queue never overflowed');
  // Paced, not dumped: the server keeps about five frames queued on the device. A busy machine can
  // stall both ends for a moment and the queue catches up by a few frames; an answer sent unpaced
  // would queue most of its frames at once.
  const answerFrames = Math.ceil(ANSWER_MS / 60);
  assert.ok(r.maxQueue <= answerFrames / 2, `device queue stayed well below the answer's ${answerFrames} frames (max ${r.maxQueue})`);
  assert.ok(Math.abs(r.playedMs - ANSWER_MS) <= 60, `played ${r.playedMs} ms of a ${ANSWER_MS} ms answer`);
  assert.ok(r.peak > 2000, 'the answer is not silence');
  assert.deepEqual(r.stt, ['heard you']);
}

describe('voice: a conversation over WebSocket', () => {
  for (const version of ['1', '2', '3']) {
    it(`protocol v${version}: the device says something and hears the answer`, async () => {
      const record = { utterances: [] as Utterance[], results: [] as any[] };
      const server = await startWsVoiceServer(answering(record));
      const device = await XiaozhiWsDevice.connect({ url: server.url, deviceId: 'aa:bb:cc:dd:ee:01', protocolVersion: version, fixture: lichuangDev() });
      try {
        const voice = await DeviceVoice.overWebSocket(device);
        const stopped = voice.speaker.nextStop();
        await voice.say({ mode: 'manual', realTime: false });
        await stopped;
        const [u] = record.utterances;
        assert.equal(u.sampleRate, 16000);
        assert.equal(u.endedBy, 'stop');
        assert.ok(Math.abs(u.durationMs - SPEECH_MS) <= 60, `utterance ${u.durationMs} ms, spoke ${SPEECH_MS} ms`);
        const wav = decodeWav(u.wav);
        assert.equal(wav.sampleRate, 16000);
        assert.equal(wav.samples.length, u.samples.length);
        assertHeardAnswer(voice);
        assert.deepEqual(record.results, [{ durationMs: Math.ceil(ANSWER_MS / 60) * 60, aborted: false }]);
      } finally {
        device.close();
        await server.close();
      }
    });
  }

  it('auto mode: the engine VAD ends the turn on silence and the wake word travels with the utterance', async () => {
    const record = { utterances: [] as Utterance[], results: [] as any[] };
    const server = await startWsVoiceServer(answering(record));
    const device = await XiaozhiWsDevice.connect({ url: server.url, deviceId: 'aa:bb:cc:dd:ee:02', fixture: lichuangDev() });
    try {
      const voice = await DeviceVoice.overWebSocket(device);
      await voice.say({ mode: 'auto', realTime: false, wakeWord: '你好小智', trailingSilenceMs: 1500 });
      const [u] = await waitFor(() => (record.utterances.length ? record.utterances : undefined), 'an utterance');
      assert.equal(u.endedBy, 'silence');
      assert.equal(u.mode, 'auto');
      assert.equal(u.wakeWord, '你好小智');
      assert.ok(u.durationMs >= SPEECH_MS - 200 && u.durationMs <= SPEECH_MS + 1500, `utterance ${u.durationMs} ms`);
    } finally {
      device.close();
      await server.close();
    }
  });
});

describe('voice: a conversation over MQTT + UDP', () => {
  it('the device asks for UDP in its hello, gets key and nonce, speaks encrypted Opus and hears the answer', async () => {
    const record = { utterances: [] as Utterance[], results: [] as any[] };
    const server = await startMqttVoiceServer(answering(record));
    const device = await XiaozhiMqttDevice.connect({ brokerUrl: server.url, deviceId: 'aa:bb:cc:dd:ee:03', mode: 'subscribing', fixture: lichuangDev() });
    try {
      const voice = await DeviceVoice.overMqtt(device);
      assert.ok(device.sessionId, 'session id from the hello reply');
      const stopped = voice.speaker.nextStop();
      // In real time, as a device speaks: audio (UDP) and the listen stop (MQTT) travel on two
      // channels, and a burst of every frame at once let a busy machine deliver the stop first.
      await voice.say({ mode: 'manual' });
      await stopped;
      assert.equal(record.utterances[0].endedBy, 'stop');
      assert.ok(Math.abs(record.utterances[0].durationMs - SPEECH_MS) <= 60);
      assertHeardAnswer(voice);
      assert.deepEqual(voice.udp.dropped, { type: 0, stale: 0, short: 0 });
      assert.equal(voice.udp.gaps, 0, 'downlink sequence numbers count up by one');
    } finally {
      await device.end();
      await server.close();
    }
  });

  it('drops forged, replayed and truncated datagrams and keeps the session', async () => {
    const record = { utterances: [] as Utterance[], results: [] as any[] };
    const server = await startMqttVoiceServer(answering(record));
    const device = await XiaozhiMqttDevice.connect({ brokerUrl: server.url, deviceId: 'aa:bb:cc:dd:ee:04', mode: 'subscribing', fixture: lichuangDev() });
    try {
      const voice = await DeviceVoice.overMqtt(device);
      voice.listenStart('manual');
      // "listen start" travels over MQTT and the audio over UDP: a datagram that overtakes it is
      // audio outside the turn. Wait until the turn has started, however busy the machine.
      await waitFor(() => server.conversations[0]?.listening || undefined, 'the turn to start');
      const frames = voice.mic.frames(speechSamples());
      const nonce = Buffer.from(voice.udp.hello.nonce, 'hex');
      voice.udp.sendRaw(randomBytes(40)); // unknown ssrc
      voice.udp.sendRaw(Buffer.concat([nonce.subarray(0, 8), Buffer.alloc(4)])); // shorter than a header
      const forged = Buffer.concat([nonce, randomBytes(30)]);
      forged.writeUInt16BE(30, 2);
      forged.writeUInt32BE(1, 12);
      voice.udp.sendRaw(forged); // right header, wrong key: decrypts to garbage Opus
      for (const f of frames) voice.sendOpusPacket(f);
      voice.udp.sendRaw(Buffer.concat([nonce, Buffer.alloc(3)])); // len field says 0, body says 3
      // Every datagram read before the stop (another channel) ends the turn, however busy the machine:
      // the forged one (right header: decrypted, then fails to decode) and the real frames but the
      // first, which carries the sequence number the forged one took (a replay, dropped before).
      await waitFor(() => ((server.conversations[0]?.stats.packetsIn ?? 0) >= frames.length ? true : undefined), 'every datagram read');
      voice.listenStop();
      const [u] = await waitFor(() => (record.utterances.length ? record.utterances : undefined), 'an utterance');
      assert.ok(Math.abs(u.durationMs - SPEECH_MS) <= 60, 'the real speech arrived whole');
      const conversation = server.conversations[0];
      assert.ok(conversation.stats.decodeFailures <= 1, 'the forged packet at most failed to decode');
      assert.ok(server.udp.strays >= 1);
    } finally {
      await device.end();
      await server.close();
    }
  });
});

describe('voice: bad input and interruptions', () => {
  async function session(factory: ConversationFactory) {
    const server = await startWsVoiceServer(factory);
    const device = await XiaozhiWsDevice.connect({ url: server.url, deviceId: 'aa:bb:cc:dd:ee:05', protocolVersion: '3', fixture: lichuangDev() });
    return { server, device };
  }

  it('ignores audio before hello, truncated/corrupt Opus and broken frame headers, and still hears the person', async () => {
    const record = { utterances: [] as Utterance[], results: [] as any[] };
    const server = await startWsVoiceServer(answering(record));
    const device = await XiaozhiWsDevice.connect({
      url: server.url,
      deviceId: 'aa:bb:cc:dd:ee:06',
      protocolVersion: '3',
      fixture: lichuangDev(),
      sendHello: false,
    });
    try {
      device.sendBinary(Buffer.from([0, 0, 0, 3, 1, 2, 3])); // audio before hello
      await new Promise((r) => setTimeout(r, 50));
      device.sendText(device.helloFrame());
      const voice = await DeviceVoice.overWebSocket(device);
      voice.listenStart('manual');
      const frames = voice.mic.frames(speechSamples());
      for (const [i, f] of frames.entries()) {
        voice.sendOpusPacket(f);
        if (i === 5) voice.sendOpusPacket(Buffer.from([0x01, 0x00])); // code-1 packet cut after its TOC byte
        if (i === 6) voice.sendOpusPacket(Buffer.from([0x03, 0x00])); // code-3 packet declaring zero frames
        if (i === 8) voice.sendOpusPacket(Buffer.alloc(0)); // empty
        if (i === 7) device.sendBinary(Buffer.from([0, 0, 0xff, 0xff, 1])); // header claims 65535 bytes
      }
      const stopped = voice.speaker.nextStop();
      voice.listenStop();
      await stopped;
      assert.equal(server.stats.audioBeforeHello, 1);
      assert.equal(server.stats.badFrames, 1);
      const stats = server.conversations[0].stats;
      assert.equal(stats.decodeFailures, 3);
      assert.ok(record.utterances[0].durationMs >= SPEECH_MS - 60);
      assertHeardAnswer(voice);
    } finally {
      device.close();
      await server.close();
    }
  });

  it('resamples answers given at another rate (44.1 kHz stereo WAV) to the announced 24 kHz', async () => {
    const stereo = new Int16Array(44100 * 2);
    for (let i = 0; i < 44100; i++) stereo[2 * i] = stereo[2 * i + 1] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 44100));
    const wav = encodeWav(stereo, 44100, 2);
    let conversation!: Conversation;
    const { server, device } = await session((base) => (conversation = new Conversation(base)));
    try {
      const voice = await DeviceVoice.overWebSocket(device);
      const result = await conversation.speak(decodeWav(wav));
      assert.equal(result.aborted, false);
      assert.equal(voice.speaker.report.sampleRate, 24000);
      assert.ok(Math.abs(voice.speaker.report.playedMs - 1000) <= 60, `played ${voice.speaker.report.playedMs} ms of 1 s`);
      assert.equal(voice.speaker.report.decodeErrors, 0);
    } finally {
      device.close();
      await server.close();
    }
  });

  it('abort from the device stops playback and still sends tts stop (the device plays on until it)', async () => {
    let conversation!: Conversation;
    const { server, device } = await session((base) => (conversation = new Conversation(base)));
    try {
      const voice = await DeviceVoice.overWebSocket(device);
      const long: PcmAudio = { samples: new Int16Array(24000 * 5).map((_, i) => 5000 * Math.sin(i / 5)), sampleRate: 24000 };
      const playing = conversation.speak(long);
      await new Promise((r) => voice.speaker.once('first-audio', r));
      voice.abort();
      const result = await playing;
      assert.equal(result.aborted, true);
      assert.equal(result.reason, 'abort');
      assert.ok(result.durationMs < 5000);
      await waitFor(() => voice.speaker.report.ttsStops === 1, 'tts stop');
    } finally {
      device.close();
      await server.close();
    }
  });

  it('barge-in: the device starts listening during playback, playback stops', async () => {
    let conversation!: Conversation;
    const { server, device } = await session((base) => (conversation = new Conversation(base)));
    try {
      const voice = await DeviceVoice.overWebSocket(device);
      let bargeIn = 0;
      conversation.on('barge-in', () => bargeIn++);
      const playing = conversation.speak({ samples: new Int16Array(24000 * 5).fill(3000), sampleRate: 24000 });
      await new Promise((r) => voice.speaker.once('first-audio', r));
      voice.listenStart('realtime');
      const result = await playing;
      assert.equal(result.reason, 'barge-in');
      assert.equal(bargeIn, 1);
      assert.ok(conversation.listening);
    } finally {
      device.close();
      await server.close();
    }
  });

  it('a device that vanishes mid-playback ends playback as aborted, without an error', async () => {
    let conversation!: Conversation;
    const { server, device } = await session((base) => (conversation = new Conversation(base)));
    try {
      const voice = await DeviceVoice.overWebSocket(device);
      const playing = conversation.speak({ samples: new Int16Array(24000 * 5).fill(3000), sampleRate: 24000 });
      await new Promise((r) => voice.speaker.once('first-audio', r));
      device.dropTcp();
      const result = await playing;
      assert.equal(result.aborted, true);
      assert.equal(result.reason, 'closed');
      const late = await conversation.speak('anything');
      assert.deepEqual(late, { durationMs: 0, aborted: true, reason: 'closed' });
    } finally {
      await server.close();
    }
  });

  it('a text answer needs a TTS provider; with one, the text is the sentence_start', async () => {
    let conversation!: Conversation;
    const { server, device } = await session((base) => (conversation = new Conversation(base)));
    try {
      const voice = await DeviceVoice.overWebSocket(device);
      await assert.rejects(conversation.speak('hello'), /No text-to-speech provider/);
      const spoken: string[] = [];
      const withTts = new Conversation({
        link: { sendJson: (m) => device.ws.emit('message', Buffer.from(JSON.stringify(m)), false), sendAudio: () => undefined },
        tts: async (t) => (spoken.push(t), ANSWER),
      });
      await withTts.speak('The kitchen light is on.');
      assert.deepEqual(spoken, ['The kitchen light is on.']);
      assert.deepEqual(voice.speaker.report.sentences, ['The kitchen light is on.']);
    } finally {
      device.close();
      await server.close();
    }
  });
});
