// Odd but possible devices and the simulator's own judgement (a peer that cannot catch a fault
// proves nothing): other frame durations and sample rates, and a speaker that really flags audio
// outside Speaking, queue overflows and oversize packets.
import { strict as assert } from 'node:assert';
import { encodeAll } from '../../src/audio';
import { AUDIO_SLACK_MS, Conversation, type Utterance } from '../../src/voice/conversation';
import { VoiceHub } from '../../src/voice/voice-hub';
import { DeviceSpeaker, lichuangDev, udpHelloProblem, XiaozhiWsDevice, DeviceVoice, speechSamples } from '../peers/xiaozhi-device';
import { startHubServers } from './voice-harness';

const tone = (rate: number, ms: number) => Int16Array.from({ length: (rate * ms) / 1000 }, (_, i) => Math.round(6000 * Math.sin(i / 5)));

describe('voice: odd devices', () => {
  it('a device that uses 20 ms frames gets 20 ms downlink frames, announced in the hello', async () => {
    const hub: VoiceHub = new VoiceHub({
      mode: 'flow',
      onUtterance: (d) => void hub.conversation(d.id)!.speak({ samples: tone(24000, 1000), sampleRate: 24000 }),
    });
    const servers = await startHubServers(hub);
    const device = await XiaozhiWsDevice.connect({ url: servers.wsUrl, deviceId: 'ab:00:00:00:00:20', fixture: lichuangDev(), sendHello: false });
    try {
      device.sendText(device.helloFrame().replace('"frame_duration":60', '"frame_duration":20'));
      const voice = await DeviceVoice.overWebSocket(device);
      assert.equal((await device.serverHello).audio_params.frame_duration, 20);
      const stopped = voice.speaker.nextStop();
      await voice.say({ mode: 'manual', realTime: false });
      await stopped;
      const r = voice.speaker.report;
      assert.equal(r.frameMs, 20);
      assert.equal(r.oversized, 0, 'no packet longer than 20 ms');
      assert.equal(r.played, 50);
      assert.equal(r.overflows + r.outsideSpeaking, 0);
    } finally {
      device.close();
      await servers.close();
    }
  });

  it('uplink encoded at 48 kHz (a device announcing another rate) still becomes a 16 kHz utterance of the right length', () => {
    const utterances: Utterance[] = [];
    const conversation = new Conversation({ link: { sendJson: () => undefined, sendAudio: () => undefined } });
    conversation.on('utterance', (u) => utterances.push(u));
    conversation.handleJson({ type: 'listen', state: 'start', mode: 'manual' });
    for (const p of encodeAll(tone(48000, 1200), { sampleRate: 48000, frameMs: 60 })) conversation.handleAudio(p);
    conversation.handleJson({ type: 'listen', state: 'stop' });
    assert.equal(utterances[0].sampleRate, 16000);
    assert.equal(utterances[0].durationMs, 1200);
  });

  it('audio without a listening turn is dropped and counted, never decoded into an utterance', () => {
    const utterances: Utterance[] = [];
    const conversation = new Conversation({ link: { sendJson: () => undefined, sendAudio: () => undefined } });
    conversation.on('utterance', (u) => utterances.push(u));
    for (const p of encodeAll(speechSamples(), { sampleRate: 16000, frameMs: 60 })) conversation.handleAudio(p);
    conversation.handleJson({ type: 'listen', state: 'stop' });
    assert.equal(utterances.length, 0);
    assert.equal(conversation.stats.droppedOutsideTurn, 42);
  });

  it('listen fields of the wrong type are read by their type: an object mode is not passed on, the turn still starts', () => {
    const events: unknown[] = [];
    const conversation = new Conversation({ link: { sendJson: () => undefined, sendAudio: () => undefined } });
    conversation.on('listen', (l) => events.push(l));
    assert.equal(conversation.handleJson({ type: 'listen', state: 'start', mode: { evil: true }, text: 42 }), true);
    assert.equal(conversation.handleJson({ type: 'listen', state: 'detect', mode: 'auto', text: 'hi' }), true);
    assert.equal(conversation.handleJson({ type: 'hello' }), false);
    assert.equal(conversation.handleJson(null), false);
    assert.deepEqual(events, [{ state: 'start' }, { state: 'detect', mode: 'auto', text: 'hi' }]);
  });
});

describe('voice: uplink audio at most at real time', () => {
  it('ten minutes of audio sent at once become one utterance of a few seconds, the rest dropped undecoded and counted', () => {
    const utterances: Utterance[] = [];
    const conversation = new Conversation({ link: { sendJson: () => undefined, sendAudio: () => undefined } });
    conversation.on('utterance', (u) => utterances.push(u));
    const [frame] = encodeAll(tone(16000, 60), { sampleRate: 16000, frameMs: 60 });
    const started = Date.now();
    conversation.handleJson({ type: 'listen', state: 'start', mode: 'manual' });
    for (let i = 0; i < 10_000; i++) conversation.handleAudio(frame); // 600 s of 60 ms frames
    conversation.handleJson({ type: 'listen', state: 'stop' });
    const elapsed = Date.now() - started;
    assert.equal(utterances.length, 1, 'one utterance, not one per 30 s');
    assert.ok(utterances[0].durationMs <= AUDIO_SLACK_MS + elapsed + 60, `${utterances[0].durationMs} ms of audio in ${elapsed} ms`);
    assert.equal(conversation.stats.droppedTooFast + utterances[0].durationMs / 60, 10_000, 'every frame is either heard or counted');
  });

  it('audio at real time is all taken: a 4 s turn paced at 60 ms frames is one 4 s utterance', async () => {
    const utterances: Utterance[] = [];
    const conversation = new Conversation({ link: { sendJson: () => undefined, sendAudio: () => undefined } });
    conversation.on('utterance', (u) => utterances.push(u));
    const frames = encodeAll(tone(16000, 4020), { sampleRate: 16000, frameMs: 60 });
    conversation.handleJson({ type: 'listen', state: 'start', mode: 'manual' });
    for (const f of frames) {
      conversation.handleAudio(f);
      await new Promise((r) => setTimeout(r, 60));
    }
    conversation.handleJson({ type: 'listen', state: 'stop' });
    assert.equal(conversation.stats.droppedTooFast, 0);
    assert.equal(utterances[0].durationMs, 4020);
  });
});

describe('simulator: the speaker and the hello check catch what the firmware would not accept', () => {
  const frames = encodeAll(tone(24000, 3000), { sampleRate: 24000, frameMs: 60 });

  it('flags audio before tts start, a burst beyond 40 queued packets, and packets longer than announced', () => {
    const speaker = new DeviceSpeaker();
    speaker.configure({ sample_rate: 24000, frame_duration: 60 });
    speaker.onAudio(frames[0]);
    assert.equal(speaker.report.outsideSpeaking, 1);
    speaker.onJson({ type: 'tts', state: 'start' });
    const now = performance.now();
    for (const f of frames) speaker.onAudio(f, now); // 50 packets at one instant
    assert.equal(speaker.report.overflows, 10);
    assert.equal(speaker.report.maxQueue, 40);
    const short = new DeviceSpeaker();
    short.configure({ sample_rate: 24000, frame_duration: 20 });
    short.onJson({ type: 'tts', state: 'start' });
    short.onAudio(frames[0]);
    assert.equal(short.report.oversized, 1);
  });

  it('rejects UDP hello answers the firmware rejects', () => {
    const good = { server: '10.0.0.2', port: 8884, key: '00112233445566778899aabbccddeeff', nonce: '01000000000000000000000000000000' };
    assert.equal(udpHelloProblem(good), undefined);
    assert.match(udpHelloProblem({ ...good, port: 0 })!, /port/);
    assert.match(udpHelloProblem({ ...good, key: 'abcd' })!, /key/);
    assert.match(udpHelloProblem({ ...good, server: 5 })!, /server/);
  });
});

describe('voice: UDP sessions accept audio only from the device', () => {
  it('refuses well-formed packets from another address (AES-CTR authenticates nothing)', async () => {
    const { UdpAudioServer } = await import('../../src/voice/udp-audio-server');
    const { UdpAudioCrypto } = await import('../../src/voice/udp-crypto');
    const { createSocket } = await import('node:dgram');
    const server = await UdpAudioServer.start({ bind: '127.0.0.1' });
    const elsewhere = server.open('10.9.9.9');
    const here = server.open('::ffff:127.0.0.1');
    const got: string[] = [];
    elsewhere.on('audio', () => got.push('elsewhere'));
    here.on('audio', () => got.push('here'));
    const socket = createSocket('udp4');
    try {
      for (const session of [elsewhere, here]) {
        const sealed = new UdpAudioCrypto(session.keys).seal(Buffer.from([0xf8, 0xff, 0xfe]), 0);
        await new Promise<void>((r) => socket.send(sealed, server.port, '127.0.0.1', () => r()));
      }
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(got, ['here']);
      assert.equal(elsewhere.rejected, 1);
      assert.equal(elsewhere.remote, undefined, 'the downlink address was not taken over');
    } finally {
      socket.close();
      await server.close();
    }
  });

  it("a spoofed packet from the device's address but another port (not Opus, or far ahead) neither moves the session nor drops the next utterance; a real port change does", async () => {
    const { UdpAudioServer } = await import('../../src/voice/udp-audio-server');
    const { UdpAudioCrypto } = await import('../../src/voice/udp-crypto');
    const { createSocket } = await import('node:dgram');
    const { randomBytes } = await import('node:crypto');
    const server = await UdpAudioServer.start({ bind: '127.0.0.1' });
    const session = server.open('127.0.0.1');
    const heard: string[] = [];
    session.on('audio', (opus: Buffer) => heard.push(opus.toString('hex')));
    const bind = async () => {
      const s = createSocket('udp4');
      await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
      return s;
    };
    const [device, spoofer, moved] = [await bind(), await bind(), await bind()];
    const send = (s: typeof device, packet: Buffer) => new Promise<void>((r) => s.send(packet, server.port, '127.0.0.1', () => r()));
    const settle = () => new Promise((r) => setTimeout(r, 60));
    const deviceCrypto = new UdpAudioCrypto(session.keys);
    const opus = (n: number) => Buffer.from([0xf8, 0xff, n]); // TOC config 31, one frame (RFC 6716 code 0)
    try {
      await send(device, deviceCrypto.seal(opus(1), 0));
      await settle();
      assert.equal(session.remote?.port, device.address().port);
      // Far ahead, unkeyed: the ssrc is on the wire, the key is not.
      const ahead = Buffer.concat([session.keys.nonce, randomBytes(40)]);
      ahead.writeUInt16BE(40, 2);
      ahead.writeUInt32BE(100_000, 12);
      await send(spoofer, ahead);
      // Near, but decrypting to something that is not Opus (two "equal" frames in an odd byte count: RFC 6716 R3).
      const notOpus = new UdpAudioCrypto(session.keys);
      for (let i = 0; i < 2; i++) notOpus.seal(Buffer.alloc(1), 0);
      await send(spoofer, notOpus.seal(Buffer.from([0xf9, 1, 2, 3]), 0));
      await send(spoofer, notOpus.seal(Buffer.from([0xf9, 1, 2, 3, 4, 5]), 0));
      await settle();
      assert.equal(session.remote?.port, device.address().port, 'the downlink stays with the device');
      await send(device, deviceCrypto.seal(opus(2), 0));
      await settle();
      assert.deepEqual(heard, ['f8ff01', 'f8ff02'], "the device's next packet is heard");
      // The device's NAT gives it a new port: the first packet from there waits, the second moves the session.
      await send(moved, deviceCrypto.seal(opus(3), 0));
      await settle();
      assert.equal(session.remote?.port, device.address().port);
      await send(moved, deviceCrypto.seal(opus(4), 0));
      await settle();
      assert.equal(session.remote?.port, moved.address().port);
      assert.deepEqual(heard, ['f8ff01', 'f8ff02', 'f8ff04']);
    } finally {
      for (const s of [device, spoofer, moved]) s.close();
      await server.close();
    }
  });

  it('session numbers (ssrc) are unpredictable: no two of 200 sessions are one apart', async () => {
    const { UdpAudioServer } = await import('../../src/voice/udp-audio-server');
    const server = await UdpAudioServer.start({ bind: '127.0.0.1' });
    try {
      const ssrcs = Array.from({ length: 200 }, () => server.open('127.0.0.1').ssrc).sort((a, b) => a - b);
      const neighbours = ssrcs.filter((v, i) => i > 0 && v - ssrcs[i - 1] <= 1).length;
      assert.equal(neighbours, 0, 'a counter would make every next session one more than the last');
      assert.ok(new Set(ssrcs.map((s) => s >>> 24)).size > 50, 'spread over the whole 32-bit range');
    } finally {
      await server.close();
    }
  });
});
