// What the authorization server keeps (registered clients, grants, codes, tokens, sessions), as
// oidc-provider's storage adapter: in memory, each entry with its expiry, and, for what must outlive
// a restart (clients, grants, refresh and access tokens), written through `persist` so the user
// directory holds it (sealed: ./sealed-file.ts). Bounded: each kind keeps at most MAX_PER_KIND
// entries, the oldest going first, so registrations from the network cannot fill the memory.

export interface StoredEntry {
  payload: Record<string, unknown>;
  /** ms since the epoch; undefined = no expiry. */
  expiresAt?: number;
}

export type StoreSnapshot = Record<string, Record<string, StoredEntry>>;

/** Kinds written to disk; the others (sessions, interactions, codes) live through one sign-in only. */
const DURABLE = new Set(['Client', 'Grant', 'RefreshToken', 'AccessToken']);
const MAX_PER_KIND = 2000;

export class SignInStore {
  private readonly kinds = new Map<string, Map<string, StoredEntry>>();
  private writeTimer?: NodeJS.Timeout;

  constructor(
    snapshot: StoreSnapshot | undefined,
    private readonly persist: (snapshot: StoreSnapshot) => void,
    private readonly now: () => number = Date.now,
    /** What is not stored may still be found elsewhere: a client named by its metadata document. */
    private readonly lookup?: (kind: string, id: string) => Promise<Record<string, unknown> | undefined>,
  ) {
    for (const [kind, entries] of Object.entries(snapshot ?? {})) {
      if (DURABLE.has(kind)) this.kinds.set(kind, new Map(Object.entries(entries)));
    }
  }

  /** The adapter class oidc-provider instantiates once per model name. */
  adapter(): new (name: string) => StoreAdapter {
    const store = this;
    return class implements StoreAdapter {
      constructor(private readonly name: string) {}
      upsert = async (id: string, payload: Record<string, unknown>, expiresIn?: number) => store.put(this.name, id, payload, expiresIn);
      find = async (id: string) => store.get(this.name, id) ?? (await store.lookUp(this.name, id));
      findByUid = async (uid: string) => store.findBy(this.name, (p) => p.uid === uid);
      findByUserCode = async (code: string) => store.findBy(this.name, (p) => p.userCode === code);
      consume = async (id: string) => store.consume(this.name, id);
      destroy = async (id: string) => store.remove(this.name, id);
      revokeByGrantId = async (grantId: string) => store.revokeGrant(grantId);
    };
  }

  /** Everything a client holds (grants and tokens) is gone at once: revoking a client in the editor. */
  forgetClient(clientId: string): void {
    for (const [kind, entries] of this.kinds) {
      if (kind === 'Client') continue;
      for (const [id, e] of entries) if (e.payload.clientId === clientId) entries.delete(id);
    }
    this.changed('Grant');
  }

  close(): void {
    if (this.writeTimer) {
      clearTimeout(this.writeTimer);
      this.writeTimer = undefined;
      this.persist(this.snapshot());
    }
  }

  private entries(kind: string): Map<string, StoredEntry> {
    let m = this.kinds.get(kind);
    if (!m) this.kinds.set(kind, (m = new Map()));
    return m;
  }

  private put(kind: string, id: string, payload: Record<string, unknown>, expiresIn?: number): void {
    const entries = this.entries(kind);
    entries.delete(id);
    if (entries.size >= MAX_PER_KIND) entries.delete(entries.keys().next().value!);
    entries.set(id, { payload, expiresAt: expiresIn ? this.now() + expiresIn * 1000 : undefined });
    this.changed(kind);
  }

  private live(kind: string, id: string): StoredEntry | undefined {
    const e = this.kinds.get(kind)?.get(id);
    if (!e) return undefined;
    if (e.expiresAt !== undefined && e.expiresAt <= this.now()) {
      this.kinds.get(kind)!.delete(id);
      return undefined;
    }
    return e;
  }

  /** Found elsewhere and kept for an hour, so one sign-in fetches a client document once. */
  private async lookUp(kind: string, id: string): Promise<Record<string, unknown> | undefined> {
    const found = await this.lookup?.(kind, id);
    if (found) this.put(kind, id, found, 3600);
    return found;
  }

  private get(kind: string, id: string): Record<string, unknown> | undefined {
    return this.live(kind, id)?.payload;
  }

  private findBy(kind: string, match: (p: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
    for (const [id, e] of this.kinds.get(kind) ?? []) if (match(e.payload)) return this.get(kind, id);
    return undefined;
  }

  private consume(kind: string, id: string): void {
    const e = this.live(kind, id);
    if (e) e.payload = { ...e.payload, consumed: Math.floor(this.now() / 1000) };
    this.changed(kind);
  }

  private remove(kind: string, id: string): void {
    if (this.kinds.get(kind)?.delete(id)) this.changed(kind);
  }

  private revokeGrant(grantId: string): void {
    for (const entries of this.kinds.values()) for (const [id, e] of entries) if (e.payload.grantId === grantId) entries.delete(id);
    this.changed('Grant');
  }

  private changed(kind: string): void {
    if (!DURABLE.has(kind) || this.writeTimer) return;
    // Many writes in one sign-in become one file write.
    this.writeTimer = setTimeout(() => {
      this.writeTimer = undefined;
      this.persist(this.snapshot());
    }, 200);
    this.writeTimer.unref?.();
  }

  private snapshot(): StoreSnapshot {
    const out: StoreSnapshot = {};
    const now = this.now();
    for (const [kind, entries] of this.kinds) {
      if (!DURABLE.has(kind)) continue;
      out[kind] = Object.fromEntries([...entries].filter(([, e]) => e.expiresAt === undefined || e.expiresAt > now));
    }
    return out;
  }
}

/** oidc-provider's adapter interface (https://github.com/panva/node-oidc-provider/blob/main/example/my_adapter.js). */
export interface StoreAdapter {
  upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findByUid(uid: string): Promise<Record<string, unknown> | undefined>;
  findByUserCode(code: string): Promise<Record<string, unknown> | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}
