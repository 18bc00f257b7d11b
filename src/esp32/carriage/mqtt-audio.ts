// The audio side of the MQTT transports: a device's `hello` with `transport:"udp"` (sent on every
// wake-up) opens a UDP channel through the voice seam, and the answer carries `udp {server, port,
// key, nonce}` for it; `goodbye` or the device's disconnect ends it. Every other JSON message of the
// device (listen, abort) goes to its channel. Keyed by connection, so a reconnect is a new channel.
import { randomUUID } from 'node:crypto';
import { parseDeviceFrame } from '../devices/frame-parser';
import type { AudioChannel, AudioChannels } from '../listener';
import type { Logger } from '../devices/device-session';

export interface MqttAudioPeer {
  deviceId: string;
  /** publishes a JSON message to the device */
  send(message: Record<string, unknown>): void;
  /** the address the device reached us at (our end of its connection) */
  localAddress?: string;
  /** the device's IP: the only source UDP audio is accepted from */
  remoteAddress?: string;
}

export class MqttAudioRouter<K> {
  private readonly channels = new Map<K, Promise<AudioChannel | undefined>>();

  constructor(
    private readonly audio: AudioChannels,
    private readonly log?: Logger,
    /** the `udpHost` setting: the address devices send UDP audio to, when set */
    private readonly udpHost?: string,
  ) {}

  /** One message the device published (after the MCP session has seen it). */
  handleText(key: K, peer: MqttAudioPeer, text: string): void {
    const frame = parseDeviceFrame(text);
    if (!frame) return;
    if (frame.type === 'hello' && frame.transport === 'udp') return this.open(key, peer, frame.audio_params);
    if (frame.type === 'goodbye') return this.close(key);
    void this.channels.get(key)?.then((ch) => ch?.handleJson(frame));
  }

  close(key: K): void {
    const channel = this.channels.get(key);
    this.channels.delete(key);
    void channel?.then((ch) => ch?.close());
  }

  closeAll(): void {
    for (const key of [...this.channels.keys()]) this.close(key);
  }

  private open(key: K, peer: MqttAudioPeer, audioParams: unknown): void {
    this.close(key); // one conversation per wake-up: a new hello replaces the old channel
    const sessionId = randomUUID();
    const device = {
      id: peer.deviceId,
      transport: 'mqtt',
      sessionId,
      audioParams: audioParams && typeof audioParams === 'object' ? (audioParams as Record<string, unknown>) : undefined,
    };
    const host = this.udpHost || plainAddress(peer.localAddress) || '127.0.0.1';
    const opening = this.audio.openUdp(device, host, peer.send, peer.remoteAddress).then(
      (channel) => {
        if (this.channels.get(key) !== opening) {
          channel.close(); // the device left (or said hello again) while the socket was opening
          return undefined;
        }
        peer.send({ type: 'hello', transport: 'udp', session_id: sessionId, ...channel.hello });
        return channel;
      },
      (err: Error) => {
        this.log?.warn(`esp32 ${peer.deviceId}: could not open the UDP audio channel: ${err.message}`);
        return undefined;
      },
    );
    this.channels.set(key, opening);
  }
}

function plainAddress(address: string | undefined): string {
  return (address ?? '').replace(/^::ffff:/, '');
}
