// Gemini text-to-speech through @google/genai's generateContent with responseModalities ["AUDIO"].
// 2.5/3.1 TTS models answer headerless little-endian 16-bit PCM labelled `audio/L16;…;rate=24000`;
// the 3.8 models on the Enterprise API answer a WAV file: both are read by their mimeType.
import type { GoogleGenAI } from '@google/genai';
import { McpNodeError } from '../errors';
import { decodeWav, isWav, pcmFromBytes, type PcmAudio } from '../audio';
import { toGeminiError } from './errors';

export const DEFAULT_TTS_MODEL = 'gemini-3.8-flash-tts';
export const DEFAULT_TTS_VOICE = 'Kore';

export interface SpeechRequest {
  client: GoogleGenAI;
  text: string;
  model?: string;
  voice?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** never echoed in errors (the API key) */
  secrets: Array<string | undefined>;
  endpoint?: string;
}

export async function synthesizeSpeech(req: SpeechRequest): Promise<PcmAudio> {
  const text = req.text.trim();
  if (!text) throw new McpNodeError('Nothing to say: the text is empty', 'empty text', 'TTS_EMPTY');
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), req.timeoutMs ?? 60_000);
  const onAbort = () => controller.abort();
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await req.client.models.generateContent({
      model: req.model || DEFAULT_TTS_MODEL,
      contents: [{ role: 'user', parts: [{ text }] }],
      config: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: req.voice || DEFAULT_TTS_VOICE } } },
        abortSignal: controller.signal,
      },
    });
    const part = response.candidates?.[0]?.content?.parts?.find((p) => p.inlineData?.data);
    if (!part?.inlineData?.data) {
      const why = response.promptFeedback?.blockReason ?? response.candidates?.[0]?.finishReason ?? 'no audio in the answer';
      throw new McpNodeError(`Gemini TTS returned no audio (${why}): check that the model is a TTS model`, 'no audio', 'TTS_NO_AUDIO');
    }
    return audioFromInlineData(part.inlineData.mimeType ?? '', Buffer.from(part.inlineData.data, 'base64'));
  } catch (err) {
    if (err instanceof McpNodeError) throw err;
    const e = controller.signal.aborted && !req.signal?.aborted ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : err;
    throw toGeminiError(e, { secrets: req.secrets, timeoutMs: req.timeoutMs ?? 60_000, endpoint: req.endpoint });
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }
}

/** Audio from an inlineData part: WAV by type or header, else raw L16/PCM at the labelled rate (24 kHz if none). */
export function audioFromInlineData(mimeType: string, bytes: Buffer): PcmAudio {
  if (/wav/i.test(mimeType) || isWav(bytes)) return decodeWav(bytes);
  const rate = Number(/rate=(\d+)/i.exec(mimeType)?.[1] ?? 24000);
  return { samples: pcmFromBytes(bytes), sampleRate: rate > 0 ? rate : 24000 };
}
