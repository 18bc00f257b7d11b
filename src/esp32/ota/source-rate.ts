// How many different devices one source address may name per minute at the OTA address. A device
// checks and polls for its own MAC only, as often as it likes; whoever names MAC after MAC from one
// address (to find paired devices, or to fill the waiting list) is turned away after a few. The
// table of sources is bounded: past `maxSources` it starts again (a flood of addresses only resets
// the window, it never grows memory).
export class DistinctPerSource {
  private readonly recent = new Map<string, Map<string, number>>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly maxSources = 10_000,
  ) {}

  /** True when `source` named `key` within the last minute, or may name one more (then counted). */
  allow(source: string | undefined, key: string): boolean {
    const from = source ?? '';
    const now = this.now();
    let named = this.recent.get(from);
    if (named) for (const [k, at] of named) if (at <= now - 60_000) named.delete(k);
    if (named?.has(key)) {
      named.set(key, now);
      return true;
    }
    if (named && named.size >= this.perMinute) return false;
    if (!named) {
      if (this.recent.size >= this.maxSources) this.recent.clear();
      named = new Map();
      this.recent.set(from, named);
    }
    named.set(key, now);
    return true;
  }
}
