// The UDP side of xiaozhi's MQTT transport: one socket for all devices. Each `hello` gets a session
// with its own AES key and a nonce carrying a session number in its ssrc bytes; the device copies the
// nonce into every packet header, so the ssrc routes a packet to its session, and the session answers
// to the address its packets come from. A device behind NAT may change port, but AES-CTR
// authenticates nothing and the ssrc is on the wire, so a packet from a new port moves the session
// only when a second one from that same port follows, each decrypting to Opus within a few
// sequence numbers of the last packet taken (./udp-crypto.ts); until then neither is played.
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import { newUdpKeys, ssrcOf, UdpAudioCrypto, type UdpKeys } from './udp-crypto';

export interface UdpHelloPart {
  server: string;
  port: number;
  key: string;
  nonce: string;
}

export interface UdpAudioServerOptions {
  port?: number;
  bind?: string;
}

/** One device's audio channel over UDP. Emits 'audio' (Opus payload) and 'close'. */
export class UdpAudioSession extends EventEmitter {
  readonly crypto: UdpAudioCrypto;
  remote: { address: string; port: number } | undefined;
  /** packets refused (bad header, replay, unknown) */
  rejected = 0;
  /** A first packet from a new port, waiting for a second from there to move the session. */
  private candidate: { address: string; port: number; sequence: number } | undefined;
  closed = false;
  private readonly started = performance.now();

  constructor(
    readonly ssrc: number,
    readonly keys: UdpKeys,
    private readonly server: UdpAudioServer,
    /** the device's IP as seen on its MQTT connection: AES-CTR authenticates nothing, so packets from elsewhere are refused */
    private readonly deviceAddress?: string,
  ) {
    super();
    this.crypto = new UdpAudioCrypto(keys);
  }

  /** The `udp` object of the hello answer; `host` is the address the device can reach us at. */
  helloPart(host: string): UdpHelloPart {
    return { server: host, port: this.server.port, key: this.keys.key.toString('hex'), nonce: this.keys.nonce.toString('hex') };
  }

  /** False until the device has sent its first packet (we learn its address from it). */
  sendAudio(opus: Buffer): boolean {
    if (this.closed || !this.remote) return false;
    const packet = this.crypto.seal(opus, Math.round(performance.now() - this.started));
    this.server.socket.send(packet, this.remote.port, this.remote.address);
    return true;
  }

  receive(packet: Buffer, from: { address: string; port: number }): void {
    if (this.deviceAddress && plainAddress(from.address) !== plainAddress(this.deviceAddress)) {
      this.rejected++;
      return;
    }
    const opened = this.crypto.open(packet);
    if ('rejected' in opened) {
      this.rejected++;
      return;
    }
    const same = (a: { address: string; port: number } | undefined) => !!a && a.port === from.port && plainAddress(a.address) === plainAddress(from.address);
    if (this.remote && !same(this.remote)) {
      const close = opened.sequence - this.crypto.lastSequence <= REBIND_STEP;
      const confirms = close && same(this.candidate) && opened.sequence > this.candidate!.sequence;
      if (!confirms) {
        this.candidate = close ? { address: from.address, port: from.port, sequence: opened.sequence } : undefined;
        this.rejected++;
        return;
      }
    }
    this.candidate = undefined;
    this.crypto.accept(opened.sequence);
    this.remote = { address: from.address, port: from.port };
    this.emit('audio', opened.payload);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.server.forget(this.ssrc);
    this.emit('close');
    this.removeAllListeners();
  }
}

export class UdpAudioServer {
  readonly socket: Socket;
  private readonly sessions = new Map<number, UdpAudioSession>();
  /** datagrams that matched no session */
  strays = 0;
  port = 0;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('message', (packet, rinfo) => {
      const ssrc = ssrcOf(packet);
      const session = ssrc === undefined ? undefined : this.sessions.get(ssrc);
      if (!session) this.strays++;
      else session.receive(packet, rinfo);
    });
    // A datagram to a device that went away comes back as ICMP errors; they must not end the socket.
    socket.on('error', () => undefined);
  }

  static async start(options: UdpAudioServerOptions = {}): Promise<UdpAudioServer> {
    const bind = options.bind || '0.0.0.0';
    const socket = createSocket(bind.includes(':') ? 'udp6' : 'udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(options.port ?? 0, bind, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    const server = new UdpAudioServer(socket);
    server.port = socket.address().port;
    return server;
  }

  /**
   * A new session (one per device hello: the firmware resets its sequences with each hello).
   * `deviceAddress`: the IP the device's MQTT connection comes from; only its packets are accepted.
   */
  open(deviceAddress?: string): UdpAudioSession {
    // Random, not counted: AES-CTR authenticates nothing, so the ssrc is the only thing a stranger on
    // the device's network would have to guess to aim packets at a session.
    let ssrc = randomBytes(4).readUInt32BE(0);
    while (this.sessions.has(ssrc)) ssrc = randomBytes(4).readUInt32BE(0);
    const session = new UdpAudioSession(ssrc, newUdpKeys(ssrc), this, deviceAddress);
    this.sessions.set(ssrc, session);
    return session;
  }

  forget(ssrc: number): void {
    this.sessions.delete(ssrc);
  }

  get size(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    for (const s of [...this.sessions.values()]) s.close();
    await new Promise<void>((resolve) => this.socket.close(() => resolve()));
  }
}

/** "::ffff:10.0.0.5" and "10.0.0.5" are the same device. */
/** How close to the last packet taken a packet from a new port must be (a NAT rebinding loses a packet or two). */
const REBIND_STEP = 8;

function plainAddress(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
