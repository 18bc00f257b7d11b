// A xiaozhi device on MQTT (firmware 2.4.2 MqttProtocol): client id GID_<group>@@@<mac_>@@@<uuid>,
// protocol 3.1.1, QoS 0 publishes to `device-server`, MCP answered whether or not an audio channel
// is open (session_id "" before any hello). "stock" mode never subscribes, as real firmware since
// January 2025, so only a gateway writing to its connection reaches it; "subscribing" mode is a
// modified device that subscribes to devices/p2p/<mac_> for use with a plain broker.
import { randomUUID } from 'node:crypto';
import { createConnection } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { FirmwareMcpServer, type FirmwareOptions } from './firmware-mcp';
import type { DeviceFixture } from './fixtures';

export interface MqttDeviceOptions {
  brokerUrl: string;
  deviceId: string;
  mode: 'stock' | 'subscribing';
  fixture: DeviceFixture;
  firmware?: FirmwareOptions;
  publishTopic?: string;
  subscribeTopic?: string;
  password?: string;
  /** The device's own IP (a loopback alias such as 127.0.0.5): its MQTT connection and UDP audio come from it. */
  localAddress?: string;
  /** As the OTA check's `mqtt` section gave them: the firmware sends exactly these. */
  clientId?: string;
  username?: string;
}

export class XiaozhiMqttDevice {
  readonly firmware: FirmwareMcpServer;
  readonly fromServer: Array<{ topic: string; frame: any }> = [];
  sessionId = '';
  readonly publishTopic: string;
  private constructor(
    readonly client: MqttClient,
    readonly opts: MqttDeviceOptions,
  ) {
    this.firmware = new FirmwareMcpServer(opts.fixture, opts.firmware);
    this.publishTopic = opts.publishTopic ?? 'device-server';
    client.on('message', (topic, payload) => this.onMessage(topic, payload.toString()));
  }

  static async connect(opts: MqttDeviceOptions): Promise<XiaozhiMqttDevice> {
    const mac_ = opts.deviceId.replace(/:/g, '_');
    const options: mqtt.IClientOptions = {
      clientId: opts.clientId ?? `GID_test@@@${mac_}@@@${randomUUID()}`,
      protocolVersion: 4,
      keepalive: 240,
      clean: true,
      reconnectPeriod: 0,
      username: opts.username ?? Buffer.from(JSON.stringify({ ip: opts.localAddress ?? '127.0.0.1' })).toString('base64'),
      password: opts.password,
    };
    const broker = new URL(opts.brokerUrl);
    const client = opts.localAddress
      ? new mqtt.MqttClient(() => createConnection({ host: broker.hostname, port: Number(broker.port || 1883), localAddress: opts.localAddress }), options)
      : mqtt.connect(opts.brokerUrl, options);
    // Listen for messages before CONNACK is even processed: the gateway starts MCP right away.
    const device = new XiaozhiMqttDevice(client, opts);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
      client.once('close', () => reject(new Error('MQTT connection closed')));
    });
    if (opts.mode === 'subscribing') {
      await client.subscribeAsync(opts.subscribeTopic ?? `devices/p2p/${mac_}`, { qos: 0 });
    }
    return device;
  }

  /** MqttProtocol::GetHelloMessage on wake-up (audio would go over UDP). */
  sendHello(): void {
    this.publish(
      '{"type":"hello","version":3,"transport":"udp","features":{"mcp":true,"glyph_push":true},"text_font":{"bundle":"noto-v1","charset":"common","size":16,"bpp":4},"audio_params":{"format":"opus","sample_rate":16000,"channels":1,"frame_duration":60}}',
    );
  }

  sendGoodbye(): void {
    this.publish(`{"session_id":"${this.sessionId}","type":"goodbye"}`);
  }

  publish(text: string): void {
    this.client.publish(this.publishTopic, text, { qos: 0 });
  }

  async end(): Promise<void> {
    await this.client.endAsync(true);
  }

  private onMessage(topic: string, text: string): void {
    let frame: any;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    this.fromServer.push({ topic, frame });
    if (frame.type === 'mcp' && frame.payload && typeof frame.payload === 'object') {
      this.firmware.handle(frame.payload, (reply) => this.publish(`{"session_id":"${this.sessionId}","type":"mcp","payload":${reply}}`));
    } else if (frame.type === 'goodbye' && frame.session_id === this.sessionId) {
      this.sessionId = '';
    }
  }
}
