// Compressed speech (what Home Assistant's TTS serves: MP3 by default, WAV, FLAC or Ogg/Opus by
// engine) decoded chunk by chunk as it downloads, so playback starts before the file is complete.
// The decoders are WebAssembly builds that install without a compiler: mpg123-decoder (MP3),
// @wasm-audio-decoders/flac (FLAC), ogg-opus-decoder (Ogg/Opus, with codec-parser for the pages);
// WAV's header is read here and its PCM passed through.
import { MPEGDecoder } from 'mpg123-decoder';
import { FLACDecoder } from '@wasm-audio-decoders/flac';
import { OggOpusDecoder } from 'ogg-opus-decoder';
import { clamp16, type PcmAudio } from './wav';

export interface StreamingDecoder {
  /** Decodes what `chunk` completes; may return no audio yet. */
  push(chunk: Uint8Array): Promise<PcmAudio | undefined>;
  /** The end of the file: what is left. */
  end(): Promise<PcmAudio | undefined>;
  free(): void;
}

export class UnsupportedAudio extends Error {
  constructor(mime: string) {
    super(`cannot play "${mime}" audio: MP3, WAV, FLAC and Ogg/Opus are supported`);
    this.name = 'UnsupportedAudio';
  }
}

/** The decoder for a MIME type (or a file name's extension when the type says nothing). */
export async function decoderFor(mime: string, name = ''): Promise<StreamingDecoder> {
  const type = mime.split(';')[0].trim().toLowerCase();
  const ext = /\.([a-z0-9]+)(?:\?|$)/i.exec(name)?.[1]?.toLowerCase() ?? '';
  if (type === 'audio/mpeg' || type === 'audio/mp3' || (!type.startsWith('audio/') && ext === 'mp3')) return wasmDecoder(new MPEGDecoder());
  if (type === 'audio/flac' || type === 'audio/x-flac' || (!type.startsWith('audio/') && ext === 'flac')) return wasmDecoder(new FLACDecoder());
  if (type === 'audio/ogg' || type === 'audio/opus' || (!type.startsWith('audio/') && (ext === 'ogg' || ext === 'opus')))
    return wasmDecoder(new OggOpusDecoder());
  if (type === 'audio/wav' || type === 'audio/x-wav' || type === 'audio/wave' || (!type.startsWith('audio/') && ext === 'wav')) return new WavStream();
  throw new UnsupportedAudio(mime || ext);
}

interface WasmDecoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
}
interface WasmDecoder {
  ready: Promise<void>;
  decode(data: Uint8Array): WasmDecoded | Promise<WasmDecoded>;
  flush?: () => Promise<WasmDecoded>;
  free(): void;
}

async function wasmDecoder(decoder: WasmDecoder): Promise<StreamingDecoder> {
  await decoder.ready;
  return {
    push: async (chunk) => mono(await decoder.decode(chunk)),
    end: async () => (decoder.flush ? mono(await decoder.flush()) : undefined),
    free: () => decoder.free(),
  };
}

/** Float channels mixed down to one 16-bit channel. */
function mono(d: WasmDecoded): PcmAudio | undefined {
  if (!d || !d.samplesDecoded || !d.channelData.length) return undefined;
  const n = d.samplesDecoded;
  const out = new Int16Array(n);
  const channels = d.channelData;
  const scale = 32767 / channels.length;
  const first = channels[0];
  // Plain indexed loops: this runs over every sample of every answer.
  for (let i = 0; i < n; i++) {
    let sum = first[i];
    for (let c = 1; c < channels.length; c++) sum += channels[c][i];
    out[i] = clamp16(sum * scale);
  }
  return { samples: out, sampleRate: d.sampleRate };
}

/** RIFF/WAVE read as it arrives: the header first, then 16-bit PCM frames. */
class WavStream implements StreamingDecoder {
  private head = Buffer.alloc(0);
  private format: { channels: number; sampleRate: number } | undefined;
  private rest = Buffer.alloc(0);

  async push(chunk: Uint8Array): Promise<PcmAudio | undefined> {
    if (!this.format) {
      this.head = Buffer.concat([this.head, chunk]);
      const found = this.readHeader();
      if (!found) return undefined;
      this.format = found.format;
      return this.pcm(this.head.subarray(found.dataAt));
    }
    return this.pcm(Buffer.from(chunk));
  }

  async end(): Promise<PcmAudio | undefined> {
    if (!this.format && this.head.length) throw new Error('WAV ended before its data chunk');
    return undefined;
  }

  free(): void {}

  private readHeader(): { format: { channels: number; sampleRate: number }; dataAt: number } | undefined {
    const b = this.head;
    if (b.length < 12) return undefined;
    if (b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WAVE') throw new Error('the audio is not a WAV file');
    let fmt: { channels: number; sampleRate: number } | undefined;
    for (let pos = 12; pos + 8 <= b.length;) {
      const id = b.toString('latin1', pos, pos + 4);
      const size = b.readUInt32LE(pos + 4);
      if (id === 'data') return fmt ? { format: fmt, dataAt: pos + 8 } : undefined;
      if (pos + 8 + size > b.length) return undefined;
      if (id === 'fmt ') {
        const format = b.readUInt16LE(pos + 8);
        const bits = b.readUInt16LE(pos + 22);
        if ((format !== 1 && format !== 0xfffe) || bits !== 16) throw new Error(`WAV with format ${format}, ${bits}-bit samples: only 16-bit PCM streams`);
        fmt = { channels: b.readUInt16LE(pos + 10), sampleRate: b.readUInt32LE(pos + 12) };
      }
      pos += 8 + size + (size & 1);
    }
    return undefined;
  }

  private pcm(bytes: Buffer): PcmAudio | undefined {
    const { channels, sampleRate } = this.format!;
    const all = this.rest.length ? Buffer.concat([this.rest, bytes]) : bytes;
    const frame = 2 * channels;
    const whole = all.length - (all.length % frame);
    this.rest = Buffer.from(all.subarray(whole));
    const n = whole / frame;
    if (!n) return undefined;
    const out = new Int16Array(n);
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let c = 0; c < channels; c++) sum += all.readInt16LE(i * frame + c * 2);
      out[i] = clamp16(sum / channels);
    }
    return { samples: out, sampleRate };
  }
}
