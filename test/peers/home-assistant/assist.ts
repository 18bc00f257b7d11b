// Home Assistant's side of an Assist pipeline run, for the Home Assistant stand-in (server.ts mounts
// it): the WebSocket API at /api/websocket and the TTS proxy's files at /api/tts_proxy/<token>.<ext>.
// Written from Home Assistant's documentation and source, not from our client:
// - developers.home-assistant.io docs/api/websocket.md: `auth_required` → `auth` → `auth_ok` /
//   `auth_invalid` (then the socket closes); every command answered by a `result` with its id;
// - docs/voice/pipelines/index.md and core's assist_pipeline/websocket_api.py: `assist_pipeline/run`
//   validated first (an unknown pipeline is an error *result*, `pipeline-not-found`), then an empty
//   success result, then `event` messages `{type, data, timestamp}` — run-start (with
//   runner_data.stt_binary_handler_id), stt-start, stt-vad-start/-end, stt-end (stt_output.text),
//   intent-start/-end (intent_output: conversation response, conversation_id, continue_conversation),
//   tts-start/-end (tts_output: media_id, token, url, mime_type), run-end; a failing stage sends an
//   `error` event (code, message) and then run-end;
// - the speech arrives as binary messages: the handler id byte, then 16-bit 16 kHz mono PCM; the id
//   byte alone ends it. HA's own VAD ends it too: here, 600 ms of quiet after at least 300 ms of voice.
// - pipeline.py's `assist_pipeline/pipeline/list`: {pipelines:[{id, name, language, …}], preferred_pipeline}.
// The spoken answers are real encoded files (fixtures/tts/, made with espeak-ng and ffmpeg:
// `espeak-ng -v en-us -s 165 -w answer.wav "The kitchen light is on."`, then ffmpeg to MP3, FLAC and
// Ogg/Opus). Each stage waits a fixed, settable delay, so a benchmark can subtract what HA takes.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

export const ASSIST_PIPELINES = [
  {
    id: '01kitchen-en',
    name: 'Home Assistant (English)',
    language: 'en',
    conversation_engine: 'conversation.home_assistant',
    stt_engine: 'stt.faster_whisper',
    tts_engine: 'tts.piper',
  },
  {
    id: '01cuisine-fr',
    name: 'Maison (français)',
    language: 'fr',
    conversation_engine: 'conversation.home_assistant',
    stt_engine: 'stt.faster_whisper',
    tts_engine: 'tts.piper',
  },
];

export type TtsFormat = 'mp3' | 'wav' | 'flac' | 'ogg';
const MIME: Record<TtsFormat, string> = { mp3: 'audio/mpeg', wav: 'audio/wav', flac: 'audio/flac', ogg: 'audio/ogg' };

/** What the next run answers; `fail` makes that stage fail with its documented code. */
export interface AssistScript {
  transcript: string;
  answer: string;
  /** which fixture the answer speaks (answer.* or followup.mp3) */
  audio?: 'answer' | 'followup';
  format?: TtsFormat;
  continueConversation?: boolean;
  fail?: 'stt-no-text-recognized' | 'intent-failed' | 'tts-failed';
  /** Answer with an absolute TTS URL on this origin (HA does when its internal/external URL is set to another host). */
  ttsOrigin?: string;
}

export interface AssistRunRecord {
  pipeline: string;
  /** a text run's words (start_stage "intent", input.text) */
  text?: string;
  conversationIdIn?: string;
  conversationIdOut: string;
  /** the PCM received before the speech ended */
  pcm: Int16Array;
  endedBy?: 'vad' | 'end-marker';
  /** when the stand-in sent stt-vad-end or got the end marker (performance.now()) */
  speechEndAt?: number;
}

export interface AssistStandIn {
  /** runs, in order */
  runs: AssistRunRecord[];
  /** the script of the next runs (the last one repeats) */
  script(...next: AssistScript[]): void;
  /** fixed stage delays in ms */
  delays: { stt: number; intent: number; tts: number };
  /** TTS files served, by name */
  served: string[];
  /** What assist_pipeline/pipeline/list answers (a test may add a pipeline named oddly). */
  pipelines: Array<(typeof ASSIST_PIPELINES)[number]>;
  route(req: IncomingMessage, res: ServerResponse): boolean;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

const FIXTURES = join(__dirname, 'fixtures', 'tts');
const RATE = 16000;

/** Who else may open the WebSocket API, and what `llm/api/list` answers. */
export interface WebSocketApiOptions {
  /** A valid user's token that is not an administrator's: signs in, but admin-only commands fail. */
  nonAdminToken?: string;
  /** The registered LLM APIs, in registration order (default: Assist only). */
  llmApis?: Array<{ id: string; name: string }>;
}

export function createAssistStandIn(token: () => string, more: WebSocketApiOptions = {}): AssistStandIn {
  const wss = new WebSocketServer({ noServer: true });
  let scripts: AssistScript[] = [{ transcript: 'Turn on the kitchen light', answer: 'The kitchen light is on.' }];
  const files = new Map<string, { body: Buffer; mime: string }>();
  let nextConversation = 1;
  const standIn: AssistStandIn = {
    runs: [],
    delays: { stt: 30, intent: 30, tts: 30 },
    served: [],
    pipelines: [...ASSIST_PIPELINES],
    script: (...next) => {
      scripts = next;
    },
    route(req, res) {
      const m = /^\/api\/tts_proxy\/([\w-]+\.(mp3|wav|flac|ogg))$/.exec((req.url ?? '').split('?')[0]);
      if (!m) return false;
      const file = files.get(m[1]);
      if (!file) {
        res.writeHead(404).end();
        return true;
      }
      standIn.served.push(m[1]);
      res.writeHead(200, { 'content-type': file.mime, 'content-length': file.body.length });
      res.end(file.body);
      return true;
    },
    upgrade(req, socket, head) {
      if ((req.url ?? '').split('?')[0] !== '/api/websocket') return void socket.destroy();
      wss.handleUpgrade(req, socket, head, (ws) => serve(ws));
    },
    close() {
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };

  function serve(ws: WebSocket): void {
    let authed = false;
    let admin = false;
    const binary = new Map<number, (pcm: Buffer | null) => void>();
    let nextHandler = 1;
    const send = (m: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m));
    send({ type: 'auth_required', ha_version: '2026.11.1' });
    ws.on('message', (data, isBinary) => {
      const buf = data as Buffer;
      if (isBinary) {
        const handler = binary.get(buf[0]);
        handler?.(buf.length === 1 ? null : buf.subarray(1));
        return;
      }
      const msg = JSON.parse(buf.toString());
      if (!authed) {
        const nonAdmin = !!more.nonAdminToken && msg.access_token === more.nonAdminToken;
        if (msg.type === 'auth' && (msg.access_token === token() || nonAdmin)) {
          authed = true;
          admin = !nonAdmin;
          send({ type: 'auth_ok', ha_version: '2026.11.1' });
        } else {
          send({ type: 'auth_invalid', message: 'Invalid access token or password' });
          ws.close();
        }
        return;
      }
      const result = (success: boolean, payload?: unknown) =>
        send(success ? { id: msg.id, type: 'result', success: true, result: payload ?? null } : { id: msg.id, type: 'result', success: false, error: payload });
      switch (msg.type) {
        case 'supported_features':
          return result(true);
        case 'llm/api/list':
          // core llm/websocket_api.py: @require_admin, then {apis: [{id, name}]} in registration order.
          if (!admin) return result(false, { code: 'unauthorized', message: 'Unauthorized' });
          return result(true, { apis: more.llmApis ?? [{ id: 'assist', name: 'Assist' }] });
        case 'assist_pipeline/pipeline/list':
          return result(true, { pipelines: standIn.pipelines, preferred_pipeline: standIn.pipelines[0]?.id });
        case 'assist_pipeline/run':
          return void run(
            msg,
            result,
            send,
            (h) => binary.set(nextHandler, h) && nextHandler++,
            (id) => binary.delete(id),
          );
        default:
          return result(false, { code: 'unknown_command', message: 'Unknown command.' });
      }
    });
  }

  async function run(
    msg: any,
    result: (ok: boolean, payload?: unknown) => void,
    send: (m: unknown) => void,
    register: (h: (pcm: Buffer | null) => void) => number,
    unregister: (id: number) => void,
  ): Promise<void> {
    const pipeline = msg.pipeline ? ASSIST_PIPELINES.find((p) => p.id === msg.pipeline) : ASSIST_PIPELINES[0];
    if (!pipeline) return result(false, { code: 'pipeline-not-found', message: `Pipeline not found: id=${msg.pipeline}` });
    if (msg.start_stage === 'intent') return textRun(msg, pipeline, result, send);
    if (msg.start_stage !== 'stt' || msg.input?.sample_rate !== RATE)
      return result(false, { code: 'invalid_format', message: 'expected an stt run at 16000 Hz' });
    const script = scripts.length > 1 ? scripts.shift()! : scripts[0];
    const conversationId = msg.conversation_id ?? `01conv${String(nextConversation++).padStart(4, '0')}`;
    const record: AssistRunRecord = {
      pipeline: pipeline.id,
      conversationIdIn: msg.conversation_id ?? undefined,
      conversationIdOut: conversationId,
      pcm: new Int16Array(0),
    };
    standIn.runs.push(record);
    const event = (type: string, data: unknown = {}) => send({ id: msg.id, type: 'event', event: { type, data, timestamp: new Date().toISOString() } });
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const chunks: Buffer[] = [];
    let speechEnded!: () => void;
    const ended = new Promise<void>((r) => (speechEnded = r));
    const vad = quietAfterVoice();
    const handler = register((pcm) => {
      if (record.endedBy) return;
      if (pcm === null) {
        record.endedBy = 'end-marker';
        record.speechEndAt = performance.now();
        return speechEnded();
      }
      chunks.push(Buffer.from(pcm));
      const v = vad(pcm);
      if (v === 'start') event('stt-vad-start', { timestamp: 0 });
      if (v === 'end') {
        record.endedBy = 'vad';
        record.speechEndAt = performance.now();
        event('stt-vad-end', { timestamp: 0 });
        speechEnded();
      }
    });
    result(true);
    event('run-start', {
      pipeline: pipeline.id,
      language: pipeline.language,
      conversation_id: conversationId,
      runner_data: { stt_binary_handler_id: handler, timeout: 300 },
      tts_output: {
        token: `tts-${handler}.${script.format ?? 'mp3'}`,
        url: `/api/tts_proxy/tts-${handler}.${script.format ?? 'mp3'}`,
        mime_type: MIME[script.format ?? 'mp3'],
        stream_response: false,
      },
    });
    event('stt-start', {
      engine: pipeline.stt_engine,
      metadata: { language: pipeline.language, format: 'wav', codec: 'pcm', bit_rate: 16, sample_rate: RATE, channel: 1 },
    });
    // HA's own limit on a run without an end (its timeout); cleared once the speech ended.
    let limit: NodeJS.Timeout | undefined;
    await Promise.race([ended, new Promise<void>((r) => (limit = setTimeout(r, 30_000)))]);
    clearTimeout(limit);
    unregister(handler);
    const all = Buffer.concat(chunks);
    record.pcm = Int16Array.from({ length: all.length >> 1 }, (_, i) => all.readInt16LE(i * 2));
    await wait(standIn.delays.stt);
    if (script.fail === 'stt-no-text-recognized' || record.pcm.length === 0) {
      event('error', { code: 'stt-no-text-recognized', message: 'No text recognized' });
      return event('run-end');
    }
    event('stt-end', { stt_output: { text: script.transcript } });
    event('intent-start', {
      engine: pipeline.conversation_engine,
      language: pipeline.language,
      intent_input: script.transcript,
      conversation_id: conversationId,
      device_id: null,
      prefer_local_intents: false,
    });
    await wait(standIn.delays.intent);
    if (script.fail === 'intent-failed') {
      event('error', { code: 'intent-failed', message: 'Unexpected error during intent recognition' });
      return event('run-end');
    }
    event('intent-end', intentEnd(script, pipeline.language, conversationId, []));
    event('tts-start', {
      engine: pipeline.tts_engine,
      language: pipeline.language,
      voice: 'en_US-lessac-medium',
      tts_input: script.answer,
      acknowledge_override: false,
    });
    await wait(standIn.delays.tts);
    if (script.fail === 'tts-failed') {
      event('error', { code: 'tts-failed', message: 'Text-to-speech failed' });
      return event('run-end');
    }
    const format = script.format ?? 'mp3';
    const name = `tts-${conversationId}-${standIn.runs.length}.${format}`;
    files.set(name, { body: readFileSync(join(FIXTURES, `${script.audio ?? 'answer'}.${format}`)), mime: MIME[format] });
    const url = `${script.ttsOrigin ?? ''}/api/tts_proxy/${name}`;
    event('tts-end', { tts_output: { media_id: `media-source://tts/-stream-/${name}`, token: name, url, mime_type: MIME[format] } });
    event('run-end');
  }

  // A text run (the docs' `input.text` for start_stage "intent"; what HA's own Assist dialog sends):
  // run-start without a binary handler, intent-start/-end, run-end. Its answer is the script's.
  async function textRun(msg: any, pipeline: (typeof ASSIST_PIPELINES)[number], result: (ok: boolean, payload?: unknown) => void, send: (m: unknown) => void) {
    if (typeof msg.input?.text !== 'string' || !['intent', 'tts'].includes(msg.end_stage))
      return result(false, { code: 'invalid_format', message: "required key not provided @ data['input']['text']" });
    const script = scripts.length > 1 ? scripts.shift()! : scripts[0];
    const conversationId = msg.conversation_id ?? `01conv${String(nextConversation++).padStart(4, '0')}`;
    standIn.runs.push({
      pipeline: pipeline.id,
      text: msg.input.text,
      conversationIdIn: msg.conversation_id ?? undefined,
      conversationIdOut: conversationId,
      pcm: new Int16Array(0),
    });
    const event = (type: string, data: unknown = {}) => send({ id: msg.id, type: 'event', event: { type, data, timestamp: new Date().toISOString() } });
    result(true);
    event('run-start', {
      pipeline: pipeline.id,
      language: pipeline.language,
      conversation_id: conversationId,
      runner_data: { stt_binary_handler_id: null, timeout: 300 },
    });
    event('intent-start', {
      engine: pipeline.conversation_engine,
      language: pipeline.language,
      intent_input: msg.input.text,
      conversation_id: conversationId,
      device_id: null,
      prefer_local_intents: false,
    });
    await new Promise((r) => setTimeout(r, standIn.delays.intent));
    if (script.fail === 'intent-failed') {
      event('error', { code: 'intent-failed', message: 'Unexpected error during intent recognition' });
      return event('run-end');
    }
    event('intent-end', intentEnd(script, pipeline.language, conversationId, [{ name: 'Kitchen Light', type: 'entity', id: 'light.kitchen' }]));
    event('run-end');
  }

  return standIn;
}

/** intent-end's data: the conversation agent's response (conversation/models.py ConversationResult). */
function intentEnd(script: AssistScript, language: string, conversationId: string, success: unknown[]) {
  return {
    processed_locally: true,
    intent_output: {
      response: {
        speech: { plain: { speech: script.answer, extra_data: null } },
        card: {},
        language,
        response_type: 'action_done',
        data: { targets: [], success, failed: [] },
      },
      conversation_id: conversationId,
      continue_conversation: script.continueConversation === true,
    },
  };
}

/** HA-like VAD on the received PCM: 'start' at the first 300 ms of voice, 'end' after 600 ms of quiet. */
function quietAfterVoice(): (pcm: Buffer) => 'start' | 'end' | undefined {
  const WINDOW = RATE / 50; // 20 ms
  let voiced = 0;
  let quiet = 0;
  let started = false;
  let carry: number[] = [];
  return (pcm) => {
    let out: 'start' | 'end' | undefined;
    for (let i = 0; i + 1 < pcm.length; i += 2) {
      carry.push(pcm.readInt16LE(i));
      if (carry.length < WINDOW) continue;
      const rms = Math.sqrt(carry.reduce((s, v) => s + v * v, 0) / carry.length);
      carry = [];
      if (rms > 500) {
        voiced += 20;
        quiet = 0;
        if (!started && voiced >= 300) {
          started = true;
          out = 'start';
        }
      } else if (started) {
        quiet += 20;
        if (quiet >= 600) return 'end';
      }
    }
    return out;
  };
}

/** How long the voiced part of `pcm` lasts (first to last 20 ms window with voice), ms. */
export function voicedMs(pcm: Int16Array, sampleRate = RATE): number {
  const window = sampleRate / 50;
  let first = -1;
  let last = -1;
  for (let w = 0; w * window < pcm.length; w++) {
    let sum = 0;
    const end = Math.min(pcm.length, (w + 1) * window);
    for (let i = w * window; i < end; i++) sum += pcm[i] * pcm[i];
    if (Math.sqrt(sum / (end - w * window)) > 500) {
      if (first < 0) first = w;
      last = w;
    }
  }
  return first < 0 ? 0 : (last - first + 1) * 20;
}
