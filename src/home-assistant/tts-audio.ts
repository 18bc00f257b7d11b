// The spoken answer of a pipeline run: Home Assistant's TTS proxy URL fetched and decoded as it
// downloads (the proxy streams when the engine does), handed on chunk by chunk. The bearer goes to
// Home Assistant's own origin only: HA answers with an absolute URL when its internal or external
// URL names another host, and the proxy's files need no token (the file name is the secret).
import { decoderFor } from '../audio/decode-stream';
import type { PcmAudio } from '../audio/wav';
import { underBase } from './urls';

export async function streamTtsAudio(
  options: { base: string; url: string; mimeType?: string; token?: string; signal?: AbortSignal },
  onAudio: (audio: PcmAudio) => void,
): Promise<void> {
  const url = underBase(options.base, options.url);
  const ownOrigin = new URL(url).origin === new URL(options.base).origin;
  const res = await fetch(url, { headers: options.token && ownOrigin ? { authorization: `Bearer ${options.token}` } : {}, signal: options.signal });
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`Home Assistant's TTS audio: HTTP ${res.status} for ${new URL(url).pathname}`);
  }
  const decoder = await decoderFor(options.mimeType || res.headers.get('content-type') || '', new URL(url).pathname);
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const pcm = await decoder.push(chunk);
      if (pcm) onAudio(pcm);
    }
    const last = await decoder.end();
    if (last) onAudio(last);
  } finally {
    decoder.free();
  }
}
