// The device's speaker, as the firmware plays downlink audio (application.cc, audio_service.cc):
// packets are decoded only in the Speaking state (entered on `tts start`, left on `tts stop`),
// with a decoder at the sample rate the server announced in its hello; a packet longer than the
// announced frame duration does not fit the decode buffer; the decode queue holds 40 packets and
// silently drops the rest. It records what a test needs to judge pacing, rate and duration.
import { EventEmitter } from 'node:events';
import { Decoder } from '@evan/opus';

export const MAX_DECODE_QUEUE = 40;

export interface SpeakerReport {
  sampleRate: number;
  frameMs: number;
  /** packets decoded and played */
  played: number;
  playedMs: number;
  /** packets that arrived outside Speaking (the firmware ignores them) */
  outsideSpeaking: number;
  /** packets that found the decode queue full (the firmware drops them) */
  overflows: number;
  decodeErrors: number;
  /** packets longer than the announced frame duration */
  oversized: number;
  /** most packets waiting in the device's queue at any time */
  maxQueue: number;
  /** times the queue ran dry in the middle of an answer (the person hears a gap) */
  underruns: number;
  ttsStarts: number;
  ttsStops: number;
  sentences: string[];
  stt: string[];
  /** performance.now() when the first packet of the last answer arrived */
  firstAudioAt?: number;
  /** peak sample level of everything played (0 = silence) */
  peak: number;
}

export class DeviceSpeaker extends EventEmitter {
  speaking = false;
  readonly report: SpeakerReport;
  private decoder: Decoder;
  /** when the device's playback of everything queued will be done */
  private playedOutAt = 0;

  constructor(sampleRate = 16000, frameMs = 60) {
    super();
    this.decoder = new Decoder({ channels: 1, sample_rate: sampleRate as 16000 });
    this.report = {
      sampleRate,
      frameMs,
      played: 0,
      playedMs: 0,
      outsideSpeaking: 0,
      overflows: 0,
      decodeErrors: 0,
      oversized: 0,
      maxQueue: 0,
      underruns: 0,
      ttsStarts: 0,
      ttsStops: 0,
      sentences: [],
      stt: [],
      peak: 0,
    };
  }

  /** From the server hello's audio_params (the firmware keeps sample_rate and frame_duration). */
  configure(audioParams: any): void {
    const rate = Number(audioParams?.sample_rate) || 16000;
    const frameMs = Number(audioParams?.frame_duration) || 60;
    this.decoder = new Decoder({ channels: 1, sample_rate: rate as 16000 });
    this.report.sampleRate = rate;
    this.report.frameMs = frameMs;
  }

  onJson(frame: any): void {
    if (frame?.type === 'stt' && typeof frame.text === 'string') this.report.stt.push(frame.text);
    if (frame?.type !== 'tts') return;
    if (frame.state === 'start') {
      this.speaking = true;
      this.report.ttsStarts++;
      this.report.firstAudioAt = undefined;
      this.emit('tts-start');
    } else if (frame.state === 'sentence_start' && typeof frame.text === 'string') {
      this.report.sentences.push(frame.text);
    } else if (frame.state === 'stop') {
      this.speaking = false;
      this.report.ttsStops++;
      this.emit('tts-stop');
    }
  }

  onAudio(opus: Buffer, at = performance.now()): void {
    if (!this.speaking) {
      this.report.outsideSpeaking++;
      return;
    }
    const frameMs = this.report.frameMs;
    const queued = Math.max(0, Math.ceil((this.playedOutAt - at) / frameMs - 1e-6));
    if (queued >= MAX_DECODE_QUEUE) {
      this.report.overflows++;
      return;
    }
    this.report.maxQueue = Math.max(this.report.maxQueue, queued + 1);
    if (this.report.firstAudioAt !== undefined && at > this.playedOutAt + 1) this.report.underruns++;
    this.playedOutAt = Math.max(at, this.playedOutAt) + frameMs;
    if (this.report.firstAudioAt === undefined) {
      this.report.firstAudioAt = at;
      this.emit('first-audio', at);
    }
    let pcm: Int16Array;
    try {
      const bytes = this.decoder.decode(opus);
      pcm = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
    } catch {
      this.report.decodeErrors++;
      return;
    }
    if (pcm.length > (this.report.sampleRate * frameMs) / 1000) {
      this.report.oversized++;
      return;
    }
    for (let i = 0; i < pcm.length; i++) {
      const v = Math.abs(pcm[i]);
      if (v > this.report.peak) this.report.peak = v;
    }
    this.report.played++;
    this.report.playedMs += (pcm.length * 1000) / this.report.sampleRate;
  }

  /** Resolves at the next `tts stop`. */
  nextStop(): Promise<void> {
    return new Promise((resolve) => this.once('tts-stop', () => resolve()));
  }
}
