// What the voice benches (bench/voice.ts, bench/assist.ts) share: the esp32-listener's WebSocket
// device listener with a voice hub on its audio seam (loopback, any free port, anonymous devices),
// and one push-to-talk turn of a simulated device timed from its end of speech.
import { VoiceHub, type VoiceHubOptions } from '../src/voice/voice-hub';
import { WebSocketDeviceListener } from '../src/esp32/carriage/ws-listener';
import { lichuangDev, XiaozhiWsDevice, DeviceVoice } from '../test/peers/xiaozhi-device';

/** The esp32-listener's WebSocket listener on a port of its own, with a voice hub on its audio seam. */
export async function startVoiceListener(options: (hub: () => VoiceHub) => VoiceHubOptions): Promise<{ url: string; close(): Promise<void> }> {
  const hub: VoiceHub = new VoiceHub(options(() => hub));
  const listener = new WebSocketDeviceListener(
    {
      transport: 'websocket',
      port: 0,
      bind: '127.0.0.1',
      anonymous: true,
      path: '/xiaozhi/v1/',
      requestTimeoutMs: 10_000,
    },
    { audio: hub },
  );
  await listener.start();
  return {
    url: `ws://127.0.0.1:${listener.port}/xiaozhi/v1/`,
    async close() {
      await hub.close();
      await listener.close();
    },
  };
}

/** One push-to-talk turn on a fresh connection: end of speech → the first answer frame, in ms. */
export async function pushToTalk(url: string, deviceId: string): Promise<{ latency: number; report: DeviceVoice['speaker']['report'] }> {
  const device = await XiaozhiWsDevice.connect({ url, deviceId, fixture: lichuangDev() });
  const voice = await DeviceVoice.overWebSocket(device);
  const first = new Promise<number>((r) => voice.speaker.once('first-audio', r));
  const stopped = voice.speaker.nextStop();
  await voice.say({ mode: 'manual', realTime: true });
  const latency = (await first) - voice.endOfSpeechAt!;
  await stopped;
  device.close();
  return { latency, report: voice.speaker.report };
}
