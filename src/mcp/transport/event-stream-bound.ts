// An event stream passed on byte for byte, with one event held to a size: the bytes are also fed to
// an event-stream parser (eventsource-parser, the one the MCP SDK reads with) whose buffer limit
// says when an event has grown past `limit` characters. The parser keeps only the unfinished event,
// so a stream that never ends an event costs memory up to the limit and linear time, not more.
// Past the limit `onExceeded` lets go of the connection, and the stream either ends with
// `replacement` (for a POST's reply: a JSON-RPC error answer to the request, so the call fails at
// once with a message that says why instead of waiting for its timeout) or fails with `error`.
// The bytes of the oversized event already passed on stay passed on: the event is cut short by a
// blank line before the replacement, and a reader that has not handed it on yet hears `exceeded`.
import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface EventStreamBoundOptions {
  limit: number;
  /** Called once when an event passes the limit: release the request. */
  onExceeded: () => void;
  /** What the reader gets instead of the rest: an event to end with, else the error to fail with. */
  replacement: () => string | undefined;
  error: () => Error;
}

export class EventStreamBound extends Transform {
  private readonly decoder = new StringDecoder('utf8');
  private readonly parser: EventSourceParser;
  private exceeded = false;

  constructor(private readonly o: EventStreamBoundOptions) {
    super();
    this.parser = createParser({
      maxBufferSize: o.limit,
      onError: (err) => {
        if (err.type === 'max-buffer-size-exceeded') this.exceeded = true;
      },
    });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.exceeded) return callback();
    this.parser.feed(this.decoder.write(chunk));
    if (!this.exceeded) return callback(null, chunk);
    this.o.onExceeded();
    const replacement = this.o.replacement();
    if (replacement === undefined) return callback(this.o.error());
    // A reader that still holds the unfinished event drops it on this signal; one that passed it on
    // (the SDK's parser) gets a line break that ends it, as unreadable data it reports and skips.
    this.emit('exceeded');
    this.push('\n\n' + replacement);
    this.push(null);
    callback();
  }
}

/** A JSON-RPC error answer to request `id` as one event-stream event. */
export function errorAnswerEvent(id: string | number, message: string): string {
  return `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } })}\n\n`;
}

/** The id of the JSON-RPC request a POST carries (undefined for notifications, batches, anything else). */
export function requestIdOf(body: string | undefined): string | number | undefined {
  if (!body) return undefined;
  try {
    const m = JSON.parse(body) as { id?: unknown; method?: unknown } | null;
    return m && typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number') ? m.id : undefined;
  } catch {
    return undefined;
  }
}
