// WAV read/write. Reading is lenient the way players are: chunks in any order, odd chunk sizes
// padded, a data size larger than the file (streamed or truncated WAVs) clamped to what is there;
// 8/16/24/32-bit integer and 32-bit float PCM, any channel count (mixed down to mono).
export interface PcmAudio {
  /** 16-bit mono samples */
  samples: Int16Array;
  sampleRate: number;
}

export class WavFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WavFormatError';
  }
}

export function isWav(buf: unknown): buf is Buffer {
  return Buffer.isBuffer(buf) && buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WAVE';
}

/** A 44-byte header + 16-bit PCM, the shape every consumer (and Gemini's audio/wav input) reads. */
export function encodeWav(samples: Int16Array, sampleRate: number, channels = 1): Buffer {
  const data = samples.byteLength;
  const out = Buffer.alloc(44 + data);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + data, 4);
  out.write('WAVE', 8, 'latin1');
  out.write('fmt ', 12, 'latin1');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(channels, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * channels * 2, 28);
  out.writeUInt16LE(channels * 2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(data, 40);
  bytesFromPcm(samples).copy(out, 44);
  return out;
}

export function decodeWav(buf: Buffer): PcmAudio {
  if (!isWav(buf)) throw new WavFormatError('Not a WAV file: it does not start with RIFF….WAVE');
  let fmt: { format: number; channels: number; sampleRate: number; bits: number } | undefined;
  let data: Buffer | undefined;
  for (let pos = 12; pos + 8 <= buf.length;) {
    const id = buf.toString('latin1', pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    const body = buf.subarray(pos + 8, Math.min(buf.length, pos + 8 + size));
    if (id === 'fmt ' && body.length >= 16) {
      let format = body.readUInt16LE(0);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
      if (format === 0xfffe && body.length >= 26) format = body.readUInt16LE(24);
      fmt = { format, channels: body.readUInt16LE(2), sampleRate: body.readUInt32LE(4), bits: body.readUInt16LE(14) };
    } else if (id === 'data') {
      data = body;
      break;
    }
    pos += 8 + size + (size & 1);
  }
  if (!fmt) throw new WavFormatError('WAV without a fmt chunk: cannot tell its sample rate');
  if (!data) throw new WavFormatError('WAV without a data chunk');
  const { format, channels, sampleRate, bits } = fmt;
  if (channels < 1 || sampleRate < 1) throw new WavFormatError(`WAV with ${channels} channels at ${sampleRate} Hz cannot be played`);
  const float = format === 3 && bits === 32;
  if (!float && (format !== 1 || ![8, 16, 24, 32].includes(bits))) {
    throw new WavFormatError(`WAV format ${format} with ${bits}-bit samples is not supported: use 16-bit PCM`);
  }
  const bytes = bits / 8;
  const frames = Math.floor(data.length / (bytes * channels));
  const samples = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += readSample(data, (i * channels + c) * bytes, bits, float);
    samples[i] = clamp16(sum / channels);
  }
  return { samples, sampleRate };
}

/** One sample scaled to the 16-bit range. */
function readSample(data: Buffer, at: number, bits: number, float: boolean): number {
  if (float) return data.readFloatLE(at) * 32767;
  switch (bits) {
    case 8:
      return (data[at] - 128) << 8;
    case 16:
      return data.readInt16LE(at);
    case 24:
      return data.readIntLE(at, 3) / 256;
    default:
      return data.readInt32LE(at) / 65536;
  }
}

export function clamp16(v: number): number {
  return v > 32767 ? 32767 : v < -32768 ? -32768 : Math.round(v);
}

/** Headerless 16-bit little-endian PCM (Gemini's audio/L16) as samples; an odd last byte is dropped. */
export function pcmFromBytes(bytes: Buffer): Int16Array {
  const out = new Int16Array(bytes.length >> 1);
  if (LITTLE_ENDIAN) {
    // A byte copy: Int16Array views need 2-byte alignment, which a Buffer slice may not have.
    new Uint8Array(out.buffer).set(bytes.subarray(0, out.length * 2));
    return out;
  }
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(i * 2);
  return out;
}

export function bytesFromPcm(samples: Int16Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i], i * 2);
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
