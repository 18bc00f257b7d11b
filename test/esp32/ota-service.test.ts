// The OTA answer and the pairing book on their own (src/esp32/ota-service.ts, pairing-book.ts),
// with a clock the test moves: what the firmware would store from each answer shape (no key over
// 15 bytes), codes that are one-use, expire after ten minutes, are limited per source address and
// at most 100 waiting, and a body the firmware's string concatenation broke still read.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OtaService, isFirmwareVersion, isNewerVersion, keysTooLong, type OtaRequest } from '../../src/esp32/ota-service';
import { CODE_TTL_MS, CODES_PER_SOURCE_PER_MINUTE, PairingBook, type PairingData } from '../../src/esp32/pairing-book';

const fixture = JSON.parse(readFileSync(join(__dirname, '..', 'peers', 'xiaozhi-device', 'fixtures', 'ota-check.json'), 'utf8'));
const headers = Object.fromEntries((fixture.request.headers as Array<[string, string]>).map(([k, v]) => [k.toLowerCase(), v]));
const request = (over: Partial<OtaRequest> = {}, headerOver: Record<string, string> = {}): OtaRequest => ({
  headers: { ...headers, ...headerOver },
  body: fixture.request.body_raw,
  remoteAddress: '192.168.1.23',
  ...over,
});

function setup(o: Partial<ConstructorParameters<typeof OtaService>[0]> = {}) {
  let now = 1_786_149_612_345;
  const saved: PairingData[] = [];
  const book = new PairingBook({ load: () => saved.at(-1), save: (d) => saved.push(structuredClone(d)) }, () => now);
  const service = new OtaService({ transport: 'websocket', path: '/xiaozhi/v1/', name: 'Node-RED Home', pairing: book, now: () => now, ...o });
  return { book, service, saved, advance: (ms: number) => (now += ms) };
}

describe('OTA answer and pairing book', () => {
  it("an unpaired device: activation with a 6-digit code naming Node-RED, the firmware's own version, no token", () => {
    const { service } = setup();
    const answer = service.check(request());
    assert.equal(answer.status, 200);
    const body = answer.body as any;
    assert.match(body.activation.code, /^\d{6}$/);
    assert.equal(body.activation.message, `Node-RED Home\n${body.activation.code}`);
    assert.equal(body.activation.challenge, 'd8:3b:da:4e:21:7c');
    assert.deepEqual(body.firmware, { version: '2.4.2', url: '' });
    assert.deepEqual(body.websocket, { url: 'ws://192.168.1.10:8002/xiaozhi/v1/', token: '' });
    assert.equal(body.server_time.timestamp, 1_786_149_612_345);
    assert.equal(typeof body.server_time.timezone_offset, 'number');
    assert.equal(service.activate(request()).status, 202);
  });

  it('paired: its own token, in every transport shape, and no key the firmware could not store', () => {
    for (const transport of ['websocket', 'mqtt-gateway'] as const) {
      const { service, book } = setup({ transport, port: transport === 'mqtt-gateway' ? 1884 : undefined });
      const code = (service.check(request()).body as any).activation.code;
      const device = book.pair(code)!;
      assert.equal(service.activate(request()).status, 200);
      const body = service.check(request()).body as any;
      assert.equal(body.activation, undefined);
      assert.deepEqual(keysTooLong(body), []);
      if (transport === 'websocket') assert.equal(body.websocket.token, device.token);
      else
        assert.deepEqual(body.mqtt, {
          endpoint: '192.168.1.10:1884',
          client_id: 'GID_otto-robot@@@d8_3b_da_4e_21_7c@@@d8_3b_da_4e_21_7c',
          username: 'd8:3b:da:4e:21:7c',
          password: device.token,
          publish_topic: 'device-server',
          subscribe_topic: 'devices/p2p/d8_3b_da_4e_21_7c',
        });
    }
    assert.deepEqual(keysTooLong({ mqtt: { subscribe_topics: 'x' } }), ['subscribe_topics'], 'the check can fail');
  });

  it('wss when Node-RED serves https, and a public address wins over the Host the device used', () => {
    assert.equal((setup().service.check(request({ secure: true })).body as any).websocket.url, 'wss://192.168.1.10:8002/xiaozhi/v1/');
    assert.equal((setup({ publicAddress: 'nodered.lan:1880' }).service.check(request()).body as any).websocket.url, 'ws://nodered.lan:1880/xiaozhi/v1/');
    assert.equal((setup({ port: 8099 }).service.check(request()).body as any).websocket.url, 'ws://192.168.1.10:8099/xiaozhi/v1/');
  });

  it('codes: the same at every check, one-use, gone after ten minutes, never leaking who waits', () => {
    const { service, book, advance } = setup();
    const first = (service.check(request()).body as any).activation.code;
    assert.equal((service.check(request()).body as any).activation.code, first, 'the device speaks the same code');
    advance(CODE_TTL_MS + 1);
    assert.equal(book.pair(first), undefined, 'expired');
    const second = (service.check(request()).body as any).activation.code;
    assert.ok(book.pair(second));
    assert.equal(book.pair(second), undefined, 'used');
    assert.equal(book.pair('12345'), undefined);
  });

  it('a source address gets only a few new codes a minute (429 + Retry-After), at most 100 devices wait', () => {
    const { service, book, advance } = setup();
    const mac = (i: number) => `02:00:00:00:${String(Math.floor(i / 256) % 100).padStart(2, '0')}:${(i % 256).toString(16).padStart(2, '0')}`;
    const answers = Array.from({ length: CODES_PER_SOURCE_PER_MINUTE + 1 }, (_, i) => service.check(request({}, { 'device-id': mac(i) })));
    assert.deepEqual(
      answers.map((a) => a.status),
      [...Array(CODES_PER_SOURCE_PER_MINUTE).fill(200), 429],
    );
    assert.equal(answers.at(-1)!.headers?.['Retry-After'], '60');
    advance(60_001);
    assert.equal(service.check(request({}, { 'device-id': mac(99) })).status, 200, 'a minute later again');
    for (let i = 0; i < 120; i++) service.check(request({ remoteAddress: `10.0.${Math.floor(i / 200)}.${i % 200}` }, { 'device-id': mac(1000 + i) }));
    const waiting = book.list().waiting;
    assert.equal(waiting.length, 100);
    assert.ok(!waiting.some((w) => w.id === mac(0)), 'the oldest were dropped');
    assert.ok(waiting.some((w) => w.id === mac(1119)));
  });

  it('paired devices are stored and read back (a restart), without waiting entries; unpairing removes them', () => {
    const { service, book, saved } = setup();
    const code = (service.check(request()).body as any).activation.code;
    const device = book.pair(code)!;
    const again = new PairingBook({ load: () => saved.at(-1), save: (d) => saved.push(d) });
    assert.equal(again.pairedDevice('D8-3B-DA-4E-21-7C')?.token, device.token);
    assert.deepEqual(again.list().waiting, []);
    assert.deepEqual(Object.keys(again.list().paired[0]).sort(), ['board', 'id', 'pairedAt', 'version'], 'no token in the list');
    assert.ok(again.unpair(device.id));
    assert.deepEqual(saved.at(-1), { paired: [] });
  });

  it('a body the firmware broke (an SSID with a quote) is still read; a Device-Id that is not a MAC is refused', () => {
    const { service } = setup();
    const broken = (fixture.request.body_raw as string).replace('"ssid":"HomeWiFi"', '"ssid":"Home"WiFi"');
    assert.throws(() => JSON.parse(broken));
    const body = service.check(request({ body: broken })).body as any;
    assert.deepEqual(body.firmware, { version: '2.4.2', url: '' });
    assert.equal(service.check(request({}, { 'device-id': 'not-a-mac' })).status, 400);
    assert.match(service.describe().body as string, /Custom OTA URL/);
  });

  it('firmware: versions compared as the firmware does; offered only to its board on an older version', () => {
    assert.ok(isNewerVersion('2.5.0', '2.4.2'));
    assert.ok(isNewerVersion('2.4.2.1', '2.4.2'), 'a longer version wins a tie');
    assert.ok(!isNewerVersion('2.4.2', '2.4.2'));
    assert.ok(!isNewerVersion('2.4.10', '2.5'));
    assert.ok(isNewerVersion('2.10', '2.9'), 'numbers, not text');
    assert.ok(!isFirmwareVersion('v2.5.0') && !isFirmwareVersion('2.5-beta') && isFirmwareVersion('2.5.0'));
    const firmware = { board: 'otto-robot', version: '2.5.0', file: '/tmp/xiaozhi.bin' };
    const { service, book } = setup({ firmware, firmwarePath: '/xiaozhi/ota/firmware.bin' });
    book.pair((service.check(request()).body as any).activation.code);
    assert.deepEqual((service.check(request()).body as any).firmware, { version: '2.5.0', url: 'http://192.168.1.10:8002/xiaozhi/ota/firmware.bin' });
    const otherBoard = (fixture.request.body_raw as string).split('"otto-robot"').join('"bread-compact-wifi"');
    assert.deepEqual((service.check(request({ body: otherBoard }, { 'user-agent': 'bread-compact-wifi/2.4.2' })).body as any).firmware, {
      version: '2.4.2',
      url: '',
    });
    const newer = (fixture.request.body_raw as string).replace('"version":"2.4.2"', '"version":"2.6.0"');
    assert.deepEqual((service.check(request({ body: newer })).body as any).firmware, { version: '2.6.0', url: '' });
  });

  it('Activation-Version 2 (a serial number and an HMAC of the challenge): 202 while waiting, 200 once paired', () => {
    const { service, book } = setup();
    const v2 = fixture.responses.d_activation_version_2;
    const v2Headers = Object.fromEntries((v2.request_headers as Array<[string, string]>).map(([k, v]) => [k.toLowerCase(), v]));
    const check = service.check({ headers: v2Headers, body: fixture.request.body_raw });
    const code = (check.body as any).activation.code;
    const poll = {
      headers: Object.fromEntries((v2.activate_request.headers as Array<[string, string]>).map(([k, v]) => [k.toLowerCase(), v])),
      body: v2.activate_request.body,
    };
    assert.equal(service.activate(poll).status, 202);
    assert.ok(book.pair(code));
    assert.deepEqual(service.activate(poll), { status: 200, body: 'success' });
  });
});
