// `mqtt` mode: the node is a client of an existing broker. Devices publish to `publishTopic` and
// must subscribe to their `deviceTopic` themselves (stock firmware does not: use `mqtt-gateway`
// for those). The firmware's frames do not say which device sent them, so a reply is matched to its
// device by its JSON-RPC id (ids are unique across this listener), a `{mac_}` in `publishTopic`
// names the device, and devices in the allow list are contacted on every broker connect (MCP
// works while a device is idle). Devices authenticate to the broker here (its users and ACLs), so
// the listener's tokens do not apply to this transport.
import mqtt, { type MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import { DeviceRegistry } from '../devices/device-registry';
import { DeviceSession } from '../devices/device-session';
import { deviceTopicFor, normalizeDeviceId, topicMatcher } from '../devices/device-id';
import { parseDeviceFrame } from '../devices/frame-parser';
import { IdAllocator } from '../devices/rpc-client';
import {
  DEFAULT_DEVICE_TOPIC,
  DEFAULT_PUBLISH_TOPIC,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type Esp32Listener,
  type Esp32ListenerSettings,
  type ListenerRuntime,
} from '../listener';

export class MqttClientListener implements Esp32Listener {
  readonly transport = 'mqtt' as const;
  readonly registry = new DeviceRegistry();
  private readonly ids = new IdAllocator();
  private client?: MqttClient;
  private readonly fromDevice: ReturnType<typeof topicMatcher>;
  private readonly deviceTopic: string;
  private readonly allow: string[];
  private closing = false;
  private everConnected = false;

  constructor(
    private readonly settings: Esp32ListenerSettings,
    private readonly runtime: ListenerRuntime = {},
  ) {
    this.fromDevice = topicMatcher(settings.publishTopic || DEFAULT_PUBLISH_TOPIC);
    this.deviceTopic = settings.deviceTopic || DEFAULT_DEVICE_TOPIC;
    this.allow = (settings.allow ?? []).map(normalizeDeviceId);
  }

  brokerState(): 'connecting' | 'connected' | 'offline' {
    if (this.client?.connected) return 'connected';
    return this.everConnected ? 'offline' : 'connecting';
  }

  async start(): Promise<void> {
    if (!this.settings.broker) throw new Error('esp32-listener: the mqtt transport needs a broker URL');
    const client = mqtt.connect(this.settings.broker, {
      username: this.settings.username || undefined,
      password: this.settings.password || undefined,
      clientId: 'nodered-esp32-' + randomBytes(4).toString('hex'),
      reconnectPeriod: 5000,
      connectTimeout: 10_000,
    });
    this.client = client;
    // Broker state changes show on the node's status like device changes do.
    const changed = () => this.registry.emit('change');
    client.on('offline', changed);
    client.on('close', changed);
    client.on('connect', () => {
      this.everConnected = true;
      changed();
      client.subscribe(this.fromDevice.subscription, { qos: 0 }, (err) => {
        if (err) this.runtime.log?.warn(`esp32 mqtt: subscribe failed: ${err.message}`);
        else this.probeAllowed();
      });
    });
    client.on('error', (err) => this.runtime.log?.warn(`esp32 mqtt: ${err.message}`));
    client.on('message', (topic, payload) => this.onMessage(topic, payload.toString()));
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const s of this.registry.list()) s.handleClosed();
    await this.client?.endAsync(true).catch(() => undefined);
  }

  private onMessage(topic: string, text: string): void {
    const named = this.fromDevice.match(topic);
    if (named === undefined) return;
    if (named) {
      if (this.allow.length && !this.allow.includes(named)) return;
      const session = this.registry.get(named) ?? this.open(named);
      session.handleText(text);
      return;
    }
    const frame = parseDeviceFrame(text);
    const id = (frame?.payload as { id?: unknown } | undefined)?.id;
    const owner = this.registry.list().find((s) => s.rpc.owns(id));
    if (owner) {
      owner.handleText(text);
    } else if (frame?.type === 'hello') {
      // A device woke up; one that was offline at our last probe is reachable again.
      this.probeAllowed();
    } else {
      this.runtime.log?.debug(`esp32 mqtt: dropped a frame on ${topic} that names no device (put {mac_} in the device→server topic)`);
    }
  }

  private probeAllowed(): void {
    for (const id of this.allow) {
      const s = this.registry.get(id);
      if (!s || s.state === 'failed' || s.state === 'closed') this.open(id);
    }
  }

  private open(deviceId: string): DeviceSession {
    const topic = deviceTopicFor(this.deviceTopic, deviceId);
    const session: DeviceSession = new DeviceSession({
      id: deviceId,
      transport: 'mqtt',
      ids: this.ids,
      requestTimeoutMs: this.settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      vision: this.settings.vision,
      log: this.runtime.log,
      link: {
        send: (text) => {
          if (!this.client?.connected) throw new Error('not connected to the MQTT broker');
          this.client.publish(topic, text, { qos: 0 });
        },
        close: () => session.handleClosed(),
      },
    });
    this.registry.add(session);
    session.start().catch(() => {
      // Not answering an allow-listed probe just means the device is offline right now.
      if (!session.announced && !this.closing) session.handleClosed();
    });
    return session;
  }
}
