// The fake's Gemini Live API: BidiGenerateContent over WebSocket, spoken as documented
// (https://ai.google.dev/api/live). The SDK asks for
// `//ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=K` (double
// slash with a bare baseUrl), so the route matches on the path's end. Rules enforced with the real
// close codes: `setup` first and only once (1007), exactly one of clientContent | realtimeInput |
// toolResponse | contextUpdate per message (1007), a known Live model (1008), a valid key (1007), PCM input with
// its rate, tool responses that answer the issued ids by name (1007). The fake ends the person's
// turn on `audioStreamEnd` or after 500 ms of silence following speech (its own energy VAD), and
// reports barge-in (speech while it answers) as `interrupted` followed by `turnComplete`.
// Session resumption (https://ai.google.dev/gemini-api/docs/live-session): a setup carrying
// `sessionResumption` gets `sessionResumptionUpdate {newHandle, resumable: true}` after setup and
// after every completed turn; a later setup naming one of those handles continues that conversation
// (its record says so), one naming a handle the fake never issued or has forgotten is refused with
// 1007 like any invalid argument.
import type { Server, IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

export interface LiveTurn {
  /** what the fake "heard", sent as inputTranscription */
  transcript?: string;
  /** function calls to make before answering; the answer waits for their toolResponse */
  calls?: Array<{ name: string; args?: Record<string, unknown> }>;
  /**
   * Each call in a toolCall message of its own, all sent at once, as a model whose functions are
   * NON_BLOCKING (gemini-3.8-live's default) issues them; the responses are recorded in the order they come.
   */
  nonBlocking?: boolean;
  /** answer audio, 16-bit LE PCM at 24 kHz; default the answer fixture ("The kitchen light is on.") */
  audio?: Buffer;
  /** outputTranscription of the answer */
  text?: string;
  /** wait after the end of the person's turn before answering (a model's think time) */
  delayMs?: number;
}

export interface LiveSessionRecord {
  url: string;
  setup?: any;
  /** every client message, parsed, in order (audio data replaced by its byte count) */
  messages: any[];
  audioBytes: number;
  toolResponses: any[];
  /** every contextUpdate the client sent, in order (the session's tools and instruction follow them) */
  contextUpdates: any[];
  violations: string[];
  /** realtime audio received while a function call was unanswered */
  audioDuringCall: number;
  interruptions: number;
  closed?: { code: number; reason: string; by: 'client' | 'server' };
  /** performance.now() when the fake sent the first audio of each answer */
  firstAudioAt: number[];
  /** The conversation this connection belongs to: a resumed connection continues an earlier one's. */
  conversation: { id: number; turns: string[] };
  /** the handle this connection resumed from, when it did */
  resumedFrom?: string;
  /** handles sent to the client, in order */
  handles: string[];
}

export interface FakeLive {
  sessions: LiveSessionRecord[];
  script(...turns: LiveTurn[]): void;
  pending(): number;
  /** Announces the end of every open connection (goAway), then closes them with 1000 after `closeAfterMs`. */
  goAway(closeAfterMs?: number): void;
  /** Ends every open connection at once without a goAway (the hard cut at the end of a session's time, a lost link). */
  drop(code?: number, reason?: string): void;
  /** Forgets every handle issued so far (they expire): resuming with one is refused. */
  forgetHandles(): void;
  /** Answers each setup after `ms` (the real service takes a moment to set a session up); 0 answers at once. */
  slowSetup(ms: number): void;
  close(): void;
}

export const ANSWER_PCM = readFileSync(join(__dirname, 'fixtures', 'answer-24k.pcm'));
const CHUNK_BYTES = 24000 * 2 * 0.2; // 200 ms of audio per serverContent message
const LIVE_MODEL = /^models\/[a-z0-9.-]*(live|native-audio)[a-z0-9.-]*$/;

export function attachLive(server: Server, apiKey: string, apiVersions: string[] = ['v1beta']): FakeLive {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const queue: LiveTurn[] = [];
  const sessions: LiveSessionRecord[] = [];
  let callCounter = 5831923424298605773n;
  const conversationsByHandle = new Map<string, LiveSessionRecord['conversation']>();
  let setupDelayMs = 0;
  let handleCounter = 0;
  let conversationCounter = 0;

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const version = /google\.ai\.generativelanguage\.([^.]+)\.GenerativeService\.BidiGenerateContent$/.exec(url.pathname)?.[1];
    if (!version || !apiVersions.includes(version)) {
      socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => run(ws, req.url ?? '', url.searchParams.get('key')));
  });

  function run(ws: WebSocket, url: string, key: string | null): void {
    const rec: LiveSessionRecord = {
      url,
      messages: [],
      audioBytes: 0,
      toolResponses: [],
      contextUpdates: [],
      violations: [],
      audioDuringCall: 0,
      interruptions: 0,
      firstAudioAt: [],
      conversation: { id: 0, turns: [] },
      handles: [],
    };
    sessions.push(rec);
    const send = (m: unknown) => ws.readyState === ws.OPEN && ws.send(Buffer.from(JSON.stringify(m)), { binary: true });
    const reject = (code: number, reason: string) => {
      rec.violations.push(`${code} ${reason}`);
      rec.closed = { code, reason, by: 'server' };
      ws.close(code, reason);
    };
    // The fake's VAD over the person's audio.
    let speechMs = 0;
    let silenceMs = 0;
    let answering: { cancelled: boolean } | undefined;
    let pendingCalls: Map<string, string> | undefined;
    let resumeAfterCalls: (() => void) | undefined;

    ws.on('message', (data: Buffer) => {
      let m: any;
      try {
        m = JSON.parse(data.toString());
      } catch {
        return reject(1007, 'Invalid JSON payload received.');
      }
      const keys = Object.keys(m ?? {});
      rec.messages.push(summarise(m));
      if (!rec.setup) {
        if (keys.length !== 1 || keys[0] !== 'setup') return reject(1007, 'Request contains an invalid argument.');
        if (key !== apiKey) return reject(1007, 'API key not valid. Please pass a valid API key.');
        const model = String(m.setup.model ?? '');
        if (!LIVE_MODEL.test(model)) return reject(1008, `${model} is not found for API version v1beta, or is not supported for bidiGenerateContent.`);
        const modalities = m.setup.generationConfig?.responseModalities;
        if (modalities !== undefined && (!Array.isArray(modalities) || modalities.length !== 1)) return reject(1007, 'Request contains an invalid argument.');
        const resumption = m.setup.sessionResumption;
        if (resumption?.handle !== undefined) {
          const earlier = conversationsByHandle.get(String(resumption.handle));
          if (!earlier) return reject(1007, 'Request contains an invalid argument.');
          rec.conversation = earlier;
          rec.resumedFrom = String(resumption.handle);
        } else rec.conversation = { id: ++conversationCounter, turns: [] };
        rec.setup = m.setup;
        const complete = () => {
          send({ setupComplete: {} });
          offerHandle();
        };
        if (setupDelayMs) setTimeout(complete, setupDelayMs);
        else complete();
        return;
      }
      if (keys.length !== 1 || !['clientContent', 'realtimeInput', 'toolResponse', 'contextUpdate'].includes(keys[0]))
        return reject(1007, 'Request contains an invalid argument.');
      if (m.toolResponse) return onToolResponse(m.toolResponse);
      // BidiGenerateContentClientContextUpdate: fields that are set replace the session's
      // (systemInstruction; tools, wrapped so an empty list can clear them); the conversation stays.
      if (m.contextUpdate) {
        const update = m.contextUpdate;
        if (update.tools !== undefined && !Array.isArray(update.tools?.tools ?? [])) return reject(1007, 'Request contains an invalid argument.');
        rec.contextUpdates.push(update);
        if (update.tools !== undefined) rec.setup = { ...rec.setup, tools: update.tools.tools ?? [] };
        if (update.systemInstruction !== undefined) rec.setup = { ...rec.setup, systemInstruction: update.systemInstruction };
        return;
      }
      if (m.clientContent) return void (m.clientContent.turnComplete !== false && endOfTurn());
      const input = m.realtimeInput;
      if (input.audioStreamEnd === true) return void (speechMs > 0 && endOfTurn());
      if (!input.audio) return;
      const mime = String(input.audio.mimeType ?? '');
      if (!/^audio\/pcm;rate=\d+$/.test(mime)) return reject(1007, 'Request contains an invalid argument.');
      const pcm = Buffer.from(String(input.audio.data ?? ''), 'base64');
      rec.audioBytes += pcm.length;
      if (pendingCalls) rec.audioDuringCall++;
      listen(pcm, Number(mime.split('rate=')[1]));
    });
    ws.on('close', (code, reason) => {
      rec.closed ??= { code, reason: reason.toString(), by: 'client' };
      if (answering) answering.cancelled = true;
    });
    ws.on('error', () => undefined);

    /** A resumable point: after setup and after each turn, when the client asked for resumption. */
    function offerHandle(): void {
      if (!rec.setup?.sessionResumption || ws.readyState !== ws.OPEN) return;
      const handle = `resume-${++handleCounter}-${rec.conversation.id}`;
      conversationsByHandle.set(handle, rec.conversation);
      rec.handles.push(handle);
      send({ sessionResumptionUpdate: { newHandle: handle, resumable: true } });
    }

    function listen(pcm: Buffer, rate: number): void {
      const ms = (pcm.length / 2 / rate) * 1000;
      let sum = 0;
      for (let i = 0; i + 1 < pcm.length; i += 2) sum += pcm.readInt16LE(i) ** 2;
      const loud = Math.sqrt(sum / Math.max(1, pcm.length / 2)) > 300;
      if (loud) {
        speechMs += ms;
        silenceMs = 0;
        if (answering && speechMs >= 100) {
          // Barge-in: the person talks over the answer.
          answering.cancelled = true;
          answering = undefined;
          rec.interruptions++;
          send({ serverContent: { interrupted: true } });
          send({ serverContent: { turnComplete: true } });
        }
      } else if (speechMs >= 200) {
        silenceMs += ms;
        if (silenceMs >= 500) endOfTurn();
      } else speechMs = 0;
    }

    function endOfTurn(): void {
      speechMs = 0;
      silenceMs = 0;
      if (answering) return;
      const turn = queue.shift();
      if (!turn) return void rec.violations.push('fake-gemini: no scripted Live turn left');
      const state = { cancelled: false };
      answering = state;
      void answer(turn, state).finally(() => {
        if (answering === state) answering = undefined;
      });
    }

    async function answer(turn: LiveTurn, state: { cancelled: boolean }): Promise<void> {
      if (turn.transcript) send({ serverContent: { inputTranscription: { text: turn.transcript } } });
      rec.conversation.turns.push(turn.transcript ?? '(audio)');
      if (turn.delayMs) await sleep(turn.delayMs);
      if (state.cancelled) return;
      if (turn.calls?.length) {
        const functionCalls = turn.calls.map((c) => ({ id: `function-call-${++callCounter}`, name: c.name, args: c.args ?? {} }));
        pendingCalls = new Map(functionCalls.map((c) => [c.id, c.name]));
        const answered = new Promise<void>((resolve) => (resumeAfterCalls = resolve));
        if (turn.nonBlocking) for (const call of functionCalls) send({ toolCall: { functionCalls: [call] } });
        else send({ toolCall: { functionCalls } });
        await answered;
        if (state.cancelled) return;
      }
      const audio = turn.audio ?? ANSWER_PCM;
      for (let at = 0; at < audio.length; at += CHUNK_BYTES) {
        if (state.cancelled) return;
        if (at === 0) rec.firstAudioAt.push(performance.now());
        send({
          serverContent: {
            modelTurn: { parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data: audio.subarray(at, at + CHUNK_BYTES).toString('base64') } }] },
          },
        });
        await sleep(20); // generation runs faster than real time
      }
      if (state.cancelled) return;
      if (turn.text) send({ serverContent: { outputTranscription: { text: turn.text } } });
      send({ serverContent: { generationComplete: true } });
      send({ serverContent: { turnComplete: true }, usageMetadata: { promptTokenCount: 310, responseTokenCount: 95, totalTokenCount: 405 } });
      offerHandle();
    }

    function onToolResponse(r: any): void {
      const responses = Array.isArray(r.functionResponses) ? r.functionResponses : [];
      rec.toolResponses.push(...responses);
      if (!pendingCalls) return reject(1007, 'Request contains an invalid argument.');
      for (const fr of responses) {
        if (typeof fr.id !== 'string' || pendingCalls.get(fr.id) !== fr.name || !fr.response || typeof fr.response !== 'object') {
          return reject(1007, 'Request contains an invalid argument.');
        }
        pendingCalls.delete(fr.id);
      }
      if (pendingCalls.size === 0) {
        pendingCalls = undefined;
        resumeAfterCalls?.();
      }
    }
  }

  return {
    sessions,
    script: (...turns) => void queue.push(...turns),
    pending: () => queue.length,
    goAway: (closeAfterMs = 100) => {
      for (const ws of wss.clients) {
        ws.send(Buffer.from(JSON.stringify({ goAway: { timeLeft: `${closeAfterMs / 1000}s` } })), { binary: true });
        setTimeout(() => ws.close(1000, ''), closeAfterMs);
      }
    },
    drop: (code = 1011, reason = 'The service is currently unavailable.') => {
      for (const ws of wss.clients) ws.close(code, reason);
    },
    forgetHandles: () => conversationsByHandle.clear(),
    slowSetup: (ms) => {
      setupDelayMs = ms;
    },
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function summarise(m: any): any {
  if (m?.realtimeInput?.audio?.data)
    return { realtimeInput: { audio: { mimeType: m.realtimeInput.audio.mimeType, bytes: Buffer.from(m.realtimeInput.audio.data, 'base64').length } } };
  return m;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
