// Config nodes (`mcp-server` with transport "esp32") and the `esp32-mcp-in` node that accepts the
// devices live in one runtime; this module-level map, keyed by the esp32-mcp-in node id, is how a
// config node finds the devices. It also tells providers when anything about them changed.
import { EventEmitter } from 'node:events';
import type { Esp32Listener, Esp32ListenerSettings } from './listener';
import { WebSocketDeviceListener } from './ws-listener';
import { MqttClientListener } from './mqtt-client-listener';
import { MqttGatewayListener } from './mqtt-gateway-listener';

const listeners = new Map<string, Esp32Listener>();
const changes = new EventEmitter();
changes.setMaxListeners(0);

export function createEsp32Listener(settings: Esp32ListenerSettings): Esp32Listener {
  switch (settings.transport) {
    case 'mqtt':
      return new MqttClientListener(settings);
    case 'mqtt-gateway':
      return new MqttGatewayListener(settings);
    default:
      return new WebSocketDeviceListener(settings);
  }
}

export function registerListener(listener: Esp32Listener): void {
  listeners.set(listener.id, listener);
  const onChange = () => changes.emit('change', listener.id);
  listener.registry.on('change', onChange);
  (listener as { _unhookRegistry?: () => void })._unhookRegistry = () => listener.registry.off('change', onChange);
  changes.emit('change', listener.id);
}

export function unregisterListener(listener: Esp32Listener): void {
  if (listeners.get(listener.id) !== listener) return;
  listeners.delete(listener.id);
  (listener as { _unhookRegistry?: () => void })._unhookRegistry?.();
  changes.emit('change', listener.id);
}

export function getListener(id: string): Esp32Listener | undefined {
  return listeners.get(id);
}

/** Called with the listener id whenever a listener comes or goes or its devices change. */
export function onListenerChange(fn: (listenerId: string) => void): () => void {
  changes.on('change', fn);
  return () => changes.off('change', fn);
}
