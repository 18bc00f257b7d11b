// What every device listener (WebSocket, MQTT client, MQTT gateway) offers the rest of the engine.
import type { Server } from 'node:http';
import type { DeviceRegistry } from './device-registry';
import type { Esp32Transport, Logger } from './device-session';

export type VoiceMode = 'off' | 'flow' | 'live';

export interface Esp32ListenerSettings {
  transport: Esp32Transport;
  /** websocket: path, default /xiaozhi/v1/ (on `httpServer`, already joined with Node-RED's httpNodeRoot) */
  path?: string;
  /**
   * websocket: blank = attach to `httpServer` (Node-RED's own); a number = a server of its own on
   * this port and `bind`. mqtt-gateway: the embedded MQTT listener's port (default 1884).
   */
  port?: number;
  /** Address to listen on (own WebSocket port, gateway); default 0.0.0.0: devices are on the network. */
  bind?: string;
  /** websocket without `port`: the HTTP server whose `upgrade` event devices arrive on. */
  httpServer?: Server;
  /** Accepted bearer tokens (websocket) / MQTT passwords (gateway). */
  tokens?: string[];
  /** Accept devices without a token; default false (then no tokens = every device refused). */
  anonymous?: boolean;
  /** Allowed device ids; empty = any. */
  allow?: string[];
  /** mqtt: broker URL, credentials */
  broker?: string;
  username?: string;
  password?: string;
  /** device→server topic (may contain {mac_}), server→device topic template */
  publishTopic?: string;
  deviceTopic?: string;
  vision?: { url: string; token?: string };
  /** What happens to device audio; only "off" (audio frames skipped) is served so far. */
  voice?: VoiceMode;
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
  readonly transport: Esp32Transport;
  readonly registry: DeviceRegistry;
  /** The port listened on, when the listener has a server of its own (useful when started on port 0). */
  readonly port?: number;
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
export const DEFAULT_BIND = '0.0.0.0';
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const MAX_FRAME_BYTES = 1024 * 1024;
export const DEFAULT_HEARTBEAT_MS = 30_000;
