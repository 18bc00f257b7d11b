// What flows offer on an endpoint (tools, prompts, resources), as their `*-in` nodes register and
// deregister them. A change is announced once per burst (a redeploy stops and starts many nodes),
// so a client hears one list_changed per deploy, not one per node: the adapter calls flush() when
// the runtime says the flows started, and a quiet period announces changes made outside a deploy.
// A burst that leaves the list as it was announced (a deploy that restarted the same nodes) is not
// announced: the list's fingerprint (each item's key and definition) is compared first.
export class FlowRegistry<T extends { owner: string }> {
  private readonly items = new Map<string, T>();
  private readonly listeners = new Set<() => void>();
  private pending: NodeJS.Timeout | undefined;
  private dirty = false;
  /** The fingerprint of the list as last announced (undefined: never announced). */
  private announced: string | undefined;

  constructor(private readonly keyOf: (item: T) => string) {}

  /** Returns the other owner when the key is taken by another node (the item is then not served). */
  register(item: T): string | undefined {
    const key = this.keyOf(item);
    const held = this.items.get(key);
    if (held && held.owner !== item.owner) return held.owner;
    this.items.set(key, item);
    this.changed();
    return undefined;
  }

  deregister(owner: string): void {
    for (const [key, item] of this.items) if (item.owner === owner) this.items.delete(key);
    this.changed();
  }

  /** Everything registered, in registration order. */
  all(): T[] {
    return [...this.items.values()];
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearTimeout(this.pending);
    this.listeners.clear();
  }

  /** Announces pending changes now (the runtime finished starting the flows). */
  flush(): void {
    clearTimeout(this.pending);
    this.pending = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    const now = JSON.stringify(this.all().map((item) => [this.keyOf(item), (item as { definition?: unknown }).definition ?? null]));
    if (now === this.announced) return;
    this.announced = now;
    for (const l of this.listeners) l();
  }

  private changed(): void {
    this.dirty = true;
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.flush(), 250);
    this.pending.unref?.();
  }
}
