// A Gemini Live session (ai.live.connect of @google/genai, BidiGenerateContent over WebSocket).
// Facts that shape it (https://ai.google.dev/gemini-api/docs/live and the SDK's live.ts): connect() resolves only after
// `setupComplete` and never rejects when the socket closes or fails first, so it is raced against
// the close callback and a timeout; rejections arrive as close codes (1007 bad argument or key,
// 1008 unknown model, 1011 server fault); server messages arrive in the wire's camelCase. The
// model's function calls run through the same catalog, name mapping and argument checks as
// gemini-agent (run-call.ts), and every answer carries the call's id.
// Every session asks for resumption handles and a sliding context window: a connection lasts about
// ten minutes (goAway) and a session at most about an hour, and the owner reopens with the latest
// handle so the conversation keeps its memory (https://ai.google.dev/gemini-api/docs/live-session).
import { Modality, type GoogleGenAI, type LiveServerMessage, type Session } from '@google/genai';
import { McpNodeError, errorMessage } from '../errors';
import { pcmFromBytes, bytesFromPcm } from '../audio';
import { scrub } from './errors';
import { runCall } from './run-call';
import type { ToolCatalog, ToolExecutor, TraceCall } from './types';

export const DEFAULT_LIVE_MODEL = 'gemini-3.8-live';
export const LIVE_INPUT_RATE = 16000;

export interface LiveSessionOptions {
  client: GoogleGenAI;
  model?: string;
  voice?: string;
  systemInstruction?: string;
  catalog: ToolCatalog;
  executor: ToolExecutor;
  /** connect + setup must finish within this; default 15 s */
  connectTimeoutMs?: number;
  /** the latest handle of an earlier connection of this conversation: the session continues it */
  resumeHandle?: string;
  secrets: Array<string | undefined>;
  /**
   * Watches the servers' tool lists while the session is open: `update` is called with the new
   * catalog when they change, and the returned function stops watching (when the session ends).
   */
  watchTools?: (update: (catalog: ToolCatalog) => void) => () => void;
}

export interface LiveTranscript {
  role: 'user' | 'model';
  text: string;
  finished?: boolean;
}

export interface LiveEvents {
  /** model speech, 16-bit mono PCM at `sampleRate` (24 kHz) */
  audio?(samples: Int16Array, sampleRate: number): void;
  /** the person spoke over the model (server-side VAD): drop what is still queued for playback */
  interrupted?(): void;
  turnComplete?(): void;
  transcript?(t: LiveTranscript): void;
  /** a function call ran (result included) */
  toolCall?(call: TraceCall): void;
  /** the server will close the connection after `timeLeft` (e.g. "50s") */
  goAway?(timeLeft: string): void;
  /** the conversation can be resumed from here on with `handle` (a later one replaces it) */
  resumable?(handle: string): void;
  /** the session ended; `error` when it was neither our own close() nor announced by goAway */
  closed?(info: { code?: number; reason?: string; error?: McpNodeError }): void;
}

export class LiveSession {
  private closedByUs = false;
  private goingAway = false;
  private readonly inflight = new Map<string, AbortController>();
  private ended = false;
  /**
   * Answers go back in the order the calls came, also across toolCall messages: a model whose
   * functions do not block (gemini-3.8-live's default) may issue the next call before the first is
   * answered, and expects the results in its own order.
   */
  private answers: Promise<void> = Promise.resolve();
  private readonly stopWatching: () => void;

  private constructor(
    private readonly session: Session,
    private options: LiveSessionOptions,
    private readonly events: LiveEvents,
  ) {
    this.stopWatching = options.watchTools?.((catalog) => this.updateTools(catalog)) ?? (() => undefined);
  }

  /**
   * New tools for the conversation under way, without hanging up: the Live API's context update
   * replaces the session's tools (what was said, and the resumption handles, stay). Calls the model
   * makes from now on are mapped through the new catalog.
   */
  updateTools(catalog: ToolCatalog): void {
    if (this.ended || this.closedByUs) return;
    if (JSON.stringify(catalog.declarations) === JSON.stringify(this.options.catalog.declarations)) return;
    this.options = { ...this.options, catalog };
    this.session.sendContextUpdate({ tools: { tools: catalog.declarations.length ? [{ functionDeclarations: catalog.declarations }] : [] } });
  }

  static async open(options: LiveSessionOptions, events: LiveEvents): Promise<LiveSession> {
    const timeoutMs = options.connectTimeoutMs ?? 15_000;
    let live: LiveSession | undefined;
    let early: ((e: McpNodeError) => void) | undefined;
    const failedEarly = new Promise<never>((_, reject) => (early = reject));
    const connecting = options.client.live.connect({
      model: options.model || DEFAULT_LIVE_MODEL,
      config: {
        responseModalities: [Modality.AUDIO],
        ...(options.voice ? { speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: options.voice } } } } : {}),
        ...(options.systemInstruction ? { systemInstruction: options.systemInstruction } : {}),
        ...(options.catalog.declarations.length ? { tools: [{ functionDeclarations: options.catalog.declarations }] } : {}),
        inputAudioTranscription: {},
        outputAudioTranscription: {},
        sessionResumption: options.resumeHandle ? { handle: options.resumeHandle } : {},
        // Past the context window the oldest turns are dropped instead of the session ending.
        contextWindowCompression: { slidingWindow: {} },
      },
      callbacks: {
        onmessage: (m: LiveServerMessage) => live?.onMessage(m),
        onerror: () => undefined, // the close that follows carries the reason
        onclose: (e: { code?: number; reason?: string }) => {
          if (live) live.onClose(e.code, e.reason);
          else early?.(closeError(e.code, e.reason, options.secrets, true));
        },
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new McpNodeError(
              `Gemini Live did not complete its setup within ${timeoutMs / 1000} s: check the base URL and the network`,
              'timeout',
              'LIVE_TIMEOUT',
            ),
          ),
        timeoutMs,
      );
    });
    try {
      const session = await Promise.race([connecting, failedEarly, timedOut]);
      live = new LiveSession(session, options, events);
      return live;
    } catch (err) {
      // A session that completes after we gave up must not stay open.
      void connecting.then(
        (s) => s.close(),
        () => undefined,
      );
      if (err instanceof McpNodeError) throw err;
      // The SDK puts the key into the WebSocket URL: whatever it throws is scrubbed.
      throw new McpNodeError(scrub(`Cannot open Gemini Live: ${errorMessage(err)}; check the base URL`, options.secrets), 'live failed', 'LIVE_FAILED');
    } finally {
      clearTimeout(timer);
    }
  }

  /** Microphone audio, 16-bit mono PCM at 16 kHz. */
  sendAudio(samples: Int16Array): void {
    if (this.ended || this.closedByUs) return;
    this.session.sendRealtimeInput({ audio: { data: bytesFromPcm(samples).toString('base64'), mimeType: `audio/pcm;rate=${LIVE_INPUT_RATE}` } });
  }

  /** The microphone stopped (push-to-talk released): the server ends the turn without waiting for silence. */
  endAudio(): void {
    if (this.ended || this.closedByUs) return;
    this.session.sendRealtimeInput({ audioStreamEnd: true });
  }

  sendText(text: string): void {
    if (this.ended || this.closedByUs) return;
    this.session.sendClientContent({ turns: text, turnComplete: true });
  }

  close(): void {
    this.stopWatching();
    if (this.ended) return;
    this.closedByUs = true;
    for (const c of this.inflight.values()) c.abort();
    this.session.close();
  }

  private onMessage(m: LiveServerMessage): void {
    const content = m.serverContent;
    if (content) {
      for (const part of content.modelTurn?.parts ?? []) {
        const data = part.inlineData;
        if (data?.data && (data.mimeType ?? '').startsWith('audio/')) {
          const rate = Number(/rate=(\d+)/.exec(data.mimeType ?? '')?.[1] ?? 24000);
          this.events.audio?.(pcmFromBytes(Buffer.from(data.data, 'base64')), rate);
        }
      }
      if (content.inputTranscription?.text)
        this.events.transcript?.({ role: 'user', text: content.inputTranscription.text, finished: content.inputTranscription.finished });
      if (content.outputTranscription?.text)
        this.events.transcript?.({ role: 'model', text: content.outputTranscription.text, finished: content.outputTranscription.finished });
      if (content.interrupted) this.events.interrupted?.();
      if (content.turnComplete) this.events.turnComplete?.();
    }
    if (m.toolCall?.functionCalls?.length) void this.runCalls(m.toolCall.functionCalls);
    // The server is about to end the connection (~10 min per connection): say so, so the owner can
    // let this turn finish and open a new session for the next one instead of reporting an error.
    if (m.goAway) {
      this.goingAway = true;
      this.events.goAway?.(String(m.goAway.timeLeft ?? ''));
    }
    for (const id of m.toolCallCancellation?.ids ?? []) this.inflight.get(id)?.abort();
    const update = m.sessionResumptionUpdate;
    if (update?.resumable && update.newHandle) this.events.resumable?.(update.newHandle);
  }

  private runCalls(calls: Array<{ id?: string; name?: string; args?: Record<string, unknown> }>): Promise<void> {
    const running = this.runConcurrently(calls);
    // A send that fails (the socket just closed) must not stop the answers after it.
    this.answers = this.answers
      .then(() => running)
      .then((answered) => this.answer(answered))
      .catch(() => undefined);
    return this.answers;
  }

  private async runConcurrently(calls: Array<{ id?: string; name?: string; args?: Record<string, unknown> }>) {
    const results = await Promise.all(
      calls.map(async (c, index) => {
        const controller = new AbortController();
        const id = c.id ?? `call-${index}`;
        this.inflight.set(id, controller);
        try {
          const ran = await runCall(
            { catalog: this.options.catalog, executor: this.options.executor, signal: controller.signal },
            { id: c.id, name: c.name ?? '', args: (c.args ?? {}) as Record<string, unknown>, step: 1, index },
          );
          this.events.toolCall?.(ran.trace);
          return controller.signal.aborted ? undefined : ran;
        } catch {
          return undefined; // cancelled by the server (toolCallCancellation) or by close()
        } finally {
          this.inflight.delete(id);
        }
      }),
    );
    return results.filter((r): r is NonNullable<typeof r> => r !== undefined);
  }

  private answer(answered: Awaited<ReturnType<LiveSession['runConcurrently']>>): void {
    if (this.ended || answered.length === 0) return;
    this.session.sendToolResponse({
      functionResponses: answered.map(({ call, outcome }) => ({ id: call.id, name: call.name, response: outcome.response as Record<string, unknown> })),
    });
  }

  private onClose(code?: number, reason?: string): void {
    this.stopWatching();
    if (this.ended) return;
    this.ended = true;
    for (const c of this.inflight.values()) c.abort();
    const expected = this.closedByUs || (this.goingAway && (code === 1000 || code === 1001));
    this.events.closed?.({ code, reason, ...(expected ? {} : { error: closeError(code, reason, this.options.secrets, false) }) });
  }
}

/** A close frame from the Live API as an error a person can act on. */
export function closeError(code: number | undefined, reason: string | undefined, secrets: Array<string | undefined>, duringSetup: boolean): McpNodeError {
  const why = scrub(reason || 'no reason given', secrets);
  const hint =
    code === 1007
      ? 'check the API key and the session settings'
      : code === 1008
        ? 'check the model name: it must be a Live model'
        : code === 1011
          ? "a fault on Gemini's side: try again"
          : 'check the network and the base URL';
  const when = duringSetup ? 'before its setup completed' : 'during the conversation';
  return new McpNodeError(
    `Gemini Live closed the session ${when} (code ${code ?? 'none'}): ${why}; ${hint}`,
    `live closed ${code ?? ''}`.trim(),
    'LIVE_CLOSED',
    { code },
  );
}
