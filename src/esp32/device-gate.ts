// Who may connect to a listener, the same rules for the WebSocket and the MQTT gateway:
// - a device must present one of the configured tokens (bearer token / MQTT password);
// - with no tokens configured every device is refused, unless `anonymous` is set;
// - with `anonymous`, a device without a token is let in, but a wrong token is still refused;
// - the allow list, when set, names the only device ids accepted;
// - a device id that is connected already is not taken over by a connection without a token
//   (anyone on the network can claim any MAC; only a token proves it is the device).
import { normalizeDeviceId } from './device-id';
import type { DeviceRegistry } from './device-registry';
import { tokenAccepted } from './token-check';

export type Refusal = 'no-token' | 'bad-token' | 'not-allowed' | 'claimed';

export type Admission = { ok: true; authenticated: boolean } | { ok: false; refusal: Refusal; message: string };

export interface GatePolicy {
  tokens?: string[];
  anonymous?: boolean;
  allow?: string[];
}

export class DeviceGate {
  private readonly tokens: string[];
  private readonly anonymous: boolean;
  private readonly allow: Set<string>;

  constructor(policy: GatePolicy) {
    this.tokens = (policy.tokens ?? []).filter(Boolean);
    this.anonymous = policy.anonymous === true;
    this.allow = new Set((policy.allow ?? []).map(normalizeDeviceId));
  }

  /** No token configured and anonymous off: nothing can connect (the default of a new listener). */
  get refusesEveryDevice(): boolean {
    return this.tokens.length === 0 && !this.anonymous;
  }

  get openToAnyDevice(): boolean {
    return this.anonymous;
  }

  /** The credential check, before the device id is known (WebSocket) or together with it (MQTT). */
  checkToken(given: string | Buffer | undefined): Admission {
    const presented = given !== undefined && given.length > 0;
    if (presented && tokenAccepted(given, this.tokens)) return { ok: true, authenticated: true };
    if (presented && this.tokens.length > 0)
      return { ok: false, refusal: 'bad-token', message: "the device sent a token that is not one of the listener's tokens" };
    if (this.anonymous) return { ok: true, authenticated: false };
    return {
      ok: false,
      refusal: 'no-token',
      message: this.tokens.length
        ? "the device sent no token (set the listener token as the device's OTA token)"
        : "the listener has no tokens and does not accept anonymous devices: add the device's token to the listener's Tokens",
    };
  }

  /** The device checks once its id is known: allow list, and no takeover of a connected id without a token. */
  checkDevice(deviceId: string, authenticated: boolean, registry: DeviceRegistry): Admission {
    if (this.allow.size && !this.allow.has(deviceId)) return { ok: false, refusal: 'not-allowed', message: `device ${deviceId} is not in the allow list` };
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
