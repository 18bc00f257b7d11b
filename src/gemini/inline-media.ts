// Audio or an image as a prompt: a Buffer becomes one inlineData part. Its type comes from
// msg.contentType, else from the file's own header (WAV, as esp32-mcp-in's utterances are; also
// PNG, JPEG, WebP, MP3, Ogg, FLAC). generateContent accepts wav/mp3/aiff/aac/ogg/flac audio but no
// raw PCM, so headerless audio without a contentType is refused with a hint instead of guessed.
import type { Part } from '@google/genai';

function sniffMimeType(buf: Buffer): string | undefined {
  const ascii = (from: number, to: number) => buf.toString('latin1', from, to);
  if (buf.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/wav';
  if (buf.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (buf.length >= 8 && buf.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  if (buf.length >= 4 && ascii(0, 4) === 'OggS') return 'audio/ogg';
  if (buf.length >= 4 && ascii(0, 4) === 'fLaC') return 'audio/flac';
  if (buf.length >= 3 && ascii(0, 3) === 'ID3') return 'audio/mp3';
  return undefined;
}

/** The inlineData part for a Buffer payload, or undefined when its type is unknown. */
export function inlineMediaPart(payload: Buffer, contentType?: unknown): Part | undefined {
  if (payload.length === 0) return undefined;
  const declared = typeof contentType === 'string' && /^[a-z]+\/[a-z0-9.+-]+/i.test(contentType.trim()) ? contentType.trim() : undefined;
  const mimeType = declared ?? sniffMimeType(payload);
  if (!mimeType) return undefined;
  return { inlineData: { mimeType, data: payload.toString('base64') } };
}
