// What every device listener (WebSocket, MQTT client, MQTT gateway) offers the rest of the engine.
import type { PairedTokens } from './devices/device-gate';
import type { OtaAnswerer } from './ota-wire';
import type { Server } from 'node:http';
import type { DeviceRegistry } from './devices/device-registry';
import type { Esp32Transport, Logger } from './devices/device-session';
import { LISTENER_SETTINGS } from './listener-settings-declaration';

export type VoiceMode = 'off' | 'flow' | 'live' | 'assist';

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
  /** What happens to device audio (the listener's `voice` setting, docs/voice.md); the channels come with the runtime's `audio`. */
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
  /**
   * mqtt-gateway: the address put in the hello answer's `udp.server`, where the device sends its
   * UDP audio. Blank = the address the device's MQTT connection reached (right when devices connect
   * directly; behind a TCP balancer that is the balancer's view, so each Node-RED names its own).
   */
  udpHost?: string;
  /**
   * mqtt-gateway: connections come through a TCP balancer that starts each with a PROXY protocol
   * header (nginx `proxy_protocol on`, HAProxy `send-proxy`), which names the device's own address:
   * the only source its UDP audio is accepted from. A connection without the header is refused.
   */
  proxyProtocol?: boolean;
  /**
   * mqtt-gateway with `proxyProtocol`: the balancers' own addresses, the only peers whose PROXY
   * header is believed (anyone else could claim any address). Blank: loopback only (a balancer on
   * this machine).
   */
  balancers?: string[];
}

/**
 * What a listener is handed besides its settings: live objects of the process it runs in, never
 * parsed from a flow (so settings stay plain data that can be compared, copied and logged).
 */
export interface ListenerRuntime {
  /** websocket without `port`: the HTTP server whose `upgrade` event devices arrive on. */
  httpServer?: Server;
  /** The voice side (src/voice's VoiceHub) when `voice` is not "off"; absent: audio is skipped. */
  audio?: AudioChannels;
  log?: Logger;
  /** Devices paired through the OTA check (./pairing-book.ts): their tokens are accepted, each for its device. */
  pairing?: PairedTokens;
  /** websocket on a port of its own: the OTA check is answered there too (./ota-http.ts). */
  ota?: OtaAnswerer;
  /** mqtt-gateway: how long a connection may wait before its CONNECT (default 10 s). */
  connectDeadlineMs?: number;
}

/** The device a listener opens an audio channel for. */
export interface AudioDevice {
  id: string;
  transport: string;
  /** the session id of our hello answer */
  sessionId?: string;
  /** `audio_params` of the device's hello */
  audioParams?: Record<string, unknown>;
}

/** One device's open audio channel, as a transport sees it. */
export interface AudioChannel {
  /** Fields merged into the hello answer (`audio_params`, and `udp` for MQTT). */
  readonly hello: object;
  /** A device JSON message (listen, abort, …). */
  handleJson(message: unknown): boolean;
  /** A WebSocket binary frame. */
  handleBinary(frame: Buffer): void;
  close(): void;
}

/**
 * The seam to the voice engine (src/voice sits above src/esp32, so the listeners only know this
 * shape): a WebSocket device's hello opens a channel on the same connection; an MQTT device's hello
 * with `transport:"udp"` opens a UDP session whose key and nonce go into the hello answer.
 */
export interface AudioChannels {
  openWebSocket(device: AudioDevice, version: unknown, send: { json(m: Record<string, unknown>): void; binary(b: Buffer): void }): AudioChannel;
  /** `host`: the address the device reaches us at; `deviceAddress`: the only source UDP is accepted from. */
  openUdp(device: AudioDevice, host: string, sendJson: (m: Record<string, unknown>) => void, deviceAddress?: string): Promise<AudioChannel>;
  /** The listener closed: end every channel and the UDP socket (the hub can open them again). */
  release(): Promise<void>;
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

// The listener's defaults, as the dialog shows them (listener-settings-declaration.ts).
export const DEFAULT_PATH = LISTENER_SETTINGS.path.value;
export const DEFAULT_PUBLISH_TOPIC = LISTENER_SETTINGS.publishTopic.value;
export const DEFAULT_DEVICE_TOPIC = LISTENER_SETTINGS.deviceTopic.value;
export const DEFAULT_BIND = LISTENER_SETTINGS.bind.value;
export const DEFAULT_GATEWAY_PORT = 1884;
/**
 * Connections the kernel queues before the listener accepts them (capped by net.core.somaxconn).
 * Node's default of 511 overflows when thousands of devices reconnect at once after a power cut or
 * a restart; a dropped SYN is retried by the device only after a second or more.
 */
export const LISTEN_BACKLOG = 4096;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const MAX_FRAME_BYTES = 1024 * 1024;
export const DEFAULT_HEARTBEAT_MS = 30_000;
