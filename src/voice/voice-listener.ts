// The seam between the esp32-listener (which owns the device connections) and the voice nodes.
// The listener's config node exposes `voice: VoiceListener`; esp32-say speaks through it and
// knows nothing of WebSocket, MQTT or UDP.
import { McpNodeError } from '../errors';
import { decodeWav, isWav, pcmFromBytes, WavFormatError, type PcmAudio } from '../audio';
import type { Conversation, SpeakInput } from './conversation';

export interface VoiceListener {
  /** "off" | "flow" | "live" (SPEC §7 `voice`) */
  readonly voiceMode: string;
  /** The conversation of a device whose audio channel is open, else undefined. */
  conversation(deviceId: string): Conversation | undefined;
}

/** What esp32-say's msg.payload asks to be spoken: text for TTS, a WAV, or raw PCM at msg.sampleRate. */
export function speechInput(payload: unknown, sampleRate?: unknown): SpeakInput {
  if (typeof payload === 'string') {
    if (!payload.trim()) throw new McpNodeError('esp32-say: msg.payload is an empty text: nothing to say', 'empty text', 'SAY_EMPTY');
    return payload;
  }
  if (Buffer.isBuffer(payload)) {
    if (isWav(payload)) {
      try {
        return decodeWav(payload);
      } catch (err) {
        if (err instanceof WavFormatError) throw new McpNodeError(`esp32-say: ${err.message}`, 'bad WAV', 'SAY_BAD_WAV');
        throw err;
      }
    }
    const rate = Number(sampleRate);
    if (!Number.isInteger(rate) || rate < 8000 || rate > 96000) {
      throw new McpNodeError(
        'esp32-say: msg.payload is audio without a WAV header: set msg.sampleRate (e.g. 24000) for 16-bit mono PCM',
        'no sample rate',
        'SAY_NO_RATE',
      );
    }
    return { samples: pcmFromBytes(payload), sampleRate: rate } satisfies PcmAudio;
  }
  throw new McpNodeError(
    'esp32-say: msg.payload must be a text to speak or an audio Buffer (WAV, or PCM with msg.sampleRate)',
    'bad payload',
    'SAY_BAD_PAYLOAD',
  );
}

/** The listener's voice seam, or an error saying what to configure. */
export function voiceOf(listenerNode: unknown): VoiceListener {
  const voice = (listenerNode as { voice?: VoiceListener } | undefined)?.voice;
  if (!listenerNode)
    throw new McpNodeError('esp32-say: no esp32-listener is selected: choose the listener the device connects to', 'no listener', 'SAY_NO_LISTENER');
  if (!voice || typeof voice.conversation !== 'function') {
    throw new McpNodeError('esp32-say: the listener\'s voice setting is "off": set it to "flow" to speak from the flow', 'voice off', 'SAY_NO_VOICE');
  }
  if (voice.voiceMode !== 'flow') {
    throw new McpNodeError(
      `esp32-say: the listener's voice setting is "${voice.voiceMode}": set it to "flow" to speak from the flow`,
      'voice not flow',
      'SAY_VOICE_OFF',
    );
  }
  return voice;
}
