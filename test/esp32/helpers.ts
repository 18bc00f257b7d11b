// Shared set-up for the esp32 engine tests: a real HTTP server on 127.0.0.1 whose `upgrade` event a
// shared device listener attaches to, the way the esp32-listener node attaches to Node-RED's server.
// Devices present a token as the firmware does (its OTA token as `Authorization: Bearer`).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SharedDeviceListener } from '../../src/esp32/provider/shared-listener';
import type { Esp32Listener, Esp32ListenerSettings, ListenerRuntime } from '../../src/esp32/listener';
import { DeviceSession, type DeviceEvent } from '../../src/esp32/devices/device-session';
import { IdAllocator } from '../../src/esp32/devices/rpc-client';
import type { WebSocketDeviceListener } from '../../src/esp32/carriage/ws-listener';

export const OTTO_ID = 'd8:3b:da:4e:21:7c';
export const LICHUANG_ID = 'a0:b1:c2:d3:e4:f5';
/** The token every rig accepts unless a test configures its own. */
export const DEVICE_TOKEN = 'test-device-token';

export interface WsRig {
  shared: SharedDeviceListener;
  listener: WebSocketDeviceListener;
  server: Server;
  url: string;
  events: DeviceEvent[];
  close(): Promise<void>;
}

export async function startWsRig(settings: Partial<Esp32ListenerSettings> = {}): Promise<WsRig> {
  const server = createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { shared, listener, events } = await startListener(
    {
      transport: 'websocket',
      requestTimeoutMs: 5000,
      tokens: [DEVICE_TOKEN],
      ...settings,
    },
    { httpServer: server },
  );
  const port = (server.address() as AddressInfo).port;
  return {
    shared,
    listener: listener as WebSocketDeviceListener,
    server,
    url: `ws://127.0.0.1:${port}${settings.path ?? '/xiaozhi/v1/'}`,
    events,
    async close() {
      await shared.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A shared listener opened by a test user; `listener` is the open one. */
export async function startListener(
  settings: Esp32ListenerSettings,
  runtime: ListenerRuntime = {},
): Promise<{ shared: SharedDeviceListener; listener: Esp32Listener; events: DeviceEvent[] }> {
  const shared = new SharedDeviceListener('test listener', settings, runtime);
  const events: DeviceEvent[] = [];
  shared.on('event', (e: DeviceEvent) => events.push(e));
  await shared.register({ testUser: true });
  const listener = shared.listener;
  if (!listener) throw new Error(`listener did not start: ${JSON.stringify(shared.status())}`);
  return { shared, listener, events };
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

/**
 * A device session wired straight to `answer`, as MQTT would (no hello): every JSON-RPC message the
 * session sends reaches `answer`, which replies through `reply` with the JSON text of an MCP payload.
 */
export function directDeviceSession(answer: (payload: any, reply: (payloadJson: string) => void) => void): DeviceSession {
  const session: DeviceSession = new DeviceSession({
    id: 'aa:bb:cc:dd:ee:ff',
    transport: 'mqtt',
    ids: new IdAllocator(),
    requestTimeoutMs: 2000,
    link: {
      send: (text) => answer(JSON.parse(text).payload, (json) => setImmediate(() => session.handleText(`{"session_id":"","type":"mcp","payload":${json}}`))),
      close: () => session.handleClosed(),
    },
  });
  return session;
}
