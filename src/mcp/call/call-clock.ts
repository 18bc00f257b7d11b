// The timeout of a call that may wait for a person. Before 2026-07-28 a server asks for input while
// the call stays open, so the SDK's own timer would count the person's answering time against the
// call. This clock does what the SDK's does (restart on progress) and stands still while an input
// request waits; it ends the call through its abort signal with the SDK's own timeout error, so the
// error reads as every other timeout does.
import { SdkError, SdkErrorCode } from '../protocol/sdk';

export class CallClock {
  /** Aborts when the clock runs out, or when the caller's own signal does (with its reason). */
  readonly signal: AbortSignal;
  private readonly controller: AbortController;
  private timer: NodeJS.Timeout | undefined;
  private waitingForInput = 0;
  private readonly forward?: () => void;
  private readonly caller?: AbortSignal;

  /**
   * `caller`: the call's own cancel. A controller the caller made for this call alone is used as
   * it is: the clock ends the call through it, and no second signal is made (two per call were
   * most of what a stdio call cost in abort signals on Node 20). A signal is followed by one
   * listener that stop() removes, rather than AbortSignal.any(), which built a dependent signal.
   */
  constructor(
    private readonly ms: number,
    caller?: AbortSignal | AbortController,
  ) {
    if (caller instanceof AbortController) {
      this.controller = caller;
    } else {
      this.controller = new AbortController();
      this.caller = caller;
      if (caller?.aborted) this.controller.abort(caller.reason);
      else if (caller) {
        this.forward = () => this.controller.abort(caller.reason);
        caller.addEventListener('abort', this.forward, { once: true });
      }
    }
    this.signal = this.controller.signal;
    this.restart();
  }

  /** True when the clock ended the call (its signal's reason is then the SDK's timeout error). */
  static ranOut(signal: AbortSignal | undefined): boolean {
    return signal?.aborted === true && signal.reason instanceof SdkError && signal.reason.code === SdkErrorCode.RequestTimeout;
  }

  /** Progress arrived, or an input request was answered: the call gets its whole timeout again. */
  restart(): void {
    clearTimeout(this.timer);
    if (this.waitingForInput > 0 || this.controller.signal.aborted) return;
    this.timer = setTimeout(() => this.controller.abort(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out')), this.ms);
  }

  /** Runs `wait` (a person answering) with the clock stopped. */
  async paused<T>(wait: () => Promise<T>): Promise<T> {
    this.waitingForInput++;
    clearTimeout(this.timer);
    try {
      return await wait();
    } finally {
      this.waitingForInput--;
      this.restart();
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    if (this.forward) this.caller!.removeEventListener('abort', this.forward);
  }
}
