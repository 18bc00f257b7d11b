// A lichuang-dev device with its voice, dialling the mqtt-gateway of the esp32-listener `lst` that
// a spec loaded into the test runtime (node-red-node-test-helper): the gateway's port is read from
// the running listener, and what is opened goes on the spec's `closers`.
import { helper } from '../helpers/runtime';
import { waitFor } from '../helpers/wait';
import { DeviceVoice, lichuangDev, XiaozhiMqttDevice } from '../peers/xiaozhi-device';

export async function gatewayVoice(deviceId: string, closers: Array<() => unknown>): Promise<DeviceVoice & { udp: { close(): void } }> {
  const listener = await waitFor(() => helper.getNode('lst').devices.listener, 'the gateway to listen');
  const device = await XiaozhiMqttDevice.connect({ brokerUrl: `mqtt://127.0.0.1:${listener.port}`, deviceId, mode: 'stock', fixture: lichuangDev() });
  closers.push(() => device.end());
  const voice = await DeviceVoice.overMqtt(device);
  closers.push(() => voice.udp.close());
  return voice;
}
