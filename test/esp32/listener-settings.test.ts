// esp32-listener settings from flow JSON and credentials: defaults, the WebSocket port choice,
// tokens in any separator, `${VAR}` expansion, and bad values named in the error.
import assert from 'node:assert/strict';
import { parseListenerSettings } from '../../src/esp32/listener-settings';
import { recordLookup } from '../../src/env-expand';

describe('esp32 listener settings', () => {
  it("a bare websocket listener: Node-RED's own server, no tokens, not anonymous, voice off", () => {
    const s = parseListenerSettings({});
    assert.equal(s.transport, 'websocket');
    assert.equal(s.path, '/xiaozhi/v1/');
    assert.equal(s.port, undefined);
    assert.deepEqual(s.tokens, []);
    assert.equal(s.anonymous, false);
    assert.equal(s.voice, 'off');
  });

  it('websocket with a port gets a server of its own; the gateway defaults to 1884', () => {
    assert.equal(parseListenerSettings({ port: '8082', bind: '127.0.0.1' }).port, 8082);
    assert.equal(parseListenerSettings({ port: 8082 }).bind, '0.0.0.0');
    assert.equal(parseListenerSettings({ transport: 'mqtt-gateway', port: '' }).port, 1884);
  });

  it('tokens split on newlines, spaces and commas; ${VAR} expands in settings and credentials', () => {
    const env = { DEVICE_TOKEN: 'from-env', XZ_PATH: '/xz/' };
    const s = parseListenerSettings(
      { path: '${XZ_PATH}', anonymous: 'true', allow: 'D8-3B-DA-4E-21-7C\n' },
      { tokens: 'a\nb, c ${DEVICE_TOKEN}' },
      recordLookup(env),
    );
    assert.deepEqual(s.tokens, ['a', 'b', 'c', 'from-env']);
    assert.equal(s.path, '/xz/');
    assert.equal(s.anonymous, true);
    assert.deepEqual(s.allow, ['d8:3b:da:4e:21:7c']);
  });

  it('bad values are refused with the setting named', () => {
    assert.throws(() => parseListenerSettings({ transport: 'bluetooth' }), /transport must be one of websocket, mqtt, mqtt-gateway/);
    assert.throws(() => parseListenerSettings({ transport: 'mqtt' }), /needs a broker URL/);
    assert.throws(() => parseListenerSettings({ port: '70000' }), /port must be a number/);
    assert.throws(() => parseListenerSettings({ voice: 'loud' }), /voice must be one of off, flow, live/);
  });

  it('behind a TCP balancer: udpHost (with ${VAR}) and proxyProtocol are read for the gateway; an address with a scheme or port is refused', () => {
    const env = (name: string) => (name === 'NODE_RED_HOST_IP' ? '192.168.1.21' : undefined);
    const s = parseListenerSettings({ transport: 'mqtt-gateway', udpHost: '${NODE_RED_HOST_IP}', proxyProtocol: true }, {}, env);
    assert.equal(s.udpHost, '192.168.1.21');
    assert.equal(s.proxyProtocol, true);
    const plain = parseListenerSettings({ transport: 'mqtt-gateway' });
    assert.equal(plain.udpHost, undefined);
    assert.equal(plain.proxyProtocol, false);
    assert.throws(() => parseListenerSettings({ transport: 'mqtt-gateway', udpHost: 'udp://nodered-a' }), /UDP address must be a host name or IP address/);
    assert.throws(() => parseListenerSettings({ transport: 'mqtt-gateway', udpHost: 'nodered a' }), /UDP address/);
  });
});
