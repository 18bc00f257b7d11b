// The MQTT gateway's packet size limit, applied to the bytes as they arrive, before aedes parses
// them. aedes (through mqtt-packet) collects a whole packet before it looks at it, so a client that
// announces a 250 MB CONNECT would be buffered entirely before it is even authenticated. Every MQTT
// packet starts with a fixed header: one byte of type and flags, then the "remaining length" as a
// variable byte integer of 1 to 4 bytes (MQTT 3.1.1 §2.2.3, MQTT 5 §1.5.5). Reading just that lets
// the listener close the connection as soon as a packet announces more than the limit.

export class MqttFrameLimit {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private left = 0;

  constructor(private readonly maxPacketBytes: number) {}

  /** Feeds the next bytes; false once a packet announces more than the limit (or a malformed length). */
  accept(chunk: Uint8Array): boolean {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'body') {
        const take = Math.min(this.left, chunk.length - i);
        this.left -= take;
        i += take;
        if (this.left === 0) this.state = 'type';
        continue;
      }
      const byte = chunk[i++];
      if (this.state === 'type') {
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
        continue;
      }
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.lengthBytes++;
      if (byte & 0x80) {
        if (this.lengthBytes === 4) return false; // a fifth length byte does not exist in MQTT
        continue;
      }
      if (this.length > this.maxPacketBytes) return false;
      this.left = this.length;
      this.state = this.left === 0 ? 'type' : 'body';
    }
    return true;
  }
}
