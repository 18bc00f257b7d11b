// One spoken answer on its way to the device: PCM in (any rate, any chunking), resampled to the
// downlink rate, Opus-encoded in whole frames and paced so the device's 40-frame queue never
// overflows. Used whole (esp32-say: a WAV or a TTS result) and streamed (Gemini Live chunks).
import { FramePacer, OpusEncoder, resample, type PcmAudio } from '../audio';

export interface SpeechResult {
  /** audio sent to the device, ms */
  durationMs: number;
  aborted: boolean;
  /** why it stopped early: "abort" (device), "barge-in" (device started listening), "closed", "cancelled" */
  reason?: string;
}

export class SpeechStream {
  private readonly encoder: OpusEncoder;
  private readonly pacer: FramePacer;
  private stopReason: string | undefined;
  private finished: Promise<SpeechResult> | undefined;
  /** performance.now() of the first frame handed to the link (latency measurements) */
  firstFrameAt: number | undefined;

  constructor(
    private readonly downlink: { sampleRate: number; frameMs: number },
    send: (opus: Buffer) => void,
    options: { complexity?: number; lead?: number } = {},
  ) {
    this.encoder = new OpusEncoder({ sampleRate: downlink.sampleRate, frameMs: downlink.frameMs, complexity: options.complexity });
    this.pacer = new FramePacer({
      frameMs: this.encoder.frameMs,
      lead: options.lead,
      send: (frame) => {
        this.firstFrameAt ??= performance.now();
        send(frame);
      },
    });
  }

  get stopped(): boolean {
    return this.stopReason !== undefined;
  }

  /** Adds audio; `sampleRate` is the rate of these samples. */
  push(audio: PcmAudio): void {
    if (this.stopped || this.finished) return;
    const samples = audio.sampleRate === this.encoder.sampleRate ? audio.samples : resample(audio.samples, audio.sampleRate, this.encoder.sampleRate);
    const frames = this.encoder.push(samples);
    if (frames.length) this.pacer.push(...frames);
  }

  /** No more audio: resolves when the device should have played the last frame (or on cancel). */
  end(): Promise<SpeechResult> {
    if (!this.finished) {
      if (!this.stopped) {
        const rest = this.encoder.flush();
        if (rest.length) this.pacer.push(...rest);
      }
      this.finished = this.pacer.end().then(() => this.result());
    }
    return this.finished;
  }

  /** Stops now; frames not yet sent are dropped. */
  cancel(reason: string): void {
    if (this.stopped) return;
    this.stopReason = reason;
    this.pacer.cancel();
    this.encoder.reset();
  }

  result(): SpeechResult {
    return {
      durationMs: Math.round(this.pacer.sentMs),
      aborted: this.stopped,
      ...(this.stopReason ? { reason: this.stopReason } : {}),
    };
  }
}
