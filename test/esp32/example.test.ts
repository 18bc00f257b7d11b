// The importable example flow runs as shipped: the device's tools are listed and its volume is set
// from the inject nodes (debug nodes swapped for helper nodes so the test can see the results).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { helper, load, nextMessage, startRuntime, stopRuntime, type FlowNode, fromRuntime } from '../helpers/runtime';
import { ottoRobot, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { DEVICE_TOKEN, OTTO_ID } from './helpers';

const extraNodes = [
  require('../../nodes/esp32-listener/index.ts'),
  require('../../nodes/esp32-mcp-in/index.ts'),
  require(fromRuntime('@node-red/nodes/core/common/20-inject.js')),
  require(fromRuntime('@node-red/nodes/core/common/90-comment.js')),
];

describe('example flow: esp32-device-tools.json', function () {
  this.timeout(30000);
  before(startRuntime);
  after(stopRuntime);

  it('lists the device tools and sets the volume from the inject nodes', async () => {
    const flow = JSON.parse(readFileSync(join(__dirname, '../../examples/esp32-device-tools.json'), 'utf8')) as FlowNode[];
    const nodes = flow.map((n) => (n.type === 'debug' ? { id: n.id, z: n.z, type: 'helper' } : n));
    assert.ok(flow.some((n) => n.type === 'comment' && String(n.info).includes('self.audio_speaker.set_volume')));
    // the user's step from the comment: the device's token in the listener
    await load(nodes, { 'esp32.listener': { tokens: DEVICE_TOKEN } }, extraNodes);
    const ready = new Promise<void>((resolve) => helper.getNode('esp32.events').on('input', (m: any) => m.topic === 'tools' && resolve()));
    const device = await XiaozhiWsDevice.connect({
      url: helper.url().replace('http', 'ws') + '/xiaozhi/v1/',
      deviceId: OTTO_ID,
      token: DEVICE_TOKEN,
      fixture: ottoRobot(),
    });
    try {
      await ready;
      const tools = nextMessage('esp32.tools');
      helper.getNode('esp32.listInject').receive({});
      const listed = await tools;
      assert.equal(listed.payload.length, 13);
      assert.ok(listed.payload.some((t: any) => t.name === 'self.audio_speaker.set_volume'));

      const result = nextMessage('esp32.result');
      helper.getNode('esp32.volumeInject').receive({});
      const done = await result;
      assert.equal(done.mcp.tool, 'self.audio_speaker.set_volume');
      assert.equal(device.firmware.state.volume, 30);
    } finally {
      device.close();
      await helper.unload();
    }
  });
});
