// Shared set-up for the esp32 engine tests: a real HTTP server on 127.0.0.1 with a device listener
// on its `upgrade` event, registered under an id the way the esp32-mcp-in node registers it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEsp32Listener, registerListener, unregisterListener } from '../../src/esp32/listener-registry';
import type { Esp32Listener, Esp32ListenerSettings } from '../../src/esp32/listener';
import type { DeviceEvent } from '../../src/esp32/device-session';
import type { WebSocketDeviceListener } from '../../src/esp32/ws-listener';

export const OTTO_ID = 'd8:3b:da:4e:21:7c';
export const LICHUANG_ID = 'a0:b1:c2:d3:e4:f5';

export interface WsRig {
  listener: WebSocketDeviceListener;
  server: Server;
  url: string;
  events: DeviceEvent[];
  close(): Promise<void>;
}

export async function startWsRig(settings: Partial<Esp32ListenerSettings> = {}): Promise<WsRig> {
  const listener = createEsp32Listener({ id: 'listener-' + Math.random().toString(36).slice(2), transport: 'websocket', requestTimeoutMs: 5000, ...settings }) as WebSocketDeviceListener;
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => {
    if (!listener.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  await listener.start();
  registerListener(listener);
  const events: DeviceEvent[] = [];
  listener.registry.on('event', (e: DeviceEvent) => events.push(e));
  const port = (server.address() as AddressInfo).port;
  return {
    listener,
    server,
    url: `ws://127.0.0.1:${port}${settings.path ?? '/xiaozhi/v1/'}`,
    events,
    async close() {
      unregisterListener(listener);
      await listener.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

export async function startListener(settings: Esp32ListenerSettings): Promise<{ listener: Esp32Listener; events: DeviceEvent[] }> {
  const listener = createEsp32Listener(settings);
  await listener.start();
  registerListener(listener);
  const events: DeviceEvent[] = [];
  listener.registry.on('event', (e: DeviceEvent) => events.push(e));
  return { listener, events };
}

export async function stopListener(listener: Esp32Listener): Promise<void> {
  unregisterListener(listener);
  await listener.close();
}

/** Resolves with the first event matching, waiting for it if needed. */
export function waitForEvent(listener: Esp32Listener, events: DeviceEvent[], pred: (e: DeviceEvent) => boolean, timeoutMs = 10_000): Promise<DeviceEvent> {
  const found = events.find(pred);
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.registry.off('event', on);
      reject(new Error('event did not arrive; got: ' + events.map((e) => `${e.topic}@${e.device.id}`).join(', ')));
    }, timeoutMs);
    const on = (e: DeviceEvent) => {
      if (!pred(e)) return;
      clearTimeout(timer);
      listener.registry.off('event', on);
      resolve(e);
    };
    listener.registry.on('event', on);
  });
}

export async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}
