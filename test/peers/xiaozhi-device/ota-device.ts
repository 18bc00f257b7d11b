// A stock xiaozhi device's OTA check and activation loop, byte for byte as the firmware does them
// (fixtures/ota-check.json, read from 78/xiaozhi-esp32 main/ota.cc and application.cc): a raw
// HTTP/1.1 POST with the headers in the firmware's wire order and `Connection: close`, the system
// info body as the firmware concatenates it, only a 200 with parseable JSON counts, every string or
// number member of the `websocket`/`mqtt` sections is written to "NVS" (a key over 15 bytes crashes
// the device), and while the answer carries `activation` the device speaks the code and polls
// `<OTA URL>activate` (202: 3 s, 200: check again, other: 10 s; 10 attempts per round). The clock
// is scaled so a test can run the real waits in milliseconds. The device then connects with
// exactly what it stored.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

const fixture = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'ota-check.json'), 'utf8'));
const FIXTURE_MAC: string = fixture.device.mac;
const FIXTURE_UUID: string = fixture.device.uuid;

export interface OtaDeviceIdentity {
  mac: string;
  uuid?: string;
  board?: string;
  version?: string;
  language?: string;
  /** Activation-Version 2: the eFuse serial number and HMAC key (32 bytes). */
  serial?: { number: string; hmacKey: Buffer };
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The raw header block as received (to check Content-Length against chunked). */
  raw: string;
}

export interface Nvs {
  websocket: Record<string, string | number>;
  mqtt: Record<string, string | number>;
}

export interface JoinResult {
  nvs: Nvs;
  /** What the firmware's InitializeProtocol picks: mqtt when the last check had an mqtt section. */
  protocol: 'websocket' | 'mqtt';
  checks: HttpAnswer[];
  activations: HttpAnswer[];
  /** The codes the device spoke, in order. */
  spoken: string[];
  serverTime?: { timestamp: number; timezone_offset?: number };
  firmware?: { version?: unknown; url?: unknown };
}

export class NvsKeyTooLong extends Error {}

export class OtaDevice {
  readonly nvs: Nvs = { websocket: {}, mqtt: {} };
  readonly spoken: string[] = [];

  constructor(
    readonly identity: OtaDeviceIdentity,
    /** 1 = real time; 0.01 turns the firmware's 3 s and 10 s waits into 30 ms and 100 ms. */
    private readonly timeScale = 0.01,
  ) {}

  get uuid(): string {
    return this.identity.uuid ?? FIXTURE_UUID;
  }

  /** The system info body exactly as the firmware builds it, for this device. */
  body(): string {
    let body: string = fixture.request.body_raw;
    body = body.split(FIXTURE_MAC).join(this.identity.mac).split(FIXTURE_UUID).join(this.uuid);
    if (this.identity.version) body = body.replace('"version":"2.4.2"', `"version":"${this.identity.version}"`);
    if (this.identity.board) body = body.split('"otto-robot"').join(`"${this.identity.board}"`);
    if (this.identity.language) body = body.replace('"language":"zh-CN"', `"language":"${this.identity.language}"`);
    return body;
  }

  private headers(url: URL, body: string): Array<[string, string]> {
    const port = url.port && !['80', '443'].includes(url.port) ? `:${url.port}` : '';
    const headers: Array<[string, string]> = [
      ['Host', url.hostname + port],
      ['Accept-Language', this.identity.language ?? 'zh-CN'],
      ['Activation-Version', this.identity.serial ? '2' : '1'],
      ['Client-Id', this.uuid],
      ['Content-Type', 'application/json'],
      ['Device-Id', this.identity.mac],
    ];
    if (this.identity.serial) headers.push(['Serial-Number', this.identity.serial.number]);
    headers.push(['User-Agent', `${this.identity.board ?? 'otto-robot'}/${this.identity.version ?? '2.4.2'}`]);
    headers.push(['Content-Length', String(Buffer.byteLength(body))], ['Connection', 'close']);
    return headers;
  }

  /** One POST as the firmware's HTTP client sends it (esp-ml307 BuildHttpRequest). */
  post(target: string, body: string): Promise<HttpAnswer> {
    const url = new URL(target);
    const head = [`POST ${url.pathname}${url.search} HTTP/1.1`, ...this.headers(url, body).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
    return rawRequest(url, `${head}\r\n\r\n${body}`);
  }

  /** One OTA check; the sections are stored as the firmware stores them. */
  async check(otaUrl: string): Promise<{ answer: HttpAnswer; json?: Record<string, any> }> {
    const answer = await this.post(otaUrl, this.body());
    if (answer.status !== 200) return { answer };
    let json: Record<string, any>;
    try {
      json = JSON.parse(answer.body);
    } catch {
      return { answer };
    }
    // cJSON_GetObjectItem is case-insensitive at the top level.
    const section = (name: string) => Object.entries(json).find(([k]) => k.toLowerCase() === name)?.[1];
    for (const name of ['mqtt', 'websocket'] as const) {
      const values = section(name);
      if (!values || typeof values !== 'object') continue;
      for (const [key, value] of Object.entries(values)) {
        if (typeof value !== 'string' && typeof value !== 'number') continue;
        if (Buffer.byteLength(key) > 15) throw new NvsKeyTooLong(`NVS key "${key}" is over 15 bytes: the device would abort and reboot`);
        this.nvs[name][key] = typeof value === 'number' ? Math.trunc(value) : value;
      }
    }
    return { answer, json };
  }

  /** The firmware's loop from power-on to the protocol it starts (application.cc CheckNewVersion). */
  async join(otaUrl: string, o: { maxRounds?: number } = {}): Promise<JoinResult> {
    const checks: HttpAnswer[] = [];
    const activations: HttpAnswer[] = [];
    let last: Record<string, any> | undefined;
    const activateUrl = otaUrl + (otaUrl.endsWith('/') ? 'activate' : '/activate');
    for (let round = 0; round < (o.maxRounds ?? 50); round++) {
      const { answer, json } = await this.check(otaUrl);
      checks.push(answer);
      if (!json) {
        await this.sleep(10_000);
        continue;
      }
      last = json;
      const activation = json.activation;
      if (!activation || (typeof activation.code !== 'string' && typeof activation.challenge !== 'string')) break;
      if (typeof activation.code === 'string') this.spoken.push(activation.code);
      if (typeof activation.challenge !== 'string') {
        await this.sleep(100_000);
        continue;
      }
      for (let attempt = 0; attempt < 10; attempt++) {
        const r = await this.post(activateUrl, this.activationBody(activation.challenge));
        activations.push(r);
        if (r.status === 200) break;
        await this.sleep(r.status === 202 ? 3_000 : 10_000);
      }
    }
    const protocol = last && last.mqtt ? 'mqtt' : 'websocket';
    return { nvs: this.nvs, protocol, checks, activations, spoken: this.spoken, serverTime: last?.server_time, firmware: last?.firmware };
  }

  private activationBody(challenge: string): string {
    const serial = this.identity.serial;
    if (!serial) return '{}';
    const hmac = createHmac('sha256', serial.hmacKey).update(challenge).digest('hex');
    return JSON.stringify({ algorithm: 'hmac-sha256', serial_number: serial.number, challenge, hmac });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((r) => setTimeout(r, Math.max(1, Math.round(ms * this.timeScale))));
  }
}

/** Sends `request` on a fresh TCP connection and reads the answer until the server closes. */
export function rawRequest(url: URL, request: string): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 80) });
    const chunks: Buffer[] = [];
    socket.setTimeout(30_000, () => socket.destroy(new Error('no answer within 30 s')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const split = all.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer: ${JSON.stringify(all.slice(0, 200))}`));
      const raw = all.slice(0, split);
      const [statusLine, ...lines] = raw.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      let body = all.slice(split + 4);
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, raw });
    });
    socket.write(request);
  });
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const nl = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, nl), 16);
    if (!size) return out;
    out += rest.slice(nl + 2, nl + 2 + size);
    rest = rest.slice(nl + 4 + size);
  }
}
