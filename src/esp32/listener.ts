// What every device listener (WebSocket, MQTT client, MQTT gateway) offers the rest of the engine.
import type { DeviceRegistry } from './device-registry';
import type { Esp32Transport, Logger } from './device-session';

export interface Esp32ListenerSettings {
  /** Id of the esp32-mcp-in node (the key config nodes use to find this listener). */
  id: string;
  transport: Esp32Transport;
  /** websocket: path on the HTTP server, default /xiaozhi/v1/ */
  path?: string;
  /** Accepted bearer tokens (websocket) / MQTT passwords (gateway); empty = no check. */
  tokens?: string[];
  /** Allowed device ids; empty = any. */
  allow?: string[];
  /** mqtt: broker URL, credentials */
  broker?: string;
  username?: string;
  password?: string;
  /** mqtt-gateway: where the embedded MQTT listener listens */
  host?: string;
  port?: number;
  /** device→server topic (may contain {mac_}), server→device topic template */
  publishTopic?: string;
  deviceTopic?: string;
  vision?: { url: string; token?: string };
  /** Timeout of the handshake requests (initialize, tools/list pages); default 30 s. */
  requestTimeoutMs?: number;
  /** websocket: close connections that send no hello within this time; default 10 s. */
  helloTimeoutMs?: number;
  /**
   * websocket: ping every device this often and drop one that has not answered the previous ping
   * (the firmware answers pings; a device that lost power or Wi-Fi sends no FIN). Default 30 s; 0 = off.
   */
  heartbeatMs?: number;
  log?: Logger;
}

export interface Esp32Listener {
  readonly id: string;
  readonly transport: Esp32Transport;
  readonly registry: DeviceRegistry;
  start(): Promise<void>;
  /** MQTT client mode: the broker connection (devices are unreachable while it is down). */
  brokerState?(): 'connecting' | 'connected' | 'offline';
  /** Closes every device connection and the listener itself. */
  close(): Promise<void>;
}

export const DEFAULT_PATH = '/xiaozhi/v1/';
export const DEFAULT_PUBLISH_TOPIC = 'device-server';
export const DEFAULT_DEVICE_TOPIC = 'devices/p2p/{mac_}';
export const DEFAULT_GATEWAY_PORT = 1884;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const MAX_FRAME_BYTES = 1024 * 1024;
export const DEFAULT_HEARTBEAT_MS = 30_000;
