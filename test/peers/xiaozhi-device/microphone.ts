// The device's microphone: the firmware's uplink encoder (16 kHz mono, 60 ms frames, VBR, DTX on,
// complexity 0, audio_service.h) fed with recorded speech, a WAV made once with espeak-ng.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Encoder } from '@evan/opus';

export const MIC_RATE = 16000;
export const MIC_FRAME_MS = 60;
const FRAME = (MIC_RATE * MIC_FRAME_MS) / 1000;

/** "Turn on the kitchen light, please." (espeak-ng, 16 kHz mono 16-bit). */
export function speechSamples(): Int16Array {
  const wav = readFileSync(join(__dirname, 'fixtures', 'speech-16k.wav'));
  let pos = 12;
  while (pos + 8 <= wav.length && wav.toString('latin1', pos, pos + 4) !== 'data') pos += 8 + wav.readUInt32LE(pos + 4);
  const data = wav.subarray(pos + 8, pos + 8 + wav.readUInt32LE(pos + 4));
  return Int16Array.from({ length: data.length >> 1 }, (_, i) => data.readInt16LE(i * 2));
}

export class DeviceMicrophone {
  private readonly encoder: Encoder;

  constructor() {
    this.encoder = new Encoder({ channels: 1, sample_rate: MIC_RATE, application: 'voip' });
    this.encoder.vbr = true;
    this.encoder.dtx = true;
    this.encoder.complexity = 0;
  }

  /** 60 ms Opus packets of `samples` (the last frame padded with silence). */
  frames(samples: Int16Array): Buffer[] {
    const out: Buffer[] = [];
    for (let i = 0; i < samples.length; i += FRAME) {
      const frame = new Int16Array(FRAME);
      frame.set(samples.subarray(i, Math.min(samples.length, i + FRAME)));
      const bytes = this.encoder.encode(frame);
      out.push(Buffer.from(bytes));
    }
    return out;
  }

  /** `ms` of room silence (DTX makes most of these packets a byte or two). */
  silence(ms: number): Buffer[] {
    return this.frames(new Int16Array(Math.round((MIC_RATE * ms) / 1000)));
  }
}
