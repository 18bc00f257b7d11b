// Opus through @evan/opus: prebuilt native bindings for linux/darwin x64/arm64 and win x64, with a
// WASM build in the same tarball that it falls back to when the native file cannot load, so the
// package installs offline with no compiler on every machine Node-RED runs on.
// Every failure of a single packet is reported as `undefined`, never thrown: devices send
// truncated, corrupt or empty packets and one bad packet must not end a conversation.
import { Decoder, Encoder } from '@evan/opus';

export type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;
const OPUS_RATES: readonly OpusRate[] = [8000, 12000, 16000, 24000, 48000];
/** Frame durations an Opus encoder accepts (ms). */
const OPUS_FRAME_MS: readonly number[] = [2.5, 5, 10, 20, 40, 60];

/** The nearest rate Opus supports, for a device that announces an odd one. */
export function nearestOpusRate(rate: unknown): OpusRate {
  const r = Number(rate);
  if (!Number.isFinite(r) || r <= 0) return 16000;
  return OPUS_RATES.reduce((best, x) => (Math.abs(x - r) < Math.abs(best - r) ? x : best), 16000 as OpusRate);
}

export class OpusDecoder {
  readonly sampleRate: OpusRate;
  /** Packets that could not be decoded (corrupt, empty, truncated). */
  failures = 0;
  private readonly decoder: Decoder;
  /** The longest packet Opus allows is 120 ms. */
  private readonly maxSamples: number;

  constructor(sampleRate: number) {
    this.sampleRate = nearestOpusRate(sampleRate);
    this.decoder = new Decoder({ channels: 1, sample_rate: this.sampleRate });
    this.maxSamples = (this.sampleRate * 120) / 1000;
  }

  /** 16-bit mono PCM, or undefined when the packet is not valid Opus. */
  decode(packet: Uint8Array): Int16Array | undefined {
    if (!packet || packet.length === 0) {
      this.failures++;
      return undefined;
    }
    try {
      const bytes = this.decoder.decode(packet);
      const samples = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
      if (samples.length > this.maxSamples) throw new Error('oversized');
      // Copy out: the binding reuses one output buffer for every call.
      return samples.slice();
    } catch {
      this.failures++;
      return undefined;
    }
  }
}

export interface OpusEncoderOptions {
  sampleRate: number;
  frameMs: number;
  /** bits per second; xiaozhi-esp32-server uses 24 kbps for speech */
  bitrate?: number;
  /** 0-10; 10 is what xiaozhi-esp32-server uses, lower saves CPU */
  complexity?: number;
}

/** Encodes 16-bit mono PCM in frames of exactly `frameMs`; the last frame is padded with silence. */
export class OpusEncoder {
  readonly sampleRate: OpusRate;
  readonly frameMs: number;
  readonly frameSamples: number;
  private readonly encoder: Encoder;
  private pending = new Int16Array(0);

  constructor(options: OpusEncoderOptions) {
    this.sampleRate = nearestOpusRate(options.sampleRate);
    this.frameMs = OPUS_FRAME_MS.includes(options.frameMs) ? options.frameMs : 60;
    this.frameSamples = (this.sampleRate * this.frameMs) / 1000;
    this.encoder = new Encoder({ channels: 1, sample_rate: this.sampleRate, application: 'voip' });
    this.encoder.signal = 'voice';
    this.encoder.bitrate = options.bitrate ?? 24000;
    this.encoder.complexity = (options.complexity ?? 5) as Encoder['complexity'];
  }

  /** Opus packets for every whole frame in what was pushed so far; the rest waits for more. */
  push(pcm: Int16Array): Buffer[] {
    const all = concat(this.pending, pcm);
    const packets: Buffer[] = [];
    let offset = 0;
    for (; offset + this.frameSamples <= all.length; offset += this.frameSamples) {
      packets.push(this.encodeFrame(all.subarray(offset, offset + this.frameSamples)));
    }
    this.pending = all.slice(offset);
    return packets;
  }

  /** The remainder, padded with silence to a whole frame (none when nothing is left). */
  flush(): Buffer[] {
    if (this.pending.length === 0) return [];
    const frame = new Int16Array(this.frameSamples);
    frame.set(this.pending);
    this.pending = new Int16Array(0);
    return [this.encodeFrame(frame)];
  }

  /** Drops what was pushed but not encoded (playback cancelled). */
  reset(): void {
    this.pending = new Int16Array(0);
    this.encoder.reset();
  }

  private encodeFrame(frame: Int16Array): Buffer {
    const bytes = this.encoder.encode(frame);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}

/** All of `pcm` as Opus frames, the last one padded. */
export function encodeAll(pcm: Int16Array, options: OpusEncoderOptions): Buffer[] {
  const encoder = new OpusEncoder(options);
  return [...encoder.push(pcm), ...encoder.flush()];
}

function concat(a: Int16Array, b: Int16Array): Int16Array {
  if (a.length === 0) return b;
  const out = new Int16Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
