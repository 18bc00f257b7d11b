// WebSocket binary frames of the xiaozhi audio channel, per the firmware (protocol.h,
// websocket_protocol.cc): v1 = the bare Opus packet; v2 = a 16-byte big-endian header
// {u16 version, u16 type (0 opus, 1 json), u32 reserved, u32 timestamp_ms, u32 payload_size};
// v3 = a 4-byte header {u8 type, u8 reserved, u16 payload_size}. The device ignores `type` on
// receive; we do too, but never hand a JSON-typed payload to the Opus decoder.
export type ProtocolVersion = 1 | 2 | 3;

export interface AudioFrame {
  payload: Buffer;
  /** v2 only: the device's capture time in ms (server-side AEC uses it) */
  timestamp?: number;
}

/** The version the device asked for (Protocol-Version header / hello `version`); anything else is 1. */
export function protocolVersion(value: unknown): ProtocolVersion {
  const v = Number(value);
  return v === 2 || v === 3 ? v : 1;
}

export function encodeAudioFrame(version: ProtocolVersion, opus: Buffer, timestamp = 0): Buffer {
  if (version === 2) {
    const out = Buffer.alloc(16 + opus.length);
    out.writeUInt16BE(2, 0);
    out.writeUInt16BE(0, 2);
    out.writeUInt32BE(0, 4);
    out.writeUInt32BE(timestamp >>> 0, 8);
    out.writeUInt32BE(opus.length, 12);
    opus.copy(out, 16);
    return out;
  }
  if (version === 3) {
    const out = Buffer.alloc(4 + opus.length);
    out.writeUInt8(0, 0);
    out.writeUInt8(0, 1);
    out.writeUInt16BE(opus.length, 2);
    opus.copy(out, 4);
    return out;
  }
  return opus;
}

/**
 * The Opus payload of a binary frame, or undefined for a frame that is too short, declares more
 * payload than it carries, or is marked as JSON. A declared size smaller than the frame wins.
 */
export function decodeAudioFrame(version: ProtocolVersion, frame: Buffer): AudioFrame | undefined {
  if (version === 2) {
    if (frame.length < 16) return undefined;
    const type = frame.readUInt16BE(2);
    const size = frame.readUInt32BE(12);
    if (type !== 0 || size > frame.length - 16) return undefined;
    return { payload: frame.subarray(16, 16 + size), timestamp: frame.readUInt32BE(8) };
  }
  if (version === 3) {
    if (frame.length < 4) return undefined;
    const type = frame.readUInt8(0);
    const size = frame.readUInt16BE(2);
    if (type !== 0 || size > frame.length - 4) return undefined;
    return { payload: frame.subarray(4, 4 + size) };
  }
  return frame.length > 0 ? { payload: frame } : undefined;
}
