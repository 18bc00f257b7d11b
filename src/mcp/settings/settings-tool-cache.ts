// Tool lists of servers that are not deployed yet, as the editor's dialogs ask for them: one list per
// set of settings (a hash of all of them, credentials included, so a changed token lists anew), kept
// for a short time, so refreshing a dialog does not start a new stdio process each time. Requests that
// arrive while a list is being fetched share it. Failures are not kept: the next refresh tries again.
// No timer: entries are dropped when read or when another list is stored, so nothing outlives a test.
import { createHash } from 'node:crypto';
import type { ListToolsResult } from '../call/tool-provider';

export const EDITOR_TOOL_LIST_TTL_MS = 30_000;

interface Entry {
  until: number;
  list: Promise<ListToolsResult>;
}

export class SettingsToolCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = EDITOR_TOOL_LIST_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached list for these settings, else `fetch()` (which must open and close its own session). */
  get(settings: unknown, fetch: () => Promise<ListToolsResult>): Promise<ListToolsResult> {
    this.dropExpired();
    const key = settingsKey(settings);
    const hit = this.entries.get(key);
    if (hit) return hit.list;
    const list = fetch();
    this.entries.set(key, { until: this.now() + this.ttlMs, list });
    list.catch(() => this.entries.delete(key));
    return list;
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.until <= now) this.entries.delete(key);
  }
}

/** A one-way digest: the settings (and the secrets in them) are never kept as a readable key. */
function settingsKey(settings: unknown): string {
  return createHash('sha256').update(stableJson(settings)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function');
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
