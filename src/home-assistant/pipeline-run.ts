// One run of an Assist pipeline over the WebSocket API (developers.home-assistant.io, "Assist
// pipelines"; core's assist_pipeline/websocket_api.py): `assist_pipeline/run` from stt to tts, a
// `result` that confirms it (or an error such as pipeline-not-found), then `event` messages. The
// speech goes as binary messages prefixed with the run's stt_binary_handler_id byte (known from
// run-start), ended by that byte alone.
import type { Connection } from 'home-assistant-js-websocket';

/** The fields of pipeline events this package reads (HA sends more). */
export interface PipelineEventData {
  /** run-start: the conversation this run belongs to (HA makes one for a first turn) */
  conversation_id?: string;
  runner_data?: { stt_binary_handler_id?: number | null; timeout?: number };
  tts_output?: { url?: string; mime_type?: string; stream_response?: boolean; token?: string };
  stt_output?: { text?: string };
  tts_start_streaming?: boolean;
  intent_output?: { response?: { speech?: { plain?: { speech?: string } } }; conversation_id?: string; continue_conversation?: boolean };
  code?: string;
  message?: string;
}

export interface PipelineEvent {
  type: string;
  data?: PipelineEventData;
}

export interface AssistRunOptions {
  /** pipeline id; undefined: Home Assistant's preferred pipeline */
  pipeline?: string;
  conversationId?: string;
  /** whole-run limit, seconds (Home Assistant's default is 300) */
  timeoutS?: number;
}

export interface AssistPipeline {
  id: string;
  name: string;
  language: string;
}

export interface AssistRun {
  /** 16 kHz mono PCM, sent as soon as the run has its binary handler (kept until then). */
  sendAudio(pcm: Int16Array): void;
  /** No more speech: the handler byte alone (once). */
  endAudio(): void;
  /** Unsubscribes: Home Assistant cancels the run. */
  cancel(): void;
}

/** A run refused before it started (the command's error result), with Home Assistant's code. */
export class PipelineRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PipelineRefused';
  }
}

export async function listPipelines(conn: Connection): Promise<{ pipelines: AssistPipeline[]; preferred?: string }> {
  const r = await conn.sendMessagePromise<{ pipelines?: AssistPipeline[]; preferred_pipeline?: string }>({ type: 'assist_pipeline/pipeline/list' });
  return {
    pipelines: (r.pipelines ?? []).map((p) => ({ id: String(p.id), name: String(p.name ?? p.id), language: String(p.language ?? '') })),
    preferred: r.preferred_pipeline ?? undefined,
  };
}

export async function startAssistRun(conn: Connection, options: AssistRunOptions, onEvent: (e: PipelineEvent) => void): Promise<AssistRun> {
  let handler: number | undefined;
  let waiting: Buffer[] = [];
  let ended = false;
  let endSent = false;
  const send = (b: Buffer) => {
    try {
      conn.socket?.send(b);
    } catch {
      // the connection is going: the run's error event or the link's state says so
    }
  };
  const flush = () => {
    if (handler === undefined) return;
    for (const b of waiting) send(Buffer.concat([Buffer.of(handler), b]));
    waiting = [];
    if (ended && !endSent) {
      endSent = true;
      send(Buffer.of(handler));
    }
  };
  let unsubscribe: (() => Promise<void>) | undefined;
  try {
    unsubscribe = await conn.subscribeMessage<PipelineEvent>(
      (event) => {
        if (event?.type === 'run-start') {
          const id = event.data?.runner_data?.stt_binary_handler_id;
          if (typeof id === 'number') handler = id;
          flush();
        }
        onEvent(event);
      },
      {
        type: 'assist_pipeline/run',
        start_stage: 'stt',
        end_stage: 'tts',
        input: { sample_rate: 16000 },
        ...(options.pipeline ? { pipeline: options.pipeline } : {}),
        ...(options.conversationId ? { conversation_id: options.conversationId } : {}),
        ...(options.timeoutS ? { timeout: options.timeoutS } : {}),
      },
      { resubscribe: false },
    );
  } catch (err) {
    const e = err as { code?: string | number; message?: string };
    throw new PipelineRefused(String(e?.code ?? 'unknown'), String(e?.message ?? err));
  }
  return {
    sendAudio(pcm) {
      if (ended) return;
      const bytes = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      if (handler === undefined) waiting.push(Buffer.from(bytes));
      else send(Buffer.concat([Buffer.of(handler), bytes]));
    },
    endAudio() {
      if (ended) return;
      ended = true;
      flush();
    },
    cancel() {
      ended = true;
      void unsubscribe?.().catch(() => undefined);
    },
  };
}

/**
 * The pipeline a run names: the one set, else the one speaking `language` (its main part matches
 * too: "en" for "en-US"), else none (Home Assistant's preferred pipeline runs when no id is sent).
 */
export async function choosePipeline(conn: Connection, pipeline: string | undefined, language: string | undefined): Promise<string | undefined> {
  if (pipeline || !language) return pipeline || undefined;
  const { pipelines } = await listPipelines(conn);
  const lang = language.toLowerCase();
  const hit = pipelines.find((p) => p.language.toLowerCase() === lang) ?? pipelines.find((p) => p.language.toLowerCase().split('-')[0] === lang.split('-')[0]);
  if (!hit) throw new PipelineRefused('pipeline-not-found', `no Assist pipeline in Home Assistant speaks "${language}"`);
  return hit.id;
}

/** What Assist answered a text: its spoken answer, the conversation to continue, and the whole conversation response. */
export interface TextAnswer {
  speech: string;
  conversationId?: string;
  continueConversation: boolean;
  /** Home Assistant's conversation response (response_type, data.targets/success/failed, speech, language) */
  response: Record<string, unknown>;
  /** the pipeline that ran (run-start names it) */
  pipeline?: string;
}

/** A run that started and then failed (its `error` event, or no answer before run-end or the limit). */
export class PipelineFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PipelineFailed';
  }
}

/**
 * A text run of the intent stage alone (`start_stage` and `end_stage` "intent", `input.text`): what
 * Home Assistant's Assist dialog in its own frontend does. Settles on run-end, an error event, the
 * signal, or `timeoutS` plus a few seconds when the connection went and no event can come.
 */
export async function askInText(conn: Connection, options: AssistRunOptions & { text: string; signal?: AbortSignal }): Promise<TextAnswer> {
  const timeoutS = options.timeoutS ?? 60;
  let unsubscribe: (() => Promise<void>) | undefined;
  let settle!: { resolve: (a: TextAnswer) => void; reject: (e: Error) => void };
  const answer = new Promise<TextAnswer>((resolve, reject) => (settle = { resolve, reject }));
  // It may settle (the signal, the limit) before anyone awaits it: not an unhandled rejection.
  answer.catch(() => undefined);
  let got: TextAnswer | undefined;
  let pipelineRan: string | undefined;
  const onEvent = (event: PipelineEvent & { data?: PipelineEventData & { pipeline?: string } }) => {
    if (event?.type === 'run-start') pipelineRan = event.data?.pipeline;
    else if (event?.type === 'intent-end') {
      const out = event.data?.intent_output;
      const response = (out?.response ?? {}) as Record<string, unknown>;
      got = {
        speech: String(out?.response?.speech?.plain?.speech ?? ''),
        conversationId: out?.conversation_id ?? undefined,
        continueConversation: out?.continue_conversation === true,
        response,
        pipeline: pipelineRan,
      };
    } else if (event?.type === 'error') settle.reject(new PipelineFailed(String(event.data?.code ?? 'error'), String(event.data?.message ?? 'the run failed')));
    else if (event?.type === 'run-end') {
      if (got) settle.resolve(got);
      else settle.reject(new PipelineFailed('no-answer', 'the run ended without an answer'));
    }
  };
  const limit = setTimeout(() => settle.reject(new PipelineFailed('timeout', `no answer from Home Assistant within ${timeoutS} s`)), (timeoutS + 5) * 1000);
  const abort = () => settle.reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    unsubscribe = await conn.subscribeMessage<PipelineEvent>(
      onEvent,
      {
        type: 'assist_pipeline/run',
        start_stage: 'intent',
        end_stage: 'intent',
        input: { text: options.text },
        ...(options.pipeline ? { pipeline: options.pipeline } : {}),
        ...(options.conversationId ? { conversation_id: options.conversationId } : {}),
        timeout: timeoutS,
      },
      { resubscribe: false },
    );
    return await answer;
  } catch (err) {
    if (err instanceof Error) throw err;
    const e = err as { code?: string | number; message?: string };
    throw new PipelineRefused(String(e?.code ?? 'unknown'), String(e?.message ?? err));
  } finally {
    clearTimeout(limit);
    options.signal?.removeEventListener('abort', abort);
    void unsubscribe?.().catch(() => undefined);
  }
}
