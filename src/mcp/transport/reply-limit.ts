// How much of a server's reply this client keeps: a hostile or broken MCP server must not be able
// to take Node-RED down. A reply read whole is capped before and after decompression (a 600 KB
// gzip body can inflate to 600 MB, and turning that into one string throws where nothing can catch
// it); an event stream is read event by event and one event is capped at the same size (an event
// that never ends would otherwise be kept without limit). Past the cap the request ends with
// ReplyTooLargeError, which names the server and the setting that raises the cap.
import { McpNodeError } from '../../errors';

/** The `maxReplyMB` default of an mcp-server: generous for tool results with images, far below what hurts. */
export const DEFAULT_MAX_REPLY_MB = 32;

export const bytesOfMB = (mb: number): number => Math.round(mb * 1024 * 1024);

export class ReplyTooLargeError extends McpNodeError {
  constructor(url: string, limitBytes: number, what: 'reply' | 'compressed reply' | 'event') {
    super(
      `${url}: the server's ${what} is larger than ${formatMB(limitBytes)} MB, the most this server's settings let a reply be ` +
        `(mcp-server: Largest reply); the request was stopped. Raise the limit only if the server is trusted to send that much.`,
      'reply too large',
      'REPLY_TOO_LARGE',
      { limitBytes },
    );
  }
}

function formatMB(bytes: number): string {
  return String(Math.round((bytes / 1024 / 1024) * 10) / 10);
}

/**
 * The body of a fetch Response read as text, at most `limit` bytes; past it the body is cancelled
 * and `tooLarge()` thrown. Node's fetch inflates as it reads, so this bounds the inflated size too.
 */
export async function boundedText(response: Response, limit: number, tooLarge: () => Error): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit && !response.headers.get('content-encoding')) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
