// One spoken answer on its way to the device: PCM in (any rate, any chunking), resampled to the
// downlink rate, Opus-encoded just in time (a few frames ahead of the pacer, so a long answer never
// blocks the event loop and an interrupted one wastes no encoding) and paced so the device's
// 40-frame queue never overflows. Used whole (esp32-say: a WAV or a TTS result) and streamed
// (Gemini Live chunks).
import { FramePacer, OpusEncoder, resample, type PcmAudio } from '../audio';

export interface SpeechResult {
  /** audio sent to the device, ms */
  durationMs: number;
  aborted: boolean;
  /** why it stopped early: "abort" (device), "barge-in" (device started listening), "closed", "cancelled" */
  reason?: string;
}

/** Frames encoded ahead of what the pacer has sent. */
const ENCODE_AHEAD = 3;

export class SpeechStream {
  private readonly encoder: OpusEncoder;
  private readonly pacer: FramePacer;
  private pending: Int16Array[] = [];
  private offset = 0;
  private ending = false;
  private paced = false;
  private stopReason: string | undefined;
  private finished: Promise<SpeechResult> | undefined;
  /** performance.now() of the first frame handed to the link (latency measurements) */
  firstFrameAt: number | undefined;

  constructor(
    private readonly downlink: { sampleRate: number; frameMs: number },
    send: (opus: Buffer) => void,
    options: { complexity?: number; lead?: number; holdMs?: number } = {},
  ) {
    this.encoder = new OpusEncoder({ sampleRate: downlink.sampleRate, frameMs: downlink.frameMs, complexity: options.complexity });
    this.pacer = new FramePacer({
      frameMs: this.encoder.frameMs,
      lead: options.lead,
      holdMs: options.holdMs,
      onSent: () => this.fill(),
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
    if (this.stopped || this.ending) return;
    const samples = audio.sampleRate === this.encoder.sampleRate ? audio.samples : resample(audio.samples, audio.sampleRate, this.encoder.sampleRate);
    if (samples.length) this.pending.push(samples);
    this.fill();
  }

  /** No more audio: resolves when the device should have played the last frame (or on cancel). */
  end(): Promise<SpeechResult> {
    if (!this.finished && this.stopped) this.finished = Promise.resolve(this.result());
    if (!this.finished) {
      this.ending = true;
      this.finished = new Promise<void>((resolve) => {
        this.whenPaced = resolve;
        this.fill();
      }).then(() => this.result());
    }
    return this.finished;
  }

  /** Stops now; frames not yet sent are dropped. */
  cancel(reason: string): void {
    if (this.stopped) return;
    this.stopReason = reason;
    this.pending = [];
    this.pacer.cancel();
    this.encoder.reset();
    this.whenPaced?.();
  }

  result(): SpeechResult {
    return {
      durationMs: Math.round(this.pacer.sentMs),
      aborted: this.stopped,
      ...(this.stopReason ? { reason: this.stopReason } : {}),
    };
  }

  private whenPaced: (() => void) | undefined;

  /** Encodes until the pacer holds ENCODE_AHEAD frames beyond its lead, or the audio runs out. */
  private fill(): void {
    // The pacer calls back into fill() from push()/end(); one pass at a time.
    if (this.stopped || this.filling) return;
    this.filling = true;
    try {
      this.fillOnce();
    } finally {
      this.filling = false;
    }
  }

  private filling = false;

  private fillOnce(): void {
    const frame = this.encoder.frameSamples;
    while (this.pacer.queued < this.pacer.lead + ENCODE_AHEAD && this.pending.length) {
      const chunk = this.pending[0];
      const take = Math.min(frame, chunk.length - this.offset);
      const frames = this.encoder.push(chunk.subarray(this.offset, this.offset + take));
      this.offset += take;
      if (this.offset >= chunk.length) {
        this.pending.shift();
        this.offset = 0;
      }
      if (frames.length) this.pacer.push(...frames);
    }
    if (this.ending && !this.pending.length && !this.paced) {
      const rest = this.encoder.flush();
      if (rest.length) this.pacer.push(...rest);
      this.paced = true;
      void this.pacer.end().then(() => this.whenPaced?.());
    }
  }
}
