// What a conversation needs from the transport that carries it (a WebSocket connection, or MQTT for
// JSON plus the UDP session for audio). The listener implements it; the voice engine never sees
// sockets, so the same conversation runs over either transport and in tests over a plain object.
export interface DeviceAudioLink {
  /** A JSON message to the device (WebSocket text frame / MQTT publish to the device topic). */
  sendJson(message: Record<string, unknown>): void;
  /** One downlink Opus packet (framed for the device's protocol version / sealed for UDP). */
  sendAudio(opus: Buffer): void;
}

/** The `audio_params` a device announces in its hello (and we announce back for downlink). */
export interface AudioParams {
  format?: string;
  sample_rate?: number;
  channels?: number;
  frame_duration?: number;
}

/** Downlink the way xiaozhi-esp32-server does it: 24 kHz (Gemini's output rate, no resampling), 60 ms frames. */
export const DEFAULT_DOWNLINK = { sampleRate: 24000, frameMs: 60 } as const;

/** `audio_params` for our hello answer; the device decodes downlink at this rate and frame size. */
export function helloAudioParams(downlink: { sampleRate: number; frameMs: number } = DEFAULT_DOWNLINK): Required<AudioParams> {
  return { format: 'opus', sample_rate: downlink.sampleRate, channels: 1, frame_duration: downlink.frameMs };
}
