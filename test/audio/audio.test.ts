// The audio building blocks against real signals: the espeak-ng speech fixture, sine tones, and
// packets a device could send (empty, truncated, random bytes).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  EnergyVad,
  FramePacer,
  OpusDecoder,
  OpusEncoder,
  WavFormatError,
  decodeWav,
  encodeAll,
  encodeWav,
  isWav,
  nearestOpusRate,
  resample,
  StreamResampler,
} from '../../src/audio';
import { opusPacketProblem } from '../../src/audio/opus-packet';

const speechWav = readFileSync(join(__dirname, '../peers/xiaozhi-device/fixtures/speech-16k.wav'));

function tone(freq: number, rate: number, ms: number, amplitude = 10000): Int16Array {
  const n = Math.round((rate * ms) / 1000);
  return Int16Array.from({ length: n }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * freq * i) / rate)));
}

function rms(s: Int16Array, from = 0, to = s.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += s[i] * s[i];
  return Math.sqrt(sum / Math.max(1, to - from));
}

function zeroCrossings(s: Int16Array): number {
  let n = 0;
  for (let i = 1; i < s.length; i++) if (s[i - 1] < 0 !== s[i] < 0) n++;
  return n;
}

describe('audio: WAV', () => {
  it('reads the espeak-ng fixture as 16 kHz mono speech', () => {
    const audio = decodeWav(speechWav);
    assert.equal(audio.sampleRate, 16000);
    assert.ok(audio.samples.length > 16000, 'at least a second of audio');
    assert.ok(rms(audio.samples) > 500, 'not silence');
  });

  it('writes a 44-byte header that reads back sample for sample', () => {
    const samples = tone(440, 24000, 100);
    const wav = encodeWav(samples, 24000);
    assert.equal(wav.length, 44 + samples.length * 2);
    assert.ok(isWav(wav));
    const back = decodeWav(wav);
    assert.equal(back.sampleRate, 24000);
    assert.deepEqual(back.samples, samples);
  });

  it('mixes 24-bit stereo down to 16-bit mono and clamps a data size larger than the file', () => {
    const frames = 100;
    const wav = Buffer.alloc(44 + frames * 6);
    wav.write('RIFF', 0, 'latin1');
    wav.write('WAVE', 8, 'latin1');
    wav.write('fmt ', 12, 'latin1');
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20);
    wav.writeUInt16LE(2, 22);
    wav.writeUInt32LE(8000, 24);
    wav.writeUInt16LE(24, 34);
    wav.write('data', 36, 'latin1');
    wav.writeUInt32LE(0xffffffff, 40); // a streamed WAV that never patched its size
    for (let i = 0; i < frames; i++) {
      wav.writeIntLE(1000 * 256, 44 + i * 6, 3);
      wav.writeIntLE(3000 * 256, 44 + i * 6 + 3, 3);
    }
    const audio = decodeWav(wav.subarray(0, wav.length - 5)); // and cut mid-frame
    assert.equal(audio.sampleRate, 8000);
    assert.equal(audio.samples.length, frames - 1);
    assert.equal(audio.samples[0], 2000);
  });

  it('refuses what is not a playable WAV with a message saying what to send', () => {
    assert.throws(() => decodeWav(Buffer.from('hello world, not audio')), WavFormatError);
    const noData = encodeWav(new Int16Array(0), 16000).subarray(0, 36);
    assert.throws(() => decodeWav(noData), /data chunk/);
    const alaw = encodeWav(new Int16Array(10), 8000);
    alaw.writeUInt16LE(6, 20);
    assert.throws(() => decodeWav(alaw), /16-bit PCM/);
  });
});

describe('audio: resampling', () => {
  it('keeps a 1 kHz tone at its pitch and level from 24 kHz to 16 kHz and back', () => {
    const src = tone(1000, 24000, 500);
    const down = resample(src, 24000, 16000);
    assert.equal(down.length, 8000);
    assert.ok(Math.abs(zeroCrossings(down) - 1000) <= 4, `1000 crossings expected, got ${zeroCrossings(down)}`);
    assert.ok(Math.abs(rms(down, 200, 7800) / rms(src) - 1) < 0.05);
    const up = resample(down, 16000, 24000);
    assert.equal(up.length, 12000);
    assert.ok(Math.abs(zeroCrossings(up) - 1000) <= 4);
  });

  it('removes what the lower rate cannot carry instead of folding it back (10 kHz tone, 24 → 16 kHz)', () => {
    const down = resample(tone(10000, 24000, 500), 24000, 16000);
    assert.ok(rms(down, 200, 7800) < 10000 * 0.707 * 0.05, `aliased energy ${rms(down, 200, 7800)}`);
  });

  it('streams: fed in uneven pieces and taken a frame at a time, it gives exactly the whole-buffer result (22.05 → 24 kHz)', () => {
    const src = decodeWav(speechWav).samples; // any real signal; its rate is only a label here
    const whole = resample(src, 22050, 24000);
    const stream = new StreamResampler(22050, 24000);
    const parts: Int16Array[] = [];
    let at = 0;
    for (const size of [1, 300, 4097, 17, 2000]) {
      stream.push(src.subarray(at, at + size));
      at += size;
      // Only what the inputs so far fully determine comes out: never past the filter's reach.
      const ready = stream.take(Infinity);
      assert.ok(ready.length < (at * 24000) / 22050, `${ready.length} samples out after ${at} in`);
      parts.push(ready);
    }
    stream.push(src.subarray(at));
    for (let piece = stream.take(1440); piece.length; piece = stream.take(1440)) parts.push(piece);
    assert.equal(stream.drained, false, 'not drained before end()');
    stream.end();
    parts.push(stream.take(Infinity));
    assert.equal(stream.drained, true);
    const joined = Int16Array.from(parts.flatMap((p) => Array.from(p)));
    assert.equal(joined.length, whole.length);
    assert.deepEqual(joined, whole);
  });

  it('rates without a small common period (44.1 → 16.001 kHz) are converted too, at pitch', () => {
    const down = resample(tone(1000, 44100, 500), 44100, 16001);
    assert.equal(down.length, Math.floor((22050 * 16001) / 44100));
    assert.ok(Math.abs(zeroCrossings(down) - 1000) <= 4, `1000 crossings expected, got ${zeroCrossings(down)}`);
  });
});

describe('audio: Opus', () => {
  it('round-trips the speech fixture in 60 ms frames and keeps its length and level', () => {
    const speech = decodeWav(speechWav).samples;
    const packets = encodeAll(speech, { sampleRate: 16000, frameMs: 60 });
    assert.equal(packets.length, Math.ceil(speech.length / 960));
    const decoder = new OpusDecoder(16000);
    const decoded = packets.map((p) => decoder.decode(p)!);
    assert.ok(decoded.every((d) => d && d.length === 960));
    const total = decoded.reduce((n, d) => n + d.length, 0);
    assert.equal(total, packets.length * 960);
    const joined = new Int16Array(total);
    decoded.reduce((at, d) => (joined.set(d, at), at + d.length), 0);
    assert.ok(Math.abs(rms(joined) / rms(speech) - 1) < 0.3, `level ${rms(joined)} vs ${rms(speech)}`);
  });

  it('every packet libopus makes (speech and a tone, 20 and 60 ms frames) is well-formed by RFC 6716 §3.4; packets breaking R1-R7 are not', () => {
    const speech = decodeWav(speechWav).samples;
    for (const frameMs of [20, 60]) {
      const packets = [...encodeAll(speech, { sampleRate: 16000, frameMs }), ...encodeAll(tone(440, 24000, 600), { sampleRate: 24000, frameMs })];
      assert.deepEqual(packets.map(opusPacketProblem).filter(Boolean), []);
    }
    const broken = [
      Buffer.alloc(0), // R1
      Buffer.concat([Buffer.from([0x08]), Buffer.alloc(1276)]), // R2: one frame of 1276 bytes
      Buffer.from([0x09, 1, 2, 3]), // R3: two equal frames in 3 bytes
      Buffer.from([0x0a, 200, 1]), // R4: first frame longer than the packet
      Buffer.from([0x0b, 0]), // R5: code 3 with no frames
      Buffer.from([0x0b, 0x03, 1, 2]), // R6: three equal frames in 2 bytes
      Buffer.from([0x0b, 0x42, 255, 255]), // R6/R7: padding runs past the end
    ];
    assert.deepEqual(
      broken.map((p) => opusPacketProblem(p) !== undefined),
      broken.map(() => true),
    );
  });

  it('decodes a 24 kHz stream at 16 kHz (any Opus stream decodes at any supported rate)', () => {
    const packets = encodeAll(tone(440, 24000, 300), { sampleRate: 24000, frameMs: 60 });
    const decoder = new OpusDecoder(16000);
    assert.ok(packets.every((p) => decoder.decode(p)?.length === 960));
  });

  it('counts empty, truncated and random packets as failures instead of throwing', () => {
    const decoder = new OpusDecoder(16000);
    const good = encodeAll(tone(300, 16000, 60), { sampleRate: 16000, frameMs: 60 })[0];
    // Fixed bytes, not random ones: about 6 % of random 1,500-byte buffers happen to be valid Opus.
    const bad = [
      Buffer.alloc(0), // empty
      Buffer.from([0xff, 0xff, 0xff]), // code-3 TOC with a frame count the bytes cannot hold
      Buffer.from([0x02, 0xfb, 1, 2]), // code-2 frame length longer than the packet
      Buffer.alloc(1500, 0xff), // oversized garbage
    ];
    const results = bad.map((b) => decoder.decode(b));
    assert.deepEqual(
      results.map((r) => r === undefined),
      [true, true, true, true],
    );
    assert.equal(decoder.failures, 4);
    // A lone TOC byte (a packet cut after its first byte) is what Opus calls a lost frame: it decodes
    // as concealment, not as a failure, so it is not counted.
    assert.equal(decoder.decode(good.subarray(0, 1))?.length, 960);
    assert.equal(decoder.failures, 4);
    assert.equal(decoder.decode(good)?.length, 960, 'decoding continues after bad packets');
  });

  it('encodes pushed chunks of any size into whole frames and pads only the last', () => {
    const encoder = new OpusEncoder({ sampleRate: 24000, frameMs: 60 });
    const pcm = tone(500, 24000, 250);
    const packets = [...encoder.push(pcm.subarray(0, 1000)), ...encoder.push(pcm.subarray(1000)), ...encoder.flush()];
    assert.equal(packets.length, Math.ceil(pcm.length / 1440));
    assert.deepEqual(encoder.flush(), []);
  });

  it('maps an odd announced rate to the nearest one Opus supports', () => {
    assert.equal(nearestOpusRate(22050), 24000);
    assert.equal(nearestOpusRate(44100), 48000);
    assert.equal(nearestOpusRate('x'), 16000);
  });
});

describe('audio: energy VAD', () => {
  it('finds the start and the end of speech framed by silence', () => {
    const speech = decodeWav(speechWav).samples;
    const vad = new EnergyVad({ sampleRate: 16000, silenceMs: 600 });
    const signal = new Int16Array(16000 + speech.length + 16000);
    signal.set(speech, 16000);
    const events: string[] = [];
    for (let i = 0; i < signal.length; i += 960) events.push(...vad.push(signal.subarray(i, i + 960)));
    assert.deepEqual(events, ['speech-start', 'speech-end']);
  });

  it('stays quiet on silence and on steady low background noise', () => {
    const vad = new EnergyVad({ sampleRate: 16000 });
    const noise = Int16Array.from({ length: 48000 }, () => Math.round((Math.random() - 0.5) * 60));
    assert.deepEqual(vad.push(new Int16Array(32000)), []);
    assert.deepEqual(vad.push(noise), []);
  });
});

describe('audio: frame pacing', () => {
  it('sends five frames at once, then one per frame duration, and resolves when the last is played', async () => {
    const sentAt: number[] = [];
    const pacer = new FramePacer({ frameMs: 20, send: () => sentAt.push(performance.now()) });
    const start = performance.now();
    pacer.push(...Array.from({ length: 12 }, () => Buffer.alloc(3)));
    assert.equal(sentAt.length, 5, 'the first five go out at once');
    const result = await pacer.end();
    const ended = performance.now();
    assert.deepEqual(result, { sent: 12, cancelled: false });
    // Frame k (k ≥ 5) may leave only when the device holds fewer than five: not before (k-4) × 20 ms.
    sentAt.forEach((t, k) => assert.ok(t - start >= Math.max(0, (k - 4) * 20) - 2, `frame ${k} left after ${t - start} ms`));
    assert.ok(ended - start >= 12 * 20 - 2, 'end() waits until the device has played everything');
  });

  it('drops what is queued on cancel and resolves end() as cancelled', async () => {
    let sent = 0;
    const pacer = new FramePacer({ frameMs: 20, send: () => sent++ });
    pacer.push(...Array.from({ length: 50 }, () => Buffer.alloc(3)));
    const done = pacer.end();
    pacer.cancel();
    assert.deepEqual(await done, { sent: 5, cancelled: true });
    pacer.push(Buffer.alloc(1));
    assert.equal(sent, 5);
  });
});
