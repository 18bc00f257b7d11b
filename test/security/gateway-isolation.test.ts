// The mqtt-gateway keeps devices apart (second attack round): a device that subscribes to `#`
// receives nothing of another device's MCP traffic, a device publishing to another's topic does not
// reach it, and nothing is retained or queued for later (a device that leaves leaves nothing).
import assert from 'node:assert/strict';
import type { MqttGatewayListener } from '../../src/esp32/carriage/mqtt-gateway-listener';
import { lichuangDev, ottoRobot, XiaozhiMqttDevice } from '../peers/xiaozhi-device';
import { DEVICE_TOKEN, LICHUANG_ID, OTTO_ID, startListener, waitForEvent } from '../esp32/helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('security: mqtt-gateway devices cannot reach each other', function () {
  this.timeout(20_000);

  it('subscribing to # yields nothing of another device; publishing to its topic does not reach it; nothing is retained', async () => {
    const { shared, listener, events } = await startListener({ transport: 'mqtt-gateway', bind: '127.0.0.1', port: 0, tokens: [DEVICE_TOKEN] });
    const brokerUrl = `mqtt://127.0.0.1:${(listener as MqttGatewayListener).port}`;
    const victim = await XiaozhiMqttDevice.connect({ brokerUrl, deviceId: OTTO_ID, mode: 'stock', fixture: ottoRobot(), password: DEVICE_TOKEN });
    // The intruder is a device of the same listener, with a valid token, that tries more than stock firmware does.
    const intruderDevice = await XiaozhiMqttDevice.connect({ brokerUrl, deviceId: LICHUANG_ID, mode: 'stock', fixture: lichuangDev(), password: DEVICE_TOKEN });
    const intruder = intruderDevice.client;
    intruder.on('error', () => undefined);
    const overheard: string[] = [];
    intruder.on('message', (topic) => overheard.push(topic));
    try {
      // SUBACK 0x80 for both: mqtt.js rejects the subscription.
      await assert.rejects(intruder.subscribeAsync(['#', `devices/p2p/${OTTO_ID.replace(/:/g, '_')}`], { qos: 1 }), /Subscribe error/);
      // The victim's handshake (initialize, tools/list pages) and a call happen after the intruder subscribed.
      await waitForEvent(listener, events, (e) => e.topic === 'tools' && e.device.id === OTTO_ID);
      await sleep(200);
      // The gateway talks MCP with the intruder too, on its own topic: anything else would be overheard.
      const own = `devices/p2p/${LICHUANG_ID.replace(/:/g, '_')}`;
      assert.deepEqual(
        overheard.filter((t) => t !== own),
        [],
        "the intruder overheard nothing of the victim's traffic",
      );

      const before = victim.fromServer.length;
      const forged = JSON.stringify({
        session_id: 'x',
        type: 'mcp',
        payload: { jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'self.otto.stop', arguments: {} } },
      });
      intruder.publish(`devices/p2p/${OTTO_ID.replace(/:/g, '_')}`, forged, { retain: true });
      await sleep(300);
      assert.equal(
        victim.fromServer.slice(before).filter((m) => JSON.stringify(m.frame).includes('"id":99')).length,
        0,
        'the forged call never reached the victim',
      );

      const broker = (listener as unknown as { broker: { persistence: { createRetainedStream(p: string): AsyncIterable<unknown> } } }).broker;
      const retained: unknown[] = [];
      for await (const packet of broker.persistence.createRetainedStream('#')) retained.push(packet);
      assert.deepEqual(retained, [], 'nothing retained');
    } finally {
      await intruderDevice.end();
      await victim.end();
      await shared.close();
    }
  });
});
