// The PROXY protocol header the mqtt-gateway reads behind a TCP balancer, on real sockets: the
// headers are the examples of HAProxy's protocol document (proxy-protocol.txt), sent in pieces as
// TCP may deliver them, followed by the first bytes of an MQTT CONNECT that must reach the broker.
import { strict as assert } from 'node:assert';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { readProxyHeader } from '../../src/esp32/carriage/proxy-header';
import type { MqttGatewayListener } from '../../src/esp32/carriage/mqtt-gateway-listener';
import { DEVICE_TOKEN, startListener } from './helpers';

const CONNECT_START = Buffer.from([0x10, 0x2a, 0x00, 0x04, 0x4d, 0x51, 0x54, 0x54]); // CONNECT, "MQTT"

/** A loopback server: sends `pieces` from a client, returns what readProxyHeader makes of it and what the socket reads next. */
async function receive(pieces: Buffer[]): Promise<{ address?: string; error?: string; next: Buffer }> {
  let server: Server | undefined;
  const accepted = new Promise<Socket>((resolve) => {
    server = createServer(resolve);
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const client = connect((server!.address() as { port: number }).port, '127.0.0.1');
  await new Promise((r) => client.once('connect', r));
  const socket = await accepted;
  const reading: Promise<{ address?: string; error?: string }> = readProxyHeader(socket, 2000).then(
    (address) => ({ address }),
    (err: Error) => ({ error: err.message }),
  );
  for (const piece of pieces) {
    client.write(piece);
    await new Promise((r) => setTimeout(r, 20));
  }
  const header = await reading;
  const next = await new Promise<Buffer>((resolve) => {
    if (socket.destroyed || header.error) return resolve(Buffer.alloc(0));
    socket.once('data', resolve);
    socket.resume();
    setTimeout(() => resolve(Buffer.alloc(0)), 300);
  });
  client.destroy();
  socket.destroy();
  await new Promise((r) => server!.close(r));
  return { ...header, next };
}

describe('esp32 gateway: PROXY protocol header', () => {
  it('v1 (nginx proxy_protocol), split over three reads: the client address, and the MQTT bytes after it go on', async () => {
    const v1 = Buffer.from('PROXY TCP4 192.168.0.1 192.168.0.11 56324 443\r\n');
    const r = await receive([v1.subarray(0, 9), v1.subarray(9, 30), Buffer.concat([v1.subarray(30), CONNECT_START])]);
    assert.equal(r.address, '192.168.0.1');
    assert.deepEqual(r.next, CONNECT_START);
  });

  it('v2 (HAProxy send-proxy-v2), IPv4 over TCP: the client address', async () => {
    const v2 = Buffer.concat([
      Buffer.from('0d0a0d0a000d0a515549540a', 'hex'), // signature
      Buffer.from([0x21, 0x11, 0x00, 0x0c]), // v2 PROXY, TCP over IPv4, 12 address bytes
      Buffer.from([10, 0, 0, 7, 192, 168, 1, 2]), // source 10.0.0.7, destination 192.168.1.2
      Buffer.from([0xdc, 0x05, 0x07, 0x5c]), // ports 56325 → 1884
    ]);
    const r = await receive([v2.subarray(0, 14), Buffer.concat([v2.subarray(14), CONNECT_START])]);
    assert.equal(r.address, '10.0.0.7');
    assert.deepEqual(r.next, CONNECT_START);
  });

  it('v1 UNKNOWN (the balancer could not tell): the connection’s own peer', async () => {
    const r = await receive([Buffer.concat([Buffer.from('PROXY UNKNOWN\r\n'), CONNECT_START])]);
    assert.equal(r.address, '127.0.0.1');
    assert.deepEqual(r.next, CONNECT_START);
  });

  it('a device connecting directly (MQTT first, no header) is refused with a reason naming the balancer setting', async () => {
    const r = await receive([CONNECT_START]);
    assert.equal(r.address, undefined);
    assert.match(r.error!, /did not start with a PROXY protocol header/);
  });

  it('a header that never ends, or garbage in it, is refused', async () => {
    const long = await receive([Buffer.from(`PROXY TCP4 ${'1'.repeat(120)}`)]);
    assert.match(long.error!, /longer than 107 bytes/);
    const bad = await receive([Buffer.from('PROXY TCP4 not-an-address 1.2.3.4 1 2\r\n')]);
    assert.match(bad.error!, /bad PROXY protocol header/);
  });
});

describe('esp32 gateway: a PROXY header is believed only from a listed balancer', () => {
  /** A gateway device dialling from `from` (a loopback alias), with a v1 header claiming 8.8.8.8 first. */
  async function claimFrom(port: number, from: string): Promise<'connected' | 'refused'> {
    const header = Buffer.from(`PROXY TCP4 8.8.8.8 127.0.0.1 40000 ${port}\r\n`);
    const socket = connect({ host: '127.0.0.1', port, localAddress: from });
    socket.on('error', () => undefined); // a refused connection is closed under our writes (EPIPE)
    await new Promise((r) => socket.once('connect', r));
    socket.write(header);
    const closed = new Promise<'refused'>((r) => socket.once('close', () => r('refused')));
    socket.write(CONNECT_START);
    const outcome = await Promise.race([closed, new Promise<'connected'>((r) => setTimeout(() => r('connected'), 400))]);
    socket.destroy();
    return outcome;
  }

  it('a direct client cannot claim another address; the listed balancer can; blank means this machine only', async () => {
    const { shared, listener } = await startListener({
      transport: 'mqtt-gateway',
      bind: '127.0.0.1',
      port: 0,
      tokens: [DEVICE_TOKEN],
      proxyProtocol: true,
      balancers: ['127.0.0.2'],
    });
    try {
      const port = (listener as MqttGatewayListener).port!;
      assert.equal(await claimFrom(port, '127.0.0.1'), 'refused', 'not a listed balancer: closed before its header is read');
      assert.equal(await claimFrom(port, '127.0.0.2'), 'connected', 'the balancer: its header is read and the MQTT bytes go on');
    } finally {
      await shared.close();
    }
    const loopbackOnly = await startListener({ transport: 'mqtt-gateway', bind: '127.0.0.1', port: 0, tokens: [DEVICE_TOKEN], proxyProtocol: true });
    try {
      const port = (loopbackOnly.listener as MqttGatewayListener).port!;
      assert.equal(await claimFrom(port, '127.0.0.3'), 'connected');
    } finally {
      await loopbackOnly.shared.close();
    }
  });
});
