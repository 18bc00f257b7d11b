// The mqtt-gateway bounds connections that have not sent CONNECT (second attack round, finding 8):
// at most 8 per source address and 64 per listener wait at once, each for 10 s at most, so a flood
// of idle sockets cannot use up Node-RED's file descriptors; a device from another address joins,
// and the refusals are logged a line per kind per 10 s, the rest counted.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { MqttGatewayListener } from '../../src/esp32/carriage/mqtt-gateway-listener';
import { MAX_PENDING_CONNECTIONS, MAX_PENDING_PER_SOURCE } from '../../src/esp32/carriage/pending-connections';
import { ottoRobot, XiaozhiMqttDevice } from '../peers/xiaozhi-device';
import { DEVICE_TOKEN, OTTO_ID, startListener, waitForEvent } from '../esp32/helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens `count` TCP connections from `localAddress` that never send a byte; resolves when all are connected. */
async function idleSockets(port: number, count: number, localAddress = '127.0.0.1'): Promise<Socket[]> {
  return Promise.all(
    Array.from({ length: count }, () => {
      const socket = connect({ host: '127.0.0.1', port, localAddress });
      socket.on('error', () => undefined);
      return new Promise<Socket>((resolve) => socket.once('connect', () => resolve(socket)));
    }),
  );
}

const stillOpen = (sockets: Socket[]) => sockets.filter((s) => !s.destroyed && !s.readableEnded).length;

describe('security: mqtt-gateway connections before CONNECT are bounded', function () {
  this.timeout(20_000);
  const sockets: Socket[] = [];
  afterEach(() => sockets.splice(0).forEach((s) => s.destroy()));

  it('keeps 8 idle connections per source and 64 in all; a device from another address joins meanwhile', async () => {
    const warnings: string[] = [];
    const { shared, listener, events } = await startListener(
      { transport: 'mqtt-gateway', bind: '127.0.0.1', port: 0, tokens: [DEVICE_TOKEN] },
      { log: { debug: () => undefined, warn: (m) => warnings.push(m) } },
    );
    const port = (listener as MqttGatewayListener).port!;
    try {
      const flood = await idleSockets(port, 40);
      sockets.push(...flood);
      await sleep(300);
      assert.equal(stillOpen(flood), MAX_PENDING_PER_SOURCE, 'one source keeps its share of waiting connections');
      // A device from another address joins while the flood waits.
      const device = await XiaozhiMqttDevice.connect({
        brokerUrl: `mqtt://127.0.0.1:${port}`,
        deviceId: OTTO_ID,
        mode: 'stock',
        fixture: ottoRobot(),
        password: DEVICE_TOKEN,
        localAddress: '127.0.0.20',
      });
      try {
        await waitForEvent(listener, events, (e) => e.topic === 'tools' && e.device.id === OTTO_ID);
      } finally {
        await device.end();
      }
      // Ten more sources, each past its share: the listener keeps 64 waiting in all.
      for (let i = 2; i <= 11; i++) sockets.push(...(await idleSockets(port, MAX_PENDING_PER_SOURCE + 2, `127.0.0.${i}`)));
      await sleep(300);
      assert.equal(stillOpen(sockets), MAX_PENDING_CONNECTIONS);
      const refusals = warnings.filter((w) => /waiting for CONNECT/.test(w));
      assert.equal(refusals.length, 1, `refusals are logged once per 10 s: ${refusals.join(' | ')}`);
      await shared.close();
      assert.ok(
        warnings.some((w) => /\d+ more like "too many waiting"/.test(w)),
        `the held-back refusals are counted: ${warnings.join(' | ')}`,
      );
    } finally {
      await shared.close();
    }
  });

  it('closes a connection that sends no CONNECT within the deadline', async () => {
    const { shared, listener } = await startListener(
      { transport: 'mqtt-gateway', bind: '127.0.0.1', port: 0, tokens: [DEVICE_TOKEN] },
      { connectDeadlineMs: 300 },
    );
    try {
      const [idle] = await idleSockets((listener as MqttGatewayListener).port!, 1);
      sockets.push(idle);
      const closed = new Promise((resolve) => idle.once('close', resolve));
      // Without the deadline aedes waits 30 s, longer than this spec's timeout.
      await closed;
    } finally {
      await shared.close();
    }
  });
});
