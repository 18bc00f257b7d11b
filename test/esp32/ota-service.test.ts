// The OTA answer and the pairing book on their own (src/esp32/ota/ota-service.ts, pairing-book.ts),
// with a clock the test moves: what the firmware would store from each answer shape (no key over
// 15 bytes), codes that are one-use, expire after ten minutes, are limited per source address and
// at most 100 waiting, and a body the firmware's string concatenation broke still read.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OtaService, isFirmwareVersion, isNewerVersion, keysTooLong, type OtaRequest } from '../../src/esp32/ota/ota-service';
import { CODE_TTL_MS, CODES_PER_SOURCE_PER_MINUTE, PairingBook, type PairingData } from '../../src/esp32/ota/pairing-book';
import { MACS_PER_SOURCE_PER_MINUTE } from '../../src/esp32/ota/ota-service';

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
          // The third part names the board the pairing is bound to (the check's Client-Id).
          client_id: 'GID_otto-robot@@@d8_3b_da_4e_21_7c@@@7f3e9c2a-1b4d-4a6e-9f0c-2d8e5b7a1c34',
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
    assert.deepEqual(Object.keys(again.list().paired[0]).sort(), ['board', 'clientId', 'id', 'pairedAt', 'version'], 'no token in the list');
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

  describe('a MAC is not a secret: the token goes to the paired board only', () => {
    const ATTACKER = { 'client-id': '00000000-dead-4bad-8bad-000000000000' };
    const hasToken = (body: unknown, token: string) => JSON.stringify(body).includes(token);

    it('a check naming a paired MAC with another Client-Id gets 403 and nothing of the token; its activation poll says nothing', () => {
      for (const transport of ['websocket', 'mqtt-gateway'] as const) {
        const { service, book } = setup({ transport, port: transport === 'mqtt-gateway' ? 1884 : undefined });
        const device = book.pair((service.check(request()).body as any).activation.code)!;
        const stolen = service.check(request({ remoteAddress: '192.168.1.66', body: '{}' }, ATTACKER));
        assert.equal(stolen.status, 403);
        assert.ok(!hasToken(stolen.body, device.token), JSON.stringify(stolen.body));
        assert.equal(service.activate(request({ remoteAddress: '192.168.1.66' }, ATTACKER)).status, 202, 'the poll does not confirm the pairing');
        assert.ok(hasToken(service.check(request()).body, device.token), 'the real board still gets it');
      }
    });

    it('the token is sent until the device has used it, then never again (the firmware keeps the last one it was given)', () => {
      for (const transport of ['websocket', 'mqtt-gateway'] as const) {
        const { service, book, saved } = setup({ transport, port: transport === 'mqtt-gateway' ? 1884 : undefined });
        const device = book.pair((service.check(request()).body as any).activation.code)!;
        assert.ok(hasToken(service.check(request()).body, device.token));
        assert.ok(hasToken(service.check(request()).body, device.token), 'a lost answer: the next check gets it again');
        book.usedToken(device.id, fixture.device.uuid);
        const body = service.check(request()).body as any;
        assert.ok(!hasToken(body, device.token));
        if (transport === 'websocket') assert.deepEqual(Object.keys(body.websocket), ['url'], 'no token key: the stored token stays');
        else assert.ok(!('password' in body.mqtt) && body.mqtt.client_id.endsWith(fixture.device.uuid));
        assert.equal(typeof saved.at(-1)!.paired[0].tokenUsedAt, 'number', 'kept across restarts');
      }
    });

    it('a pairing made before the binding (no Client-Id) never sends its token again and is bound by its first WebSocket connection', () => {
      const saved: PairingData[] = [{ paired: [{ id: 'd8:3b:da:4e:21:7c', token: 'old-token-0123456789abcdef0123', pairedAt: 1 }] }];
      const book = new PairingBook({ load: () => saved.at(-1), save: (d) => saved.push(structuredClone(d)) });
      const service = new OtaService({ transport: 'websocket', path: '/xiaozhi/v1/', name: 'Node-RED Home', pairing: book });
      const body = service.check(request()).body as any;
      assert.deepEqual(Object.keys(body.websocket), ['url']);
      assert.equal(book.tokenDelivery('d8:3b:da:4e:21:7c', ATTACKER['client-id']), 'withhold');
      book.usedToken('d8:3b:da:4e:21:7c', fixture.device.uuid);
      assert.equal(book.boundClientId('d8:3b:da:4e:21:7c'), fixture.device.uuid);
      assert.equal(service.check(request({}, ATTACKER)).status, 403, 'from then on bound');
    });

    it(`one address may name only ${MACS_PER_SOURCE_PER_MINUTE} different MACs a minute (checks and polls alike), so paired MACs cannot be found by trying`, () => {
      const { service, book, advance } = setup();
      book.pair((service.check(request({ remoteAddress: '192.168.1.10' })).body as any).activation.code);
      const mac = (i: number) => `02:00:00:00:01:${i.toString(16).padStart(2, '0')}`;
      const statuses = Array.from({ length: MACS_PER_SOURCE_PER_MINUTE + 2 }, (_, i) =>
        i % 2
          ? service.activate(request({ remoteAddress: '10.9.9.9' }, { 'device-id': mac(i), ...ATTACKER })).status
          : service.check(request({ remoteAddress: '10.9.9.9', body: '{}' }, { 'device-id': mac(i), ...ATTACKER })).status,
      );
      assert.deepEqual(statuses.slice(MACS_PER_SOURCE_PER_MINUTE), [429, 429]);
      assert.equal(service.check(request({ remoteAddress: '10.9.9.9' }, ATTACKER)).status, 429, 'the paired MAC too: no answer that tells');
      for (let i = 0; i < 30; i++)
        assert.equal(service.check(request({ remoteAddress: '192.168.1.10' })).status, 200, 'a device checking its own MAC again and again');
      advance(60_001);
      assert.equal(service.check(request({ remoteAddress: '10.9.9.9', body: '{}' }, { 'device-id': mac(99) })).status, 200, 'a minute later');
    });

    it('125 fake MACs from 25 addresses cannot push a waiting device out: the fullest source loses its own entries', () => {
      const { service, book } = setup();
      const real = (service.check(request({ remoteAddress: '192.168.1.50' })).body as any).activation.code;
      for (let s = 0; s < 25; s++)
        for (let i = 0; i < 5; i++)
          service.check(
            request(
              { remoteAddress: `10.1.0.${s}`, body: '{}' },
              { 'device-id': `02:00:00:01:${s.toString(16).padStart(2, '0')}:${i.toString(16).padStart(2, '0')}` },
            ),
          );
      assert.equal(book.list().waiting.length, 100);
      assert.ok(book.list().waiting.some((w) => w.code === real));
      assert.ok(book.pair(real), 'its right code still pairs it');
    });

    it("the facts shown come from the check that got the code, bounded; a stranger's check gets a code of its own", () => {
      const { service, book } = setup();
      const code = (service.check(request()).body as any).activation.code;
      const huge = (fixture.request.body_raw as string).replace('"version":"2.4.2"', `"version":"${'9'.repeat(60_000)}"`);
      const strangers = service.check(request({ remoteAddress: '10.2.2.2', body: huge }, { ...ATTACKER, 'user-agent': `x/${'9'.repeat(60_000)}` }));
      assert.notEqual((strangers.body as any).activation.code, code);
      service.check(request({ body: huge }));
      const list = book.list().waiting;
      const own = list.find((w) => w.code === code)!;
      assert.equal(own.version, '2.4.2', 'unchanged by a later check');
      assert.ok(list.every((w) => (w.version ?? '').length <= 32 && (w.board ?? '').length <= 64));
      const paired = book.pair(code)!;
      assert.equal(paired.clientId, fixture.device.uuid);
      assert.equal(book.list().waiting.length, 0, "the stranger's code for that MAC is gone with the pairing");
    });
  });
});
