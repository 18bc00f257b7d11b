// A flood of bad connections must not become a flood of log lines (hundreds per second fill the
// add-on's log and hide everything else). Each kind of line is written at most once per window; what
// was held back is counted and reported in one line when the window ends.
export class ThrottledLog {
  private readonly held = new Map<string, { count: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly windowMs = 10_000,
  ) {}

  /** Writes the line unless a line of this kind was written within the window; then counts it. */
  line(kind: string, text: string): void {
    const held = this.held.get(kind);
    if (held) {
      held.count++;
      return;
    }
    this.write(text);
    const entry = { count: 0, timer: setTimeout(() => this.endWindow(kind), this.windowMs) };
    entry.timer.unref();
    this.held.set(kind, entry);
  }

  private endWindow(kind: string): void {
    const entry = this.held.get(kind);
    this.held.delete(kind);
    if (entry?.count) this.write(`${entry.count} more like "${kind}" in the last ${Math.round(this.windowMs / 1000)} s`);
  }

  /** Reports what is held back now and stops the timers (the listener is closing). */
  flush(): void {
    for (const [kind, entry] of [...this.held]) {
      clearTimeout(entry.timer);
      this.endWindow(kind);
    }
  }
}
