// An event-stream (SSE) reply to one POSTed request, read before the SDK sees it. Why: most such
// replies carry nothing but the answer (after, at most, an empty priming event), and handing them
// to the SDK as a stream costs a web stream, a text decoder stream and an event parser stream per
// call. So the events are read here as they come:
// - the stream ends after exactly one JSON-RPC answer and nothing else with data: `answer` gets
//   that answer's JSON, and the caller hands it on as a JSON reply;
// - anything else arrives first (progress, a log line, a server's request for input, a second
//   message, something unreadable), or the stream ends or fails without an answer: `stream` gets
//   a stream that replays every byte read so far and then goes on (or ends, or fails) as the
//   reply does, so the SDK sees exactly what the server sent, in order, as it comes.
import { PassThrough, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export function readEventStreamReply(body: Readable, answer: (json: string) => void, stream: (replay: Readable) => void): void {
  const chunks: Buffer[] = [];
  // A character split across two chunks must not become two broken ones in the answer.
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let found: string | undefined;
  let decided = false;

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
    pending += decoder.write(chunk);
    let end: RegExpExecArray | null;
    while (!decided && (end = /\r?\n\r?\n/.exec(pending))) {
      const event = pending.slice(0, end.index);
      pending = pending.slice(end.index + end[0].length);
      const { data, type } = fieldsOf(event);
      if (data === '') continue; // a priming event (an id and a retry time, no data)
      if (found !== undefined || type !== 'message' || !isAnswer(data)) return goLive();
      found = data;
    }
  };
  const onEnd = () => {
    stop();
    if (found !== undefined && (pending + decoder.end()).trim() === '') return answer(found);
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
  body.on('data', onData);
  body.once('end', onEnd);
  body.once('error', onError);
}

/** The event's type and its data lines joined, as the SSE format reads them ("field:" and one optional space). */
function fieldsOf(event: string): { data: string; type: string } {
  const lines: string[] = [];
  let type = 'message';
  for (const line of event.split(/\r?\n/)) {
    if (line === 'data' || line.startsWith('data:')) lines.push(line.slice(5).replace(/^ /, ''));
    else if (line.startsWith('event:')) type = line.slice(6).replace(/^ /, '') || 'message';
  }
  return { data: lines.join('\n'), type };
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
