// The answer to a stock xiaozhi device's OTA check (POST <OTA URL>, once per boot), the only way the
// firmware learns its server (main/ota.cc of 78/xiaozhi-esp32): the `websocket` or `mqtt` section
// of the listener's own transport with the device's own token, `server_time`, and `firmware` with
// the device's own version (nothing to install). A device that is not paired gets `activation`
// instead of a token: it shows and speaks the 6-digit code and polls `<OTA URL>activate` (202 while
// it waits, 200 once a person typed the code into the listener's dialog; ./pairing-book.ts).
// The firmware writes every key of a section into NVS, whose keys are at most 15 bytes (a longer
// one crashes the device), keeps a key until it is sent again, and treats any answer but 200 as a
// failed check to retry.
// A paired device's token goes only to the board it was paired with (its Client-Id) and only until
// it has used it (pairing-book.ts): a check naming a paired MAC with another Client-Id gets 403, and
// a later check gets the transport without the `token` / `password` key, which keeps the stored one.
// Checks and activation polls are limited per source address, so MACs cannot be tried at speed.
import { deviceTopicFor, macUnderscore, normalizeDeviceId } from '../devices/device-id';
import type { Esp32Transport } from '../devices/device-session';
import { DEFAULT_DEVICE_TOPIC, DEFAULT_GATEWAY_PORT, DEFAULT_PATH, DEFAULT_PUBLISH_TOPIC } from '../listener';
import type { PairingBook } from './pairing-book';
import type { OtaAnswer, OtaAnswerer, OtaRequest } from '../ota-wire';
import { isNewerVersion } from './firmware-version';
import { DistinctPerSource } from './source-rate';

/** Different MACs one source address may check or poll for per minute (a device names its own only). */
export const MACS_PER_SOURCE_PER_MINUTE = 10;

export { isFirmwareVersion, isNewerVersion } from './firmware-version';

export type { OtaAnswer, OtaAnswerer, OtaRequest } from '../ota-wire';

/** The longest key the firmware can store (ESP-IDF NVS): every answer key is checked against it. */
export const MAX_NVS_KEY_BYTES = 15;
const MAC = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i;

export interface OtaServiceOptions {
  transport: Esp32Transport;
  /** websocket: the device path as mounted (httpNodeRoot joined), e.g. /xiaozhi/v1/ */
  path?: string;
  /** websocket on its own port, or the gateway's port. Blank websocket: Node-RED's own port (the Host the device used). */
  port?: number;
  publishTopic?: string;
  deviceTopic?: string;
  /** `host` or `host:port` devices should dial instead of the address they reached this check at. */
  publicAddress?: string;
  /** Said with the code on the device's screen (the firmware shows it verbatim, a newline included). */
  name: string;
  pairing: PairingBook;
  /** A firmware image offered to devices of one board with an older version (served at `firmwarePath`). */
  firmware?: { board: string; version: string; file: string };
  /** Where the image is served, under the same origin as the OTA address. */
  firmwarePath?: string;
  now?: () => number;
}

export interface CheckedDevice {
  id: string;
  clientId?: string;
  board?: string;
  version?: string;
}

export class OtaService implements OtaAnswerer {
  private readonly macs: DistinctPerSource;

  constructor(private readonly o: OtaServiceOptions) {
    this.macs = new DistinctPerSource(MACS_PER_SOURCE_PER_MINUTE, o.now);
  }

  /** GET on the OTA URL: what this address is for, in words. */
  describe(): OtaAnswer {
    return {
      status: 200,
      body:
        `${this.o.name} answers xiaozhi devices' OTA check here.\n` +
        "Put this address into the device's Wi-Fi setup page, Advanced tab, Custom OTA URL; the device then speaks a code to type into the esp32-listener's dialog.\n",
    };
  }

  check(request: OtaRequest): OtaAnswer {
    const device = deviceOf(request);
    if (!device) return { status: 400, body: { error: 'Device-Id must be the device MAC (aa:bb:cc:dd:ee:ff)' } };
    if (!this.macs.allow(request.remoteAddress, device.id)) return tooMany('too many different devices from this address; try again in a minute');
    const now = (this.o.now ?? Date.now)();
    const paired = this.o.pairing.pairedDevice(device.id);
    const answer: Record<string, unknown> = {
      server_time: { timestamp: now, timezone_offset: -new Date(now).getTimezoneOffset() },
      firmware: this.firmwareFor(request, device),
    };
    if (paired) {
      const delivery = this.o.pairing.tokenDelivery(device.id, device.clientId);
      if (delivery === 'refuse')
        return { status: 403, body: { error: 'this device is paired with another board (Client-Id); unpair it in the esp32-listener to pair again' } };
      this.o.pairing.seen(device.id);
      Object.assign(answer, this.transportSection(request, device, delivery === 'token' ? paired.token : undefined, paired.clientId));
      return { status: 200, body: answer };
    }
    const waiting = this.o.pairing.waitFor({ id: device.id, board: device.board, version: device.version, clientId: device.clientId }, request.remoteAddress);
    if (!waiting) return tooMany('too many new devices from this address; try again in a minute');
    // An empty token: an unpaired device learns where to go (and forgets any old token), but cannot
    // get in before a person pairs it.
    Object.assign(answer, this.transportSection(request, device, ''));
    answer.activation = { code: waiting.code, message: `${this.o.name}\n${waiting.code}`, challenge: device.id };
    return { status: 200, body: answer };
  }

  /** `<OTA URL>activate`: 200 once paired, 202 while the device waits for its code to be entered. */
  activate(request: OtaRequest): OtaAnswer {
    const device = deviceOf(request);
    if (!device) return { status: 202, body: '' };
    if (!this.macs.allow(request.remoteAddress, device.id)) return tooMany('too many different devices from this address; try again in a minute');
    // 200 only for the board that was paired: a stranger naming the MAC learns nothing.
    if (this.o.pairing.pairedDevice(device.id) && this.o.pairing.boundClientId(device.id) === device.clientId?.slice(0, 64))
      return { status: 200, body: 'success' };
    this.o.pairing.polled(device.id, device.clientId);
    return { status: 202, body: '' };
  }

  firmwareFile(): string | undefined {
    return this.o.firmware?.file;
  }

  /** The offered image for a device of its board on an older version; else its own version (nothing to install). */
  private firmwareFor(request: OtaRequest, device: CheckedDevice): { version: string; url: string } {
    const offer = this.o.firmware;
    if (offer && this.o.firmwarePath && device.board === offer.board && device.version && isNewerVersion(offer.version, device.version)) {
      return { version: offer.version, url: `${request.secure ? 'https' : 'http'}://${hostOf(request)}${this.o.firmwarePath}` };
    }
    return { version: device.version ?? '', url: '' };
  }

  /** `token` undefined: the key is left out, and the device keeps the token it stored. */
  private transportSection(request: OtaRequest, device: CheckedDevice, token: string | undefined, boundClientId?: string): Record<string, unknown> {
    const reached = hostOf(request);
    if (this.o.transport === 'mqtt-gateway') {
      const host = this.o.publicAddress ? withoutPort(this.o.publicAddress) : withoutPort(reached);
      const mac = macUnderscore(device.id);
      return {
        mqtt: {
          endpoint: `${host}:${this.o.port ?? DEFAULT_GATEWAY_PORT}`,
          // The third part names the board the pairing is bound to; the gateway checks it at CONNECT.
          client_id: `GID_${safeGroup(device.board)}@@@${mac}@@@${boundClientId ? mqttClientPart(boundClientId) : mac}`,
          username: device.id,
          ...(token === undefined ? {} : { password: token }),
          publish_topic: (this.o.publishTopic || DEFAULT_PUBLISH_TOPIC).replace(/\{mac_\}/g, mac),
          subscribe_topic: deviceTopicFor(this.o.deviceTopic || DEFAULT_DEVICE_TOPIC, device.id),
        },
      };
    }
    const base = this.o.publicAddress || (this.o.port ? `${withoutPort(reached)}:${this.o.port}` : reached);
    const scheme = request.secure && !this.o.port ? 'wss' : 'ws';
    return { websocket: { url: `${scheme}://${base}${this.o.path || DEFAULT_PATH}`, ...(token === undefined ? {} : { token }) } };
  }
}

/** Every key of an answer, at any depth, that the firmware could not store. */
export function keysTooLong(value: unknown, max = MAX_NVS_KEY_BYTES): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => [...(Buffer.byteLength(k) > max ? [k] : []), ...keysTooLong(v, max)]);
}

function header(request: OtaRequest, name: string): string | undefined {
  const v = request.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
}

function deviceOf(request: OtaRequest): CheckedDevice | undefined {
  const raw = header(request, 'device-id');
  if (!raw || !MAC.test(raw)) return undefined;
  const agent = /^([^/\s]+)\/(\S+)$/.exec(header(request, 'user-agent') ?? '');
  const body = leniently(request.body);
  return {
    id: normalizeDeviceId(raw),
    clientId: header(request, 'client-id')?.slice(0, 64),
    board: (stringAt(body, ['board', 'type']) ?? agent?.[1])?.slice(0, 64),
    version: (stringAt(body, ['application', 'version']) ?? agent?.[2])?.slice(0, 32),
  };
}

/**
 * The firmware builds the body by string concatenation without escaping (an SSID with a quote
 * breaks the JSON): parse it when it parses, else read the two facts we use with a pattern.
 */
function leniently(body: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(body);
    if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  const version = /"application"\s*:\s*\{[^}]*?"version"\s*:\s*"([^"]{1,32})"/.exec(body)?.[1];
  const type = /"board"\s*:\s*\{\s*"type"\s*:\s*"([^"]{1,64})"/.exec(body)?.[1];
  return { ...(version ? { application: { version } } : {}), ...(type ? { board: { type } } : {}) };
}

function stringAt(value: Record<string, unknown>, path: string[]): string | undefined {
  let node: unknown = value;
  for (const key of path) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return typeof node === 'string' && node ? node : undefined;
}

function hostOf(request: OtaRequest): string {
  return header(request, 'host') ?? '127.0.0.1';
}

function withoutPort(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
}

/** The board name as the group of an MQTT client id (no `@`, no spaces). */
function safeGroup(board: string | undefined): string {
  return (board ?? 'xiaozhi').replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64) || 'xiaozhi';
}

function tooMany(error: string): OtaAnswer {
  return { status: 429, headers: { 'Retry-After': '60' }, body: { error } };
}

/** A Client-Id as the third part of an MQTT client id (no `@`, nothing but letters, digits and `-`). */
export function mqttClientPart(clientId: string): string {
  return clientId.replace(/[^A-Za-z0-9-]/g, '_').slice(0, 64);
}
