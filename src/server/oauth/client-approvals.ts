// Who may sign in to an endpoint: every client a person approved in the editor, and the requests
// waiting for that person. A request shows a short code on the authorization page; the editor shows
// the same code beside Approve and Deny, and approving needs it, so whoever approves sees which
// browser they let in. Bounded: at most MAX_PENDING waiting (the oldest goes), and a request lives
// PENDING_MS.
import { randomInt } from 'node:crypto';

export interface PendingRequest {
  /** The authorization request (the authorization server's interaction id). */
  request: string;
  client: string;
  name: string;
  redirectHost: string;
  /** Shown on the authorization page and in the editor: 6 characters from an alphabet without look-alikes. */
  code: string;
  at: number;
  decision?: 'approved' | 'denied';
}

export interface ApprovedClient {
  client: string;
  name: string;
  approvedAt: number;
  lastUsed?: number;
}

export interface ApprovalsState {
  approved: ApprovedClient[];
}

const MAX_PENDING = 20;
const MAX_APPROVED = 200;
export const PENDING_MS = 10 * 60_000;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export class ClientApprovals {
  private readonly pending = new Map<string, PendingRequest>();
  private readonly approved = new Map<string, ApprovedClient>();
  private readonly listeners = new Set<() => void>();

  constructor(
    state: ApprovalsState | undefined,
    private readonly saved: (state: ApprovalsState) => void,
    private readonly now: () => number = Date.now,
  ) {
    for (const a of state?.approved ?? []) this.approved.set(a.client, a);
  }

  /** A request for the authorization page: the same one on every reload, a new one after it expired. */
  ask(request: string, client: string, name: string, redirectUri: string): PendingRequest {
    this.forgetExpired();
    const known = this.pending.get(request);
    if (known) return known;
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    const code = Array.from({ length: 6 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    const entry: PendingRequest = { request, client, name: name || client, redirectHost: hostOf(redirectUri), code, at: this.now() };
    this.pending.set(request, entry);
    this.changed();
    return entry;
  }

  /** The decision on a request, once a person made it (or undefined while it waits or after it expired). */
  decision(request: string): PendingRequest['decision'] {
    this.forgetExpired();
    return this.pending.get(request)?.decision;
  }

  /** The request leaves the list once the browser has been sent on. */
  settle(request: string): void {
    if (this.pending.delete(request)) this.changed();
  }

  /** Approve or deny a waiting request; the code shown on its page must match. */
  decide(request: string, code: unknown, decision: 'approved' | 'denied'): { ok: true } | { ok: false; status: number; message: string } {
    this.forgetExpired();
    const entry = this.pending.get(request);
    if (!entry || entry.decision) return { ok: false, status: 404, message: 'no such sign-in waiting (it may have expired: ask the client to sign in again)' };
    if (
      typeof code !== 'string' ||
      code
        .trim()
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '') !== entry.code
    )
      return { ok: false, status: 400, message: 'the code does not match the one on the sign-in page' };
    entry.decision = decision;
    if (decision === 'approved') {
      if (this.approved.size >= MAX_APPROVED && !this.approved.has(entry.client)) this.approved.delete(this.approved.keys().next().value!);
      this.approved.set(entry.client, { client: entry.client, name: entry.name, approvedAt: this.now() });
      this.save();
    }
    this.changed();
    return { ok: true };
  }

  isApproved(client: string): boolean {
    return this.approved.has(client);
  }

  revoke(client: string): boolean {
    const had = this.approved.delete(client);
    if (had) {
      this.save();
      this.changed();
    }
    return had;
  }

  /** A token of the client was used; written at most once a minute. */
  used(client: string): void {
    const a = this.approved.get(client);
    if (!a) return;
    const before = a.lastUsed ?? 0;
    a.lastUsed = this.now();
    if (a.lastUsed - before > 60_000) this.save();
  }

  list(): { pending: Omit<PendingRequest, 'decision'>[]; approved: ApprovedClient[] } {
    this.forgetExpired();
    return {
      pending: [...this.pending.values()].filter((p) => !p.decision).map(({ decision: _d, ...p }) => p),
      approved: [...this.approved.values()],
    };
  }

  waiting(): number {
    return this.list().pending.length;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private forgetExpired(): void {
    const limit = this.now() - PENDING_MS;
    let gone = false;
    for (const [id, p] of this.pending) if (p.at < limit) gone = this.pending.delete(id) || gone;
    if (gone) this.changed();
  }

  private save(): void {
    this.saved({ approved: [...this.approved.values()] });
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}
