// Who may connect to a listener, the same rules for the WebSocket and the MQTT gateway:
// - a device must present one of the configured tokens (bearer token / MQTT password);
// - with no tokens configured every device is refused, unless `anonymous` is set;
// - with `anonymous`, a device without a token is let in, but a wrong token is still refused;
// - the allow list, when set, names the only device ids accepted;
// - a device id that is connected already is not taken over by a connection without a token
//   (anyone on the network can claim any MAC; only a token proves it is the device);
// - a token written as `<MAC>=<token>` belongs to that one device: presented by any other device id
//   it is refused, so one leaked device token cannot be used to take over the others; and that
//   device is accepted with its own token only (a shared token cannot take it over), as is a device
//   paired through its OTA check;
// - a device paired through its OTA check must also name the board it was paired with: the
//   Client-Id header on the WebSocket, the third part of the MQTT client id (pairing-book.ts).
import { normalizeDeviceId } from './device-id';
import type { DeviceRegistry } from './device-registry';
import { tokenAccepted } from './token-check';

export type Refusal = 'no-token' | 'bad-token' | 'not-allowed' | 'claimed';

export type Admission = { ok: true; authenticated: boolean; onlyFor?: string[] } | { ok: false; refusal: Refusal; message: string };

/** `aa:bb:cc:dd:ee:ff=<token>` (or with dashes): a token bound to one device's MAC. */
const BOUND_TOKEN = /^((?:[0-9a-f]{2}[:-]){5}[0-9a-f]{2})=(.+)$/i;

export interface GatePolicy {
  tokens?: string[];
  anonymous?: boolean;
  allow?: string[];
}

/** Tokens handed out at run time, each bound to one device (devices paired through the OTA check). */
export interface PairedTokens {
  boundTokens(): Array<{ deviceId: string; token: string }>;
  readonly pairedCount: number;
  /** The Client-Id a paired device is bound to, if any. */
  boundClientId(deviceId: string): string | undefined;
  /** The device connected with its own token (the Client-Id it named, when that can bind an old pairing). */
  usedToken(deviceId: string, clientId?: string): void;
}

/** The board a connection names: a WebSocket's Client-Id header, or the third part of an MQTT client id. */
export interface BoardClaim {
  clientId?: string;
  /** A WebSocket Client-Id is the board's uuid itself and may bind a pairing made before the binding. */
  canBind: boolean;
}

/** Two spellings of one Client-Id compare equal (an MQTT client id cannot hold every character). */
const sameBoard = (a: string, b: string) => a.replace(/[^A-Za-z0-9-]/g, '_').slice(0, 64) === b.replace(/[^A-Za-z0-9-]/g, '_').slice(0, 64);

export class DeviceGate {
  private readonly tokens: string[];
  /** The device each bound token belongs to, by token. */
  private readonly boundTokens: Array<{ deviceId: string; token: string }> = [];
  private readonly anonymous: boolean;
  private readonly allow: Set<string>;

  constructor(
    policy: GatePolicy,
    private readonly paired?: PairedTokens,
  ) {
    this.tokens = [];
    for (const entry of (policy.tokens ?? []).filter(Boolean)) {
      const bound = BOUND_TOKEN.exec(entry);
      if (bound) this.boundTokens.push({ deviceId: normalizeDeviceId(bound[1]), token: bound[2] });
      else this.tokens.push(entry);
    }
    this.anonymous = policy.anonymous === true;
    this.allow = new Set((policy.allow ?? []).map(normalizeDeviceId));
  }

  /** No token configured and anonymous off: nothing can connect (the default of a new listener). */
  get refusesEveryDevice(): boolean {
    return this.tokens.length === 0 && this.boundTokens.length === 0 && !this.paired?.pairedCount && !this.anonymous;
  }

  get openToAnyDevice(): boolean {
    return this.anonymous;
  }

  /** The credential check, before the device id is known (WebSocket) or together with it (MQTT). */
  checkToken(given: string | Buffer | undefined): Admission {
    const presented = given !== undefined && given.length > 0;
    // Every token, shared and bound, is compared (constant time, whichever matches).
    const shared = presented && tokenAccepted(given, this.tokens);
    const bound = this.paired ? [...this.boundTokens, ...this.paired.boundTokens()] : this.boundTokens;
    const onlyFor = presented ? bound.filter((b) => tokenAccepted(given, [b.token])).map((b) => b.deviceId) : [];
    if (shared) return { ok: true, authenticated: true };
    if (onlyFor.length) return { ok: true, authenticated: true, onlyFor };
    if (presented && this.tokens.length + bound.length > 0)
      return { ok: false, refusal: 'bad-token', message: "the device sent a token that is not one of the listener's tokens" };
    if (this.anonymous) return { ok: true, authenticated: false };
    return {
      ok: false,
      refusal: 'no-token',
      message:
        this.tokens.length + bound.length
          ? "the device sent no token (set the listener token as the device's OTA token)"
          : "the listener has no tokens and does not accept anonymous devices: add the device's token to the listener's Tokens",
    };
  }

  private hasOwnToken(deviceId: string): boolean {
    return this.boundTokens.some((b) => b.deviceId === deviceId) || !!this.paired?.boundTokens().some((b) => b.deviceId === deviceId);
  }

  /** The device checks once its id is known: allow list, and no takeover of a connected id without a token. */
  checkDevice(deviceId: string, credential: { authenticated: boolean; onlyFor?: string[] }, registry: DeviceRegistry, board?: BoardClaim): Admission {
    const { authenticated } = credential;
    if (this.allow.size && !this.allow.has(deviceId)) return { ok: false, refusal: 'not-allowed', message: `device ${deviceId} is not in the allow list` };
    if (credential.onlyFor && !credential.onlyFor.includes(deviceId)) {
      return { ok: false, refusal: 'bad-token', message: `device ${deviceId} sent a token that belongs to another device` };
    }
    // A device with a token of its own (`<MAC>=<token>`, or paired through its OTA check) is that
    // token only: a shared token, or none, cannot speak for it.
    if (!credential.onlyFor && this.hasOwnToken(deviceId)) {
      return { ok: false, refusal: 'bad-token', message: `device ${deviceId} has a token of its own and did not present it` };
    }
    const pairedBoard = credential.onlyFor ? this.paired?.boundClientId(deviceId) : undefined;
    if (pairedBoard && !(board?.clientId && sameBoard(pairedBoard, board.clientId))) {
      return { ok: false, refusal: 'bad-token', message: `device ${deviceId} was paired with another board (its Client-Id differs)` };
    }
    if (credential.onlyFor && this.paired?.boundTokens().some((b) => b.deviceId === deviceId)) {
      this.paired.usedToken(deviceId, board?.canBind ? board.clientId : undefined);
    }
    if (!authenticated && registry.isClaimed(deviceId)) {
      return {
        ok: false,
        refusal: 'claimed',
        message: `device ${deviceId} is connected already and the new connection has no token to prove it is that device (configure a token so a reconnecting device can replace its old connection)`,
      };
    }
    return { ok: true, authenticated };
  }
}
