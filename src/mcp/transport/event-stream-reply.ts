// An event-stream (SSE) reply to one POSTed request, read before the SDK sees it. Why: most such
// replies carry nothing but the answer (after, at most, an empty priming event), and handing them
// to the SDK as a stream costs a web stream, a text decoder stream and an event parser stream per
// call. So the events are read here as they come, with eventsource-parser (the SDK's own parser):
// - the stream ends after exactly one JSON-RPC answer and nothing else with data: `answer` gets
//   that answer's JSON, and the caller hands it on as a JSON reply;
// - anything else arrives first (progress, a log line, a server's request for input, a second
//   message, something unreadable), or the stream ends or fails without an answer: `stream` gets
//   a stream that replays every byte read so far and then goes on (or ends, or fails) as the
//   reply does, so the SDK sees exactly what the server sent, in order, as it comes.
// The body comes through ./event-stream-bound.ts, so no event is longer than the reply limit.
import { PassThrough, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createParser } from 'eventsource-parser';

export function readEventStreamReply(body: Readable, answer: (json: string) => void, stream: (replay: Readable) => void): void {
  const chunks: Buffer[] = [];
  // A character split across two chunks must not become two broken ones in the answer.
  const decoder = new StringDecoder('utf8');
  let found: string | undefined;
  let live = false;
  let decided = false;
  const parser = createParser({
    onEvent: (event) => {
      if (event.data === '') return; // "data:" with nothing: no message
      if (found !== undefined || (event.event ?? 'message') !== 'message' || !isAnswer(event.data)) live = true;
      else found = event.data;
    },
  });

  const stop = () => {
    decided = true;
    body.pause();
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('error', onError);
  };
  /** The rest is the SDK's: what was read, then the live reply. */
  const goLive = () => {
    stop();
    const replay = new PassThrough();
    for (const c of chunks) replay.write(c);
    body.once('error', (err) => replay.destroy(err));
    body.pipe(replay);
    stream(replay);
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    parser.feed(decoder.write(chunk));
    if (live && !decided) goLive();
  };
  const onEnd = () => {
    stop();
    parser.feed(decoder.end());
    // An unfinished last event with data counts as more than the answer.
    parser.reset({ consume: true });
    if (found !== undefined && !live) return answer(found);
    stream(Readable.from(chunks));
  };
  const onError = (err: Error) => {
    stop();
    stream(
      Readable.from(
        (async function* () {
          yield* chunks;
          throw err;
        })(),
      ),
    );
  };
  // The bound (./event-stream-bound.ts) cut an event short: what was read of it is dropped, and the
  // error answer that follows is read as the reply.
  body.once('exceeded', () => {
    if (decided) return;
    parser.reset();
    chunks.length = 0;
  });
  body.on('data', onData);
  body.once('end', onEnd);
  body.once('error', onError);
}

/** One JSON-RPC answer: an id and a result or an error, no method. */
function isAnswer(data: string): boolean {
  try {
    const m = JSON.parse(data) as Record<string, unknown> | null;
    return !!m && typeof m === 'object' && !Array.isArray(m) && !('method' in m) && 'id' in m && ('result' in m || 'error' in m);
  } catch {
    return false;
  }
}
