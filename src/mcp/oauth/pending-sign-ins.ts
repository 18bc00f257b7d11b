// Sign-ins between the Authorize click and the browser's redirect back. The callback route cannot
// check the editor's bearer (a redirect carries none), so the `state` is its guard: random, bound
// to one config node, usable once, gone after ten minutes.
import type { PendingSignIn } from './sign-in';

const TTL_MS = 10 * 60_000;
const MAX_PENDING = 100;

export interface PendingEntry {
  nodeId: string;
  pending: PendingSignIn;
  createdAt: number;
}

export class PendingSignIns {
  private readonly byState = new Map<string, PendingEntry>();

  add(nodeId: string, pending: PendingSignIn, now = Date.now()): void {
    this.prune(now);
    // A second click on Authorize for the same node replaces the first sign-in.
    for (const [state, e] of this.byState) if (e.nodeId === nodeId) this.byState.delete(state);
    if (this.byState.size >= MAX_PENDING) this.byState.delete(this.byState.keys().next().value as string);
    this.byState.set(pending.state, { nodeId, pending, createdAt: now });
  }

  /** The entry for `state`, removed so it cannot be used twice; undefined if unknown or expired. */
  take(state: string | null | undefined, now = Date.now()): PendingEntry | undefined {
    if (!state) return undefined;
    const entry = this.byState.get(state);
    this.byState.delete(state);
    return entry && now - entry.createdAt <= TTL_MS ? entry : undefined;
  }

  private prune(now: number): void {
    for (const [state, e] of this.byState) if (now - e.createdAt > TTL_MS) this.byState.delete(state);
  }
}
