// One spoken answer on its way to the device: PCM in (any rate, any chunking), resampled to the
// downlink rate and Opus-encoded just in time (a few frames ahead of the pacer, so a long answer
// never blocks the event loop, its first frame does not wait for the rest, and an interrupted one
// wastes no work) and paced so the device's 40-frame queue never overflows. Used whole (esp32-say: a WAV or a TTS result) and streamed
// (Gemini Live chunks).
import { FramePacer, OpusEncoder, StreamResampler, type PcmAudio } from '../audio';

export interface SpeechResult {
  /** audio sent to the device, ms */
  durationMs: number;
  aborted: boolean;
  /** why it stopped early: "abort" (device), "barge-in" (device started listening), "closed", "cancelled" */
  reason?: string;
}

/** Frames encoded ahead of what the pacer has sent. */
const ENCODE_AHEAD = 3;
/** Before the first frame is out, only it is encoded: with many devices starting at once, each
 * first frame waits for one encode per device, not for every device's whole opening burst. */
const FIRST_AHEAD = 1;

export class SpeechStream {
  private readonly encoder: OpusEncoder;
  private readonly pacer: FramePacer;
  /** audio at the downlink rate, not yet encoded */
  private pending: Int16Array[] = [];
  private offset = 0;
  /** audio at another rate, converted as the encoder needs it */
  private resampler: StreamResampler | undefined;
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
      onSent: () => this.refillSoon(),
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
    if (this.stopped || this.ending || !audio.samples.length) return;
    if (this.resampler && this.resampler.fromRate !== audio.sampleRate) this.settleResampler();
    if (audio.sampleRate === this.encoder.sampleRate) this.pending.push(audio.samples);
    else {
      this.resampler ??= new StreamResampler(audio.sampleRate, this.encoder.sampleRate);
      this.resampler.push(audio.samples);
    }
    this.fill();
  }

  /** No more audio: resolves when the device should have played the last frame (or on cancel). */
  end(): Promise<SpeechResult> {
    if (!this.finished && this.stopped) this.finished = Promise.resolve(this.result());
    if (!this.finished) {
      this.ending = true;
      this.resampler?.end();
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
    this.resampler = undefined;
    if (this.refill) clearImmediate(this.refill);
    this.refill = undefined;
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
  private refill: NodeJS.Immediate | undefined;

  /** After frames went out: encode the next ones once the other timers due now (other devices'
   * frames) have run, so one device's encoding does not delay another's send. */
  private refillSoon(): void {
    if (this.refill || this.stopped) return;
    this.refill = setImmediate(() => {
      this.refill = undefined;
      this.fill();
    });
  }

  /** The rate changed mid-answer: what the old rate still holds goes ahead of the new audio. */
  private settleResampler(): void {
    const old = this.resampler!;
    old.end();
    const rest = old.take(Infinity);
    if (rest.length) this.pending.push(rest);
    this.resampler = undefined;
  }

  private fillOnce(): void {
    const frame = this.encoder.frameSamples;
    const ahead = this.pacer.sent === 0 ? FIRST_AHEAD : this.pacer.lead + ENCODE_AHEAD;
    while (this.pacer.queued < ahead) {
      if (!this.pending.length) {
        const more = this.resampler?.take(frame);
        if (!more?.length) break;
        this.pending.push(more);
      }
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
    if (this.ending && !this.pending.length && (!this.resampler || this.resampler.drained) && !this.paced) {
      const rest = this.encoder.flush();
      if (rest.length) this.pacer.push(...rest);
      this.paced = true;
      void this.pacer.end().then(() => this.whenPaced?.());
    }
  }
}
