// One device listener shared by everything that uses it (the esp32-listener config node owns one):
// opened when its first user registers, closed when its last user deregisters, as core's
// mqtt-broker connects and disconnects. Opening and closing run one after the other, so a redeploy
// that removes the last user and adds a new one closes the old port before listening again.
// Emits `event` (every device event of the open listener) and `change` (its state or devices).
import { EventEmitter } from 'node:events';
import { errorMessage } from '../../errors';
import { DeviceGate, type PairedTokens } from '../devices/device-gate';
import type { DeviceEvent, DeviceEventTopic, DeviceInfo } from '../devices/device-session';
import type { Esp32Listener, Esp32ListenerSettings, ListenerRuntime } from '../listener';
import { MqttClientListener } from '../carriage/mqtt-client-listener';
import { MqttGatewayListener } from '../carriage/mqtt-gateway-listener';
import { WebSocketDeviceListener } from '../carriage/ws-listener';

/** Who may connect: a token, any device (anonymous), nobody (no token set), or the broker decides (mqtt). */
export type ListenerAccess = 'token' | 'anonymous' | 'nobody' | 'broker';

export type ListenerStatus =
  | { kind: 'idle' }
  | { kind: 'starting' }
  | { kind: 'failed'; reason: string }
  | { kind: 'broker'; state: 'connecting' | 'offline' }
  | { kind: 'listening'; devices: number; access: ListenerAccess };

/** What a tool provider needs of a listener: the open one (if any) and its changes. */
export interface DeviceSource {
  readonly name: string;
  readonly listener: Esp32Listener | undefined;
  status(): ListenerStatus;
  register(user: object): Promise<void>;
  deregister(user: object): Promise<void>;
  on(event: 'change', fn: () => void): unknown;
  off(event: 'change', fn: () => void): unknown;
}

export function createEsp32Listener(settings: Esp32ListenerSettings, runtime: ListenerRuntime = {}): Esp32Listener {
  switch (settings.transport) {
    case 'mqtt':
      return new MqttClientListener(settings, runtime);
    case 'mqtt-gateway':
      return new MqttGatewayListener(settings, runtime);
    default:
      return new WebSocketDeviceListener(settings, runtime);
  }
}

export class SharedDeviceListener extends EventEmitter implements DeviceSource {
  private readonly users = new Set<object>();
  private active?: Esp32Listener;
  private starting = false;
  private failure?: string;
  private queue: Promise<void> = Promise.resolve();
  private readonly forwardEvent = (e: DeviceEvent) => this.emit('event', e);
  private readonly forwardChange = () => this.emit('change');

  /** `settings` is the Error that made them unusable, reported as the status of every user. */
  constructor(
    readonly name: string,
    private readonly settings: Esp32ListenerSettings | Error,
    private readonly runtime: ListenerRuntime = {},
  ) {
    super();
    this.setMaxListeners(0);
  }

  /** The listener once it listens; undefined before the first user, while starting, or after a failure. */
  get listener(): Esp32Listener | undefined {
    return this.starting ? undefined : this.active;
  }

  get userCount(): number {
    return this.users.size;
  }

  /** Resolves once the listener has started (or failed to; see status()). */
  register(user: object): Promise<void> {
    if (!this.users.has(user)) {
      this.users.add(user);
      if (this.users.size === 1) this.queue = this.queue.then(() => this.open());
    }
    return this.queue;
  }

  /** Resolves once the listener has closed, when this was its last user. */
  deregister(user: object): Promise<void> {
    if (this.users.delete(user) && this.users.size === 0) this.queue = this.queue.then(() => this.shut());
    return this.queue;
  }

  /** The owner goes away: close whatever is open, users or not. */
  close(): Promise<void> {
    this.users.clear();
    this.queue = this.queue.then(() => this.shut());
    return this.queue;
  }

  /**
   * An event of a device's voice conversation (utterance, transcript, tool_call) to every user, with
   * the device as its MCP session describes it (the audio channel knows only its id).
   */
  publishVoiceEvent(
    topic: DeviceEventTopic,
    device: { id: string; sessionId?: string },
    payload: unknown,
    wakeWord?: string,
    fields?: Record<string, unknown>,
  ): void {
    const session = this.active?.registry.get(device.id);
    const transport = this.settings instanceof Error ? 'websocket' : this.settings.transport;
    const info: DeviceInfo = session?.info() ?? { id: device.id, sessionId: device.sessionId ?? '', transport };
    this.emit('event', { topic, device: info, payload, ...(wakeWord ? { wakeWord } : {}), ...(fields ? { fields } : {}) } satisfies DeviceEvent);
  }

  status(): ListenerStatus {
    if (this.settings instanceof Error) return { kind: 'failed', reason: this.settings.message };
    if (this.failure) return { kind: 'failed', reason: this.failure };
    if (this.starting) return { kind: 'starting' };
    const listener = this.active;
    if (!listener) return { kind: 'idle' };
    const broker = listener.brokerState?.();
    if (broker && broker !== 'connected') return { kind: 'broker', state: broker };
    return { kind: 'listening', devices: listener.registry.size, access: accessOf(this.settings, this.runtime.pairing) };
  }

  private async open(): Promise<void> {
    if (this.users.size === 0 || this.active) return;
    if (this.settings instanceof Error) {
      this.emit('change');
      return;
    }
    this.failure = undefined;
    let listener: Esp32Listener | undefined;
    try {
      listener = createEsp32Listener(this.settings, this.runtime);
      this.active = listener;
      this.starting = true;
      listener.registry.on('event', this.forwardEvent);
      listener.registry.on('change', this.forwardChange);
      this.emit('change');
      await listener.start();
    } catch (err) {
      this.failure = errorMessage(err);
      this.runtime.log?.warn(`esp32-listener ${this.name}: could not start listening: ${this.failure}`);
      if (listener) await this.release(listener);
    } finally {
      this.starting = false;
      this.emit('change');
    }
  }

  private async shut(): Promise<void> {
    if (this.users.size > 0) return; // a user registered again while this waited its turn
    this.failure = undefined;
    const listener = this.active;
    if (listener) await this.release(listener);
    this.emit('change');
  }

  private async release(listener: Esp32Listener): Promise<void> {
    listener.registry.off('event', this.forwardEvent);
    listener.registry.off('change', this.forwardChange);
    if (this.active === listener) this.active = undefined;
    await this.runtime.audio?.release().catch(() => undefined);
    await listener.close().catch((err: unknown) => this.runtime.log?.warn(`esp32-listener ${this.name}: ${errorMessage(err)}`));
  }
}

function accessOf(settings: Esp32ListenerSettings, pairing?: PairedTokens): ListenerAccess {
  if (settings.transport === 'mqtt') return 'broker';
  const gate = new DeviceGate(settings, pairing);
  if (gate.openToAnyDevice) return 'anonymous';
  return gate.refusesEveryDevice ? 'nobody' : 'token';
}
