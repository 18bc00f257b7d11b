// The device's side of the audio wire, written from the firmware (not from our src/, so a test
// can catch our mistakes): WebSocket binary framing per protocol version (protocol.h,
// websocket_protocol.cc) and the UDP packets of the MQTT transport (mqtt_protocol.cc SendAudio /
// OnUdpMessage): AES-128-CTR, the 16-byte header as counter block, len/timestamp/++sequence
// patched into the server's nonce; incoming packets need byte 0 = 0x01 and a sequence not below
// the last (a gap only logs a warning on the device).
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

export function frameForServer(version: number, opus: Buffer, timestamp: number): Buffer {
  if (version === 2) {
    const h = Buffer.alloc(16);
    h.writeUInt16BE(2, 0); // version
    h.writeUInt16BE(0, 2); // type 0 = opus
    h.writeUInt32BE(timestamp >>> 0, 8);
    h.writeUInt32BE(opus.length, 12);
    return Buffer.concat([h, opus]);
  }
  if (version === 3) {
    const h = Buffer.alloc(4);
    h.writeUInt16BE(opus.length, 2);
    return Buffer.concat([h, opus]);
  }
  return opus;
}

/** The Opus payload of a frame from the server, as the firmware reads it (payload_size trusted). */
export function payloadFromServer(version: number, frame: Buffer): Buffer {
  if (version === 2) return frame.subarray(16, 16 + frame.readUInt32BE(12));
  if (version === 3) return frame.subarray(4, 4 + frame.readUInt16BE(2));
  return frame;
}

export interface UdpHello {
  server: string;
  port: number;
  key: string;
  nonce: string;
}

/** MqttProtocol's hello checks; a string says why the firmware would give up on this reply. */
export function udpHelloProblem(udp: any): string | undefined {
  if (!udp || typeof udp !== 'object') return 'no udp object';
  if (typeof udp.server !== 'string' || !udp.server) return 'udp.server is not a string';
  if (!Number.isInteger(udp.port) || udp.port < 1 || udp.port > 65535) return 'udp.port out of range';
  for (const k of ['key', 'nonce']) if (typeof udp[k] !== 'string' || !/^[0-9a-fA-F]{32}$/.test(udp[k])) return `udp.${k} is not 32 hex digits`;
  return undefined;
}

export class DeviceUdpChannel {
  private readonly socket: Socket;
  private readonly key: Buffer;
  private readonly nonce: Buffer;
  private localSequence = 0;
  private remoteSequence = 0;
  /** packets the firmware would drop: bad type, stale sequence, short */
  readonly dropped = { type: 0, stale: 0, short: 0 };
  /** sequence gaps the firmware would warn about */
  gaps = 0;

  constructor(
    readonly hello: UdpHello,
    onAudio: (opus: Buffer) => void,
    /** the device's own IP, the source of its datagrams (default: whatever the OS picks) */
    localAddress?: string,
  ) {
    this.key = Buffer.from(hello.key, 'hex');
    this.nonce = Buffer.from(hello.nonce, 'hex');
    this.socket = createSocket('udp4');
    this.socket.on('error', () => undefined);
    if (localAddress) this.socket.bind(0, localAddress);
    this.socket.on('message', (data) => {
      if (data.length < 16) return void this.dropped.short++;
      if (data[0] !== 0x01) return void this.dropped.type++;
      const sequence = data.readUInt32BE(12);
      if (sequence < this.remoteSequence) return void this.dropped.stale++;
      if (sequence !== this.remoteSequence + 1) this.gaps++;
      const decipher = createDecipheriv('aes-128-ctr', this.key, data.subarray(0, 16));
      const opus = Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
      this.remoteSequence = sequence;
      onAudio(opus);
    });
  }

  send(opus: Buffer, timestamp: number): void {
    const header = Buffer.from(this.nonce);
    header.writeUInt16BE(opus.length, 2);
    header.writeUInt32BE(timestamp >>> 0, 8);
    header.writeUInt32BE(++this.localSequence, 12);
    const cipher = createCipheriv('aes-128-ctr', this.key, header);
    this.socket.send(Buffer.concat([header, cipher.update(opus), cipher.final()]), this.hello.port, this.hello.server);
  }

  /** A raw datagram (tests of what the server does with garbage). */
  sendRaw(bytes: Buffer): void {
    this.socket.send(bytes, this.hello.port, this.hello.server);
  }

  close(): void {
    try {
      this.socket.close();
    } catch {
      // already closed
    }
  }
}
