// The one secret scrubber of the package. Config nodes register what is secret (bearer tokens, API
// keys, header and env values marked secret) and every text that can leave a node passes through
// `scrub`: errors, status, log lines, messages, admin-route answers, whoever wrote the text (a
// server's error body, a model's answer, a child's stderr). One process-wide registry on purpose:
// a secret of one node must not show up through another (an agent echoing a server's token).
// Each secret is also caught URL-encoded, form-encoded and JSON-escaped, and any `Bearer <token>`
// is masked even when the token is not a registered one (servers echo Authorization headers).
const MASK = '***';
const MIN_SECRET_LENGTH = 4;
const MAX_DEPTH = 64;
/** The default `extra`: one shared empty list, not a new one per call. */
const NO_EXTRA: ReadonlyArray<string | undefined> = Object.freeze([]);
const BEARER = /\b(Bearer)(\s+|%20|\+)(?!\*\*\*)[A-Za-z0-9\-._~+/%]+=*/gi;

export class SecretScrubber {
  private readonly counts = new Map<string, number>();
  private pattern?: RegExp | null;

  /** Registers secrets until the returned release function is called (a config node's lifetime). */
  register(values: Array<string | undefined | null>): () => void {
    const added = values.filter((v): v is string => typeof v === 'string' && v.trim().length >= MIN_SECRET_LENGTH);
    for (const v of added) this.counts.set(v, (this.counts.get(v) ?? 0) + 1);
    if (added.length) this.pattern = undefined;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const v of added) {
        const n = (this.counts.get(v) ?? 1) - 1;
        if (n > 0) this.counts.set(v, n);
        else this.counts.delete(v);
      }
      if (added.length) this.pattern = undefined;
    };
  }

  /** The text with every registered secret (and `extra`, e.g. a token typed in an undeployed dialog) masked. */
  scrub(text: string, extra: ReadonlyArray<string | undefined> = NO_EXTRA): string {
    if (typeof text !== 'string' || text.length === 0) return text;
    let out = text;
    const pattern = this.patternFor(extra);
    if (pattern) out = out.replace(pattern, MASK);
    if (/bearer/i.test(out)) out = out.replace(BEARER, `$1$2${MASK}`);
    return out;
  }

  /**
   * A copy of `value` with every string scrubbed. Plain objects and arrays are copied only where
   * something changed; anything else (Buffers, class instances such as an http request) is kept. An
   * object reached twice (shared, or through a cycle) is walked once and is the same copy both times.
   */
  scrubValue<T>(value: T, extra: ReadonlyArray<string | undefined> = NO_EXTRA): T {
    // Every message a node sends comes through here. A Map that dies with the call costs the
    // collector far less than a WeakSet per message would (bench/call-overhead measures it).
    return this.walk(value, extra, new Map(), 0) as T;
  }

  /** The same error with message and stack scrubbed (kept as the same object, so its type and code survive). */
  scrubError<E extends Error>(err: E, extra: ReadonlyArray<string | undefined> = NO_EXTRA): E {
    const message = this.scrub(err.message, extra);
    const stack = typeof err.stack === 'string' ? this.scrub(err.stack, extra) : err.stack;
    try {
      if (message !== err.message) Object.defineProperty(err, 'message', { value: message, writable: true, configurable: true });
      if (stack !== err.stack) Object.defineProperty(err, 'stack', { value: stack, writable: true, configurable: true });
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'string') Object.defineProperty(err, 'status', { value: this.scrub(status, extra), writable: true, configurable: true });
    } catch {
      return new Error(message) as E; // a frozen error: a fresh one carries the scrubbed text
    }
    return err;
  }

  private walk(value: unknown, extra: ReadonlyArray<string | undefined>, done: Map<object, unknown>, depth: number): unknown {
    if (typeof value === 'string') return this.scrub(value, extra);
    if (!value || typeof value !== 'object' || depth > MAX_DEPTH) return value;
    const known = done.get(value);
    if (known !== undefined) return known;
    if (Array.isArray(value)) {
      done.set(value, value); // a cycle back to this array meets the array itself
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item === null || (typeof item !== 'string' && typeof item !== 'object')) continue;
        const next = this.walk(item, extra, done, depth + 1);
        if (next !== item) (copy ??= value.slice())[i] = next;
      }
      done.set(value, copy ?? value);
      return copy ?? value;
    }
    if (value instanceof Error) return this.scrubError(value, extra);
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    done.set(value, value);
    let copy: Record<string, unknown> | undefined;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      // Numbers, booleans and nulls hold no secret: most of a message's leaves are skipped at once.
      if (item === null || (typeof item !== 'string' && typeof item !== 'object')) continue;
      const next = this.walk(item, extra, done, depth + 1);
      if (next !== item) (copy ??= { ...record })[key] = next;
    }
    done.set(value, copy ?? value);
    return copy ?? value;
  }

  private patternFor(extra: ReadonlyArray<string | undefined>): RegExp | null {
    // The common case, every string of every message a node sends: no allocation.
    if (extra.length === 0) {
      if (this.pattern === undefined) this.pattern = buildPattern([...this.counts.keys()]);
      return this.pattern;
    }
    const extras = extra.filter((v): v is string => typeof v === 'string' && v.trim().length >= MIN_SECRET_LENGTH);
    if (extras.length === 0) {
      if (this.pattern === undefined) this.pattern = buildPattern([...this.counts.keys()]);
      return this.pattern;
    }
    return buildPattern([...this.counts.keys(), ...extras]);
  }
}

/** Every written form of each secret, longest first so a longer form wins over its prefix. */
function buildPattern(secrets: string[]): RegExp | null {
  const forms = new Set<string>();
  for (const s of secrets) {
    forms.add(s);
    forms.add(encodeURIComponent(s));
    forms.add(encodeURIComponent(s).replace(/%20/g, '+'));
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  if (forms.size === 0) return null;
  const sorted = [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  return new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The process-wide scrubber every node and admin route uses. */
export const secrets = new SecretScrubber();
