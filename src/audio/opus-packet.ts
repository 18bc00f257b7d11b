// Whether bytes are a well-formed Opus packet, by the framing rules of RFC 6716 §3.4 (R1-R7): the
// TOC byte's frame count code, the frame lengths it implies (at most 1275 bytes each), code 3's
// frame count (at most 120 ms of audio) and padding. It says nothing of the audio inside; it lets a
// receiver tell a packet that decrypted to Opus from one that decrypted to noise (AES-CTR, as the
// xiaozhi UDP transport uses it, authenticates nothing). https://www.rfc-editor.org/rfc/rfc6716#section-3.4

const MAX_FRAME_BYTES = 1275;

/** Frame duration in tenths of a millisecond for each TOC config (RFC 6716 Table 2). */
function frameTenthsMs(config: number): number {
  if (config < 12) return [100, 200, 400, 600][config % 4]; // SILK-only: 10, 20, 40, 60 ms
  if (config < 16) return [100, 200][config % 2]; // Hybrid: 10, 20 ms
  return [25, 50, 100, 200][config % 4]; // CELT-only: 2.5, 5, 10, 20 ms
}

/** The TOC configuration number (0-31): one encoder keeps it for a whole stream in practice. */
export function opusConfig(packet: Buffer): number | undefined {
  return packet.length ? packet[0] >> 3 : undefined;
}

/** Reads a frame length (one or two bytes, §3.2.1) at `at`: [length, bytes used], or undefined. */
function frameLength(packet: Buffer, at: number): [number, number] | undefined {
  if (at >= packet.length) return undefined;
  const first = packet[at];
  if (first < 252) return [first, 1];
  if (at + 1 >= packet.length) return undefined;
  return [packet[at + 1] * 4 + first, 2];
}

/** Undefined for a well-formed packet; else which rule it breaks. */
export function opusPacketProblem(packet: Buffer): string | undefined {
  if (packet.length < 1) return 'empty (R1)';
  const toc = packet[0];
  const code = toc & 0x03;
  const rest = packet.length - 1;
  if (code === 0) return rest <= MAX_FRAME_BYTES ? undefined : 'frame too long (R2)';
  if (code === 1) return rest % 2 === 0 && rest / 2 <= MAX_FRAME_BYTES ? undefined : 'two equal frames do not fit (R3)';
  if (code === 2) {
    const first = frameLength(packet, 1);
    if (!first) return 'no first frame length (R4)';
    const second = rest - first[1] - first[0];
    return first[0] <= MAX_FRAME_BYTES && second >= 0 && second <= MAX_FRAME_BYTES ? undefined : 'frame lengths do not fit (R4)';
  }
  // Code 3: a frame count byte |v|p|M (6 bits)|, optional padding, then CBR or VBR frames.
  if (packet.length < 2) return 'no frame count (R5)';
  const countByte = packet[1];
  const frames = countByte & 0x3f;
  if (frames === 0 || frames * frameTenthsMs(toc >> 3) > 1200) return 'frame count out of range (R5)';
  let at = 2;
  let padding = 0;
  if (countByte & 0x40) {
    for (;;) {
      if (at >= packet.length) return 'padding length runs past the end (R6/R7)';
      const p = packet[at++];
      padding += p === 255 ? 254 : p;
      if (p !== 255) break;
    }
  }
  let available = packet.length - at - padding;
  if (available < 0) return 'padding longer than the packet (R6/R7)';
  if (countByte & 0x80) {
    // VBR: M-1 lengths, the last frame takes what is left.
    for (let i = 0; i < frames - 1; i++) {
      const len = frameLength(packet, at);
      if (!len) return 'frame lengths run past the end (R7)';
      at += len[1];
      available -= len[1] + len[0];
      if (len[0] > MAX_FRAME_BYTES || available < 0) return 'frame lengths do not fit (R7)';
    }
    return available <= MAX_FRAME_BYTES ? undefined : 'last frame too long (R7)';
  }
  return available % frames === 0 && available / frames <= MAX_FRAME_BYTES ? undefined : 'equal frames do not fit (R6)';
}
