// Sends audio frames to a device no faster than it plays them. The xiaozhi firmware queues at most
// 40 decoded frames (2.4 s at 60 ms) and drops the rest silently, so the server keeps a model of
// the device's queue: a frame may go out while the device holds fewer than `lead` frames. That gives
// xiaozhi-esp32-server's pattern (5 frames at once, then one per frame duration) and also recovers
// from gaps when frames arrive slower than real time (Gemini Live streaming).
export interface PacerOptions {
  frameMs: number;
  /** frames the device may hold ahead of its playback; default 5 */
  lead?: number;
  send: (frame: Buffer) => void;
  /** injectable for tests; default performance.now */
  now?: () => number;
  /** nothing is sent before this many ms from now (the device must act on `tts start` first) */
  holdMs?: number;
  /** called after frames went out, so a producer can encode the next ones just in time */
  onSent?: () => void;
}

export class FramePacer {
  readonly frameMs: number;
  readonly lead: number;
  private readonly send: (frame: Buffer) => void;
  private readonly now: () => number;
  private readonly queue: Buffer[] = [];
  /** when the device will have played everything sent so far */
  private playedOutAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly notBefore: number;
  private readonly onSent: (() => void) | undefined;
  private ended = false;
  private cancelled = false;
  private drainWaiters: Array<(r: { sent: number; cancelled: boolean }) => void> = [];
  sent = 0;

  constructor(options: PacerOptions) {
    this.frameMs = options.frameMs;
    this.lead = options.lead ?? 5;
    this.send = options.send;
    this.now = options.now ?? (() => performance.now());
    this.notBefore = this.now() + (options.holdMs ?? 0);
    this.onSent = options.onSent;
  }

  /** Frames waiting to be sent. */
  get queued(): number {
    return this.queue.length;
  }

  push(...frames: Buffer[]): void {
    if (this.cancelled || this.ended) return;
    this.queue.push(...frames);
    this.pump();
  }

  /** No more frames: the promise resolves once the device should have played the last one. */
  end(): Promise<{ sent: number; cancelled: boolean }> {
    this.ended = true;
    const done = new Promise<{ sent: number; cancelled: boolean }>((resolve) => this.drainWaiters.push(resolve));
    this.pump();
    return done;
  }

  /** Stops at once: queued frames are dropped, pending end() promises resolve as cancelled. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.queue.length = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.finish();
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  /** Milliseconds of audio sent so far. */
  get sentMs(): number {
    return this.sent * this.frameMs;
  }

  private pump(): void {
    if (this.cancelled || this.timer) return;
    const now = this.now();
    if (now < this.notBefore && this.queue.length > 0) {
      this.schedule(this.notBefore - now);
      return;
    }
    while (this.queue.length > 0) {
      const ahead = Math.max(0, this.playedOutAt - now);
      if (ahead > (this.lead - 1) * this.frameMs + 0.5) break;
      this.playedOutAt = Math.max(now, this.playedOutAt) + this.frameMs;
      this.sent++;
      try {
        this.send(this.queue.shift()!);
      } catch {
        // A link that broke mid-send: the owner sees it close and cancels.
      }
      if (this.cancelled) return;
    }
    if (this.onSent) this.onSent();
    if (this.cancelled || this.timer) return;
    if (this.queue.length > 0) {
      const wait = this.playedOutAt - (this.lead - 1) * this.frameMs - now;
      this.schedule(Math.max(1, wait));
    } else if (this.ended) {
      const wait = this.playedOutAt - now;
      if (wait <= 0) this.finish();
      else this.schedule(wait);
    }
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, ms);
  }

  private finish(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w({ sent: this.sent, cancelled: this.cancelled });
  }
}
