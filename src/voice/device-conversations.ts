// The seam between the esp32-listener (which owns the device connections) and the voice nodes.
// The listener's config node exposes `voice: DeviceConversations`; esp32-say speaks through it and
// knows nothing of WebSocket, MQTT or UDP.
import { decodeWav, isWav, pcmFromBytes, WavFormatError, type PcmAudio } from '../audio';
import type { Conversation, SpeakInput } from './conversation';

export interface DeviceConversations {
  /** The listener's voice setting: "off", "flow" or "live". */
  readonly voiceMode: string;
  /** The conversation of a device whose audio channel is open, else undefined. */
  conversation(deviceId: string): Conversation | undefined;
}

/** Why a payload cannot be spoken; the node adapter turns the reason into its own words. */
export class SpeechInputError extends Error {
  constructor(
    readonly reason: 'empty' | 'bad-wav' | 'no-rate' | 'bad-payload',
    detail: string = reason,
  ) {
    super(detail);
  }
}

/** What esp32-say's msg.payload asks to be spoken: text for TTS, a WAV, or raw PCM at msg.sampleRate. */
export function speechInput(payload: unknown, sampleRate?: unknown): SpeakInput {
  if (typeof payload === 'string') {
    if (!payload.trim()) throw new SpeechInputError('empty');
    return payload;
  }
  if (Buffer.isBuffer(payload)) {
    if (isWav(payload)) {
      try {
        return decodeWav(payload);
      } catch (err) {
        if (err instanceof WavFormatError) throw new SpeechInputError('bad-wav', err.message);
        throw err;
      }
    }
    const rate = Number(sampleRate);
    if (!Number.isInteger(rate) || rate < 8000 || rate > 96000) throw new SpeechInputError('no-rate');
    return { samples: pcmFromBytes(payload), sampleRate: rate } satisfies PcmAudio;
  }
  throw new SpeechInputError('bad-payload');
}
