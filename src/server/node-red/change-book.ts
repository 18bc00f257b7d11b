// The record of every change an assistant proposed through an endpoint: who, when, what (the lines
// a person reads), what became of it, and, for a deployed change, the flows as they were before it
// (the snapshot a rollback restores). Bounded: the newest RECORDS changes are kept, and snapshots
// only for the newest SNAPSHOTS deployed ones and at most SNAPSHOT_BYTES together (a big Node-RED's
// flows are megabytes). The adapter keeps its state() in a file, so a restart of Node-RED keeps the
// record and what can be rolled back.

export type ChangeState = 'proposed' | 'waiting' | 'deployed' | 'denied' | 'rolled back' | 'failed';

export interface ChangeRecord {
  id: string;
  /** The client that proposed it (its name as it introduced itself). */
  client: string;
  /** Whose token proposed it (its digest): only that caller may ask to deploy it. */
  owner?: string;
  at: number;
  state: ChangeState;
  changes: unknown[];
  lines: string[];
  /** Who approved, denied or rolled it back ("editor: admin", "client: Claude"), and when. */
  decidedBy?: string;
  decidedAt?: number;
  /** Why a deploy failed, or what the person said when denying. */
  reason?: string;
  /** The flows JSON before this change was deployed. */
  snapshot?: string;
  /** The revision Node-RED gave the flows this change deployed. */
  rev?: string;
}

const RECORDS = 50;
const SNAPSHOTS = 20;
const SNAPSHOT_BYTES = 16 * 1024 * 1024;

/** What outlives the process: the records (snapshots included), the next id, our last revision. */
export interface ChangeBookState {
  records: ChangeRecord[];
  counter: number;
  lastRev?: string;
}

export class ChangeBook {
  private readonly records: ChangeRecord[] = [];
  private readonly waiters = new Map<string, Set<() => void>>();
  private counter = 0;
  /** The revision our own last write left: a rollback refuses when someone deployed since. */
  lastRev: string | undefined;

  constructor(
    private readonly onChange: () => void = () => {},
    saved?: Partial<ChangeBookState>,
  ) {
    if (Array.isArray(saved?.records)) this.records.push(...saved.records.filter((r) => r && typeof r.id === 'string').slice(-RECORDS));
    if (typeof saved?.counter === 'number') this.counter = saved.counter;
    if (typeof saved?.lastRev === 'string') this.lastRev = saved.lastRev;
  }

  state(): ChangeBookState {
    return { records: this.records, counter: this.counter, lastRev: this.lastRev };
  }

  propose(client: string, changes: unknown[], lines: string[], owner?: string): ChangeRecord {
    const record: ChangeRecord = { id: `c${++this.counter}`, client, owner, at: Date.now(), state: 'proposed', changes, lines };
    this.records.push(record);
    if (this.records.length > RECORDS) this.records.splice(0, this.records.length - RECORDS);
    this.onChange();
    return record;
  }

  get(id: string): ChangeRecord | undefined {
    return this.records.find((r) => r.id === id);
  }

  /** Newest first. */
  list(): ChangeRecord[] {
    return [...this.records].reverse();
  }

  /** Deployed changes, newest first. */
  deployed(): ChangeRecord[] {
    return this.list().filter((r) => r.state === 'deployed');
  }

  update(record: ChangeRecord, patch: Partial<ChangeRecord>): void {
    Object.assign(record, patch);
    if (patch.snapshot) {
      // Newest first: keep snapshots while both bounds hold, drop the older ones.
      let bytes = 0;
      this.records
        .filter((r) => r.snapshot)
        .reverse()
        .forEach((r, i) => {
          bytes += r.snapshot!.length;
          if (i >= SNAPSHOTS || bytes > SNAPSHOT_BYTES) delete r.snapshot;
        });
    }
    this.onChange();
    const waiting = this.waiters.get(record.id);
    if (waiting && record.state !== 'waiting') {
      this.waiters.delete(record.id);
      for (const wake of waiting) wake();
    }
  }

  /** Resolves when the record leaves "waiting", or after `ms`, or when `signal` aborts. */
  settled(record: ChangeRecord, ms: number, signal?: AbortSignal): Promise<void> {
    if (record.state !== 'waiting') return Promise.resolve();
    return new Promise((resolve) => {
      const set = this.waiters.get(record.id) ?? new Set();
      this.waiters.set(record.id, set);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        set.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done);
      set.add(done);
    });
  }
}
