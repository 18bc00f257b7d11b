// The encrypted UDP audio packets of xiaozhi's MQTT transport (firmware mqtt_protocol.cc): a 16-byte
// header |0x01|flags|len u16BE|ssrc 4B|timestamp u32BE|sequence u32BE| followed by the Opus payload
// encrypted with AES-128-CTR, the header itself being the counter block. The sender takes the
// session nonce and patches in len, timestamp and ++sequence; the receiver requires byte 0 = 0x01,
// len = payload length, and a sequence above the last one it accepted (gaps are fine).
// AES-CTR authenticates nothing, so a forged packet (the ssrc is on the wire) decrypts to something
// too. A packet is therefore accepted, and may move the session's address, only when its sequence
// lies within MAX_SEQUENCE_STEP of the last accepted one and it decrypts to a well-formed Opus
// packet (../audio/opus-packet.ts); a packet far ahead never moves the window, so it cannot make the
// device's own next packets look like replays. `open` only reads; `accept` moves the window, so the
// session can hold back a packet from a new address (./udp-audio-server.ts).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { opusPacketProblem } from '../audio/opus-packet';

/** How far ahead of the last accepted packet a sequence may be (lost packets: 256 × 60 ms is 15 s of audio). */
export const MAX_SEQUENCE_STEP = 256;

export interface UdpKeys {
  /** 16 bytes */
  key: Buffer;
  /** 16 bytes; bytes 4-7 (ssrc) tell the server which session a packet belongs to */
  nonce: Buffer;
}

export type OpenResult = { payload: Buffer; sequence: number; timestamp: number } | { rejected: 'short' | 'type' | 'length' | 'replay' | 'ahead' | 'not-opus' };

/** Fresh keys for one session; `ssrc` goes into the nonce so packets can be routed by it. */
export function newUdpKeys(ssrc: number): UdpKeys {
  const nonce = Buffer.alloc(16);
  nonce.writeUInt8(0x01, 0);
  nonce.writeUInt32BE(ssrc >>> 0, 4);
  return { key: randomBytes(16), nonce };
}

export function ssrcOf(packet: Buffer): number | undefined {
  return packet.length >= 16 ? packet.readUInt32BE(4) : undefined;
}

/** One direction-pair of a session: seals what we send, opens what the device sends. */
export class UdpAudioCrypto {
  private localSequence = 0;
  private remoteSequence = 0;

  constructor(private readonly keys: UdpKeys) {
    if (keys.key.length !== 16 || keys.nonce.length !== 16) throw new RangeError('AES-128-CTR needs a 16-byte key and a 16-byte nonce');
  }

  seal(payload: Buffer, timestamp: number): Buffer {
    const header = Buffer.from(this.keys.nonce);
    header.writeUInt16BE(payload.length & 0xffff, 2);
    header.writeUInt32BE(timestamp >>> 0, 8);
    header.writeUInt32BE(++this.localSequence >>> 0, 12);
    const cipher = createCipheriv('aes-128-ctr', this.keys.key, header);
    return Buffer.concat([header, cipher.update(payload), cipher.final()]);
  }

  open(packet: Buffer): OpenResult {
    if (packet.length < 16) return { rejected: 'short' };
    if (packet[0] !== 0x01) return { rejected: 'type' };
    const body = packet.subarray(16);
    if (packet.readUInt16BE(2) !== body.length) return { rejected: 'length' };
    const sequence = packet.readUInt32BE(12);
    if (sequence <= this.remoteSequence) return { rejected: 'replay' };
    if (sequence - this.remoteSequence > MAX_SEQUENCE_STEP) return { rejected: 'ahead' };
    const decipher = createDecipheriv('aes-128-ctr', this.keys.key, packet.subarray(0, 16));
    const payload = Buffer.concat([decipher.update(body), decipher.final()]);
    if (opusPacketProblem(payload)) return { rejected: 'not-opus' };
    return { payload, sequence, timestamp: packet.readUInt32BE(8) };
  }

  /** The packet with this sequence was taken: older and equal sequences are replays from now on. */
  accept(sequence: number): void {
    if (sequence > this.remoteSequence) this.remoteSequence = sequence;
  }

  /** The sequence of the last packet taken (0 before the first). */
  get lastSequence(): number {
    return this.remoteSequence;
  }
}
