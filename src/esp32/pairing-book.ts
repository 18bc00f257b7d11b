// Devices that joined through the OTA check (./ota-service.ts) and the ones waiting to: a stock
// xiaozhi device that is not paired gets a 6-digit code, shows and speaks it, and polls; a person
// types the code into the listener's dialog, and from then on the device has a token of its own,
// bound to its MAC (the `<MAC>=<token>` rule of device-gate.ts), kept across restarts by `store`.
// Codes are random, one-use, expire after ten minutes, at most `maxWaiting` devices wait at once
// (the oldest is dropped), and one source address may start only a few a minute: a flood of fake
// MACs cannot push the real device's code out, nor be used to guess codes.
import { randomBytes, randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { normalizeDeviceId } from './device-id';

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_WAITING = 100;
/** New codes one source address may be handed per minute. */
export const CODES_PER_SOURCE_PER_MINUTE = 5;

export interface DeviceFacts {
  /** MAC, lower case with colons */
  id: string;
  board?: string;
  version?: string;
}

export interface WaitingDevice extends DeviceFacts {
  code: string;
  firstSeen: number;
  expiresAt: number;
  source?: string;
}

export interface PairedDevice extends DeviceFacts {
  token: string;
  pairedAt: number;
  lastSeen?: number;
}

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
  waitFor(facts: DeviceFacts, source?: string): WaitingDevice | undefined {
    const id = normalizeDeviceId(facts.id);
    const now = this.now();
    this.prune(now);
    const known = this.waiting.get(id);
    if (known) {
      Object.assign(known, { board: facts.board ?? known.board, version: facts.version ?? known.version });
      return known;
    }
    if (source && !this.allowNewCode(source, now)) return undefined;
    while (this.waiting.size >= this.maxWaiting) this.waiting.delete(this.waiting.keys().next().value!);
    const entry: WaitingDevice = { ...facts, id, code: this.freshCode(), firstSeen: now, expiresAt: now + CODE_TTL_MS, source };
    this.waiting.set(id, entry);
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
    this.waiting.delete(entry.id);
    const device: PairedDevice = { id: entry.id, board: entry.board, version: entry.version, token: randomBytes(24).toString('base64url'), pairedAt: now };
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

  private prune(now: number): void {
    for (const [id, w] of this.waiting) if (w.expiresAt <= now) this.waiting.delete(id);
  }

  private allowNewCode(source: string, now: number): boolean {
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
