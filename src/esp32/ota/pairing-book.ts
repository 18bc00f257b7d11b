// Devices that joined through the OTA check (./ota-service.ts) and the ones waiting to: a stock
// xiaozhi device that is not paired gets a 6-digit code, shows and speaks it, and polls; a person
// types the code into the listener's dialog, and from then on the device has a token of its own,
// bound to its MAC (the `<MAC>=<token>` rule of device-gate.ts), kept across restarts by `store`.
// Codes are random, one-use, expire after ten minutes, at most `maxWaiting` devices wait at once,
// and one source address may start only a few a minute and hold only a few at a time. When the list
// is full, the source holding the most entries loses its least recently seen one: a flood of fake
// MACs from a few addresses evicts its own entries, never the real device's code.
//
// A MAC is no secret (every Wi-Fi frame carries it), so a pairing is bound to the board as well:
// the `Client-Id` of the check that got the code (the board's uuid, which the firmware keeps and
// sends again on its WebSocket). The token goes only to checks with that Client-Id, and only until
// the device has used it once (the firmware keeps the last token it was given), so nothing of it
// can be had by naming the MAC. Pairings made before this binding existed carry no Client-Id: their
// token is never sent again (the device has it), and the Client-Id of their first WebSocket
// connection binds them.
import { randomBytes, randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { normalizeDeviceId } from '../devices/device-id';

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_WAITING = 100;
/** New codes one source address may be handed per minute. */
export const CODES_PER_SOURCE_PER_MINUTE = 5;
/** Codes one source address may hold at once. */
export const WAITING_PER_SOURCE = 10;
/** What a device reports of itself is kept to these lengths (shown in the editor, stored). */
export const MAX_BOARD_CHARS = 64;
export const MAX_VERSION_CHARS = 32;
export const MAX_CLIENT_ID_CHARS = 64;

export interface DeviceFacts {
  /** MAC, lower case with colons */
  id: string;
  board?: string;
  version?: string;
}

export interface WaitingDevice extends DeviceFacts {
  code: string;
  /** The Client-Id of the check that got the code: the pairing is bound to it. */
  clientId?: string;
  firstSeen: number;
  /** The last check or activation poll of this entry (the least recently seen is evicted first). */
  lastSeen: number;
  expiresAt: number;
  source?: string;
}

export interface PairedDevice extends DeviceFacts {
  token: string;
  pairedAt: number;
  lastSeen?: number;
  /** The board the pairing is bound to (its Client-Id); absent for pairings older than the binding. */
  clientId?: string;
  /** When the device first connected with its token: from then on the token is never sent again. */
  tokenUsedAt?: number;
}

/** What an OTA check of a paired device gets: its token, the transport without a token, or nothing. */
export type TokenDelivery = 'token' | 'withhold' | 'refuse';

export interface PairingData {
  paired: PairedDevice[];
}

/** Where paired devices are kept between restarts (a file under Node-RED's user directory). */
export interface PairingStore {
  load(): PairingData | undefined;
  save(data: PairingData): void;
}

export class PairingBook extends EventEmitter {
  private readonly waiting = new Map<string, WaitingDevice>(); // by device id
  private readonly paired = new Map<string, PairedDevice>();
  private readonly recentBySource = new Map<string, number[]>();

  constructor(
    private readonly store?: PairingStore,
    private readonly now: () => number = Date.now,
    private readonly maxWaiting = MAX_WAITING,
  ) {
    super();
    for (const p of store?.load()?.paired ?? []) {
      if (p && typeof p.id === 'string' && typeof p.token === 'string' && p.token)
        this.paired.set(normalizeDeviceId(p.id), { ...p, id: normalizeDeviceId(p.id) });
    }
  }

  /** The device's own token once paired. */
  pairedDevice(id: string): PairedDevice | undefined {
    return this.paired.get(normalizeDeviceId(id));
  }

  /**
   * The waiting entry of an unpaired device: its code, made on first sight and kept until it
   * expires (the device speaks the same code at every check). Undefined when the source address
   * asked for too many new codes this minute.
   */
  waitFor(facts: DeviceFacts & { clientId?: string }, source?: string): WaitingDevice | undefined {
    const id = normalizeDeviceId(facts.id);
    const clientId = facts.clientId?.slice(0, MAX_CLIENT_ID_CHARS);
    const key = waitingKey(id, clientId);
    const now = this.now();
    this.prune(now);
    const known = this.waiting.get(key);
    if (known) {
      // Its facts stay those of the check that got the code; it only counts as seen.
      known.lastSeen = now;
      return known;
    }
    if (source && !this.allowNewCode(source, now)) return undefined;
    while (this.waiting.size >= this.maxWaiting) this.evictOne();
    const entry: WaitingDevice = {
      id,
      clientId,
      board: facts.board?.slice(0, MAX_BOARD_CHARS),
      version: facts.version?.slice(0, MAX_VERSION_CHARS),
      code: this.freshCode(),
      firstSeen: now,
      lastSeen: now,
      expiresAt: now + CODE_TTL_MS,
      source,
    };
    this.waiting.set(key, entry);
    this.emit('waiting', entry);
    this.emit('change');
    return entry;
  }

  /** Pairs the device waiting with `code` (once); undefined for an unknown or expired code. */
  pair(code: string): PairedDevice | undefined {
    const now = this.now();
    this.prune(now);
    const wanted = String(code ?? '').trim();
    const entry = /^\d{6}$/.test(wanted) ? [...this.waiting.values()].find((w) => w.code === wanted) : undefined;
    if (!entry) return undefined;
    // Every code of this MAC goes: the board that spoke this one is the device.
    for (const [key, w] of this.waiting) if (w.id === entry.id) this.waiting.delete(key);
    const device: PairedDevice = {
      id: entry.id,
      board: entry.board,
      version: entry.version,
      clientId: entry.clientId,
      token: randomBytes(24).toString('base64url'),
      pairedAt: now,
    };
    this.paired.set(device.id, device);
    this.persist();
    this.emit('paired', device);
    this.emit('change');
    return device;
  }

  /** Revokes a paired device; true when it was paired. */
  unpair(id: string): boolean {
    const key = normalizeDeviceId(id);
    if (!this.paired.delete(key)) return false;
    this.persist();
    this.emit('unpaired', key);
    this.emit('change');
    return true;
  }

  /** A paired device was seen (an OTA check or a connection). */
  seen(id: string): void {
    const p = this.paired.get(normalizeDeviceId(id));
    if (p) p.lastSeen = this.now();
  }

  /** A waiting device polled its activation: it is still there, so it is evicted last. */
  polled(id: string, clientId?: string): void {
    const w = this.waiting.get(waitingKey(normalizeDeviceId(id), clientId?.slice(0, MAX_CLIENT_ID_CHARS)));
    if (w) w.lastSeen = this.now();
  }

  /** Whether an OTA check with this Client-Id gets the paired device's token (see the top of this file). */
  tokenDelivery(id: string, clientId: string | undefined): TokenDelivery {
    const p = this.paired.get(normalizeDeviceId(id));
    if (!p) return 'refuse';
    if (!p.clientId) return 'withhold';
    if (clientId?.slice(0, MAX_CLIENT_ID_CHARS) !== p.clientId) return 'refuse';
    return p.tokenUsedAt ? 'withhold' : 'token';
  }

  /** The board a paired device is bound to, if any. */
  boundClientId(id: string): string | undefined {
    return this.paired.get(normalizeDeviceId(id))?.clientId;
  }

  /**
   * A paired device connected with its own token (the gate checked it): the token is delivered, and
   * a pairing older than the binding is bound to the Client-Id it connected with.
   */
  usedToken(id: string, clientId?: string): void {
    const p = this.paired.get(normalizeDeviceId(id));
    if (!p) return;
    const bind = !p.clientId && !!clientId;
    if (bind) p.clientId = clientId!.slice(0, MAX_CLIENT_ID_CHARS);
    if (p.tokenUsedAt && !bind) return;
    p.tokenUsedAt ??= this.now();
    this.persist();
  }

  /** Tokens the device gate accepts, each for its one device. */
  boundTokens(): Array<{ deviceId: string; token: string }> {
    return [...this.paired.values()].map((p) => ({ deviceId: p.id, token: p.token }));
  }

  get pairedCount(): number {
    return this.paired.size;
  }

  /** What the dialog shows: waiting devices with their codes, paired devices without their tokens. */
  list(): { waiting: WaitingDevice[]; paired: Array<Omit<PairedDevice, 'token'>> } {
    this.prune(this.now());
    return {
      waiting: [...this.waiting.values()].map(({ source: _source, ...w }) => w),
      paired: [...this.paired.values()].map(({ token: _token, ...p }) => p),
    };
  }

  private persist(): void {
    this.store?.save({ paired: [...this.paired.values()] });
  }

  /** The least recently seen entry of the source that holds the most. */
  private evictOne(): void {
    const bySource = new Map<string, WaitingDevice[]>();
    for (const w of this.waiting.values()) {
      const list = bySource.get(w.source ?? '') ?? [];
      list.push(w);
      bySource.set(w.source ?? '', list);
    }
    const largest = [...bySource.values()].reduce((a, b) => (b.length > a.length ? b : a));
    const victim = largest.reduce((a, b) => (b.lastSeen < a.lastSeen ? b : a));
    this.waiting.delete(waitingKey(victim.id, victim.clientId));
  }

  private prune(now: number): void {
    for (const [id, w] of this.waiting) if (w.expiresAt <= now) this.waiting.delete(id);
  }

  private allowNewCode(source: string, now: number): boolean {
    let held = 0;
    for (const w of this.waiting.values()) if (w.source === source) held++;
    if (held >= WAITING_PER_SOURCE) return false;
    const recent = (this.recentBySource.get(source) ?? []).filter((t) => t > now - 60_000);
    if (recent.length >= CODES_PER_SOURCE_PER_MINUTE) return false;
    recent.push(now);
    this.recentBySource.set(source, recent);
    if (this.recentBySource.size > 10_000) this.recentBySource.clear(); // bounded; a flood only resets the window
    return true;
  }

  private freshCode(): string {
    for (;;) {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      if (![...this.waiting.values()].some((w) => w.code === code)) return code;
    }
  }
}

/** A MAC with the board that checked for it: strangers naming the MAC get codes of their own. */
function waitingKey(id: string, clientId: string | undefined): string {
  return `${id}|${clientId ?? ''}`;
}
