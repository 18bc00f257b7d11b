// One device conversation, independent of the transport: the device's listen/abort messages and
// uplink Opus come in, utterances (16 kHz mono WAV) and events go out, and answers are spoken back
// as xiaozhi-esp32-server does it: `stt` (optional display text), `tts start`, `sentence_start`,
// paced Opus frames, `tts stop`. Bad input never throws: undecodable packets are counted and
// skipped, audio outside a listening turn is dropped, a closed link ends playback as aborted.
// Uplink audio is taken at most at real time (a microphone cannot speak faster): a device may run
// ahead by AUDIO_SLACK_MS, and what comes faster is dropped undecoded and counted, so a sender of
// ten minutes of audio in two seconds gets a few seconds into the flow, not twenty utterances.
import { EventEmitter } from 'node:events';
import { EnergyVad, OpusDecoder, encodeWav, type PcmAudio, type VadOptions } from '../audio';
import { DEFAULT_DOWNLINK, type DeviceAudioLink } from './device-link';
import { SpeechStream, type SpeechResult } from './speech-stream';

export const UTTERANCE_RATE = 16000;
/** How far uplink audio may run ahead of real time (ms): the wake word's pre-roll comes in a burst. */
export const AUDIO_SLACK_MS = 3000;

export type ListenMode = 'auto' | 'manual' | 'realtime';

export interface Utterance {
  /** WAV, 16 kHz mono 16-bit */
  wav: Buffer;
  samples: Int16Array;
  sampleRate: number;
  durationMs: number;
  mode: ListenMode;
  /** "stop" (device sent listen stop), "silence" (our VAD in auto mode), "limit" (maxUtteranceMs) */
  endedBy: 'stop' | 'silence' | 'limit';
  wakeWord?: string;
}

/** Turns text into speech (a TTS provider such as Gemini's). */
export type SpeechSynthesizer = (text: string, signal: AbortSignal) => Promise<PcmAudio>;

export interface SpeakOptions {
  /** shown on the device screen with `stt` before the answer */
  display?: string;
  /** text of the `sentence_start` message (default: the spoken text) */
  sentence?: string;
  /** TTS for this answer (esp32-say brings its own provider settings); default the conversation's */
  tts?: SpeechSynthesizer;
}

export type SpeakInput = string | PcmAudio;

export interface ConversationOptions {
  link: DeviceAudioLink;
  sessionId?: string;
  /** downlink rate/frame size announced in our hello */
  downlink?: { sampleRate: number; frameMs: number };
  tts?: SpeechSynthesizer;
  /** false: no utterances are collected, every decoded chunk is emitted as 'audio' (live mode) */
  collect?: boolean;
  vad?: Partial<VadOptions>;
  /** utterances shorter than this are dropped (noise, a click); default 300 ms */
  minUtteranceMs?: number;
  /** a turn longer than this is cut into an utterance; default 30 s */
  maxUtteranceMs?: number;
  /** Opus encoder complexity for downlink (0-10) */
  complexity?: number;
  /**
   * How long audio is still accepted after `listen stop` (ms). 0 over WebSocket (one ordered
   * stream); over MQTT + UDP the last datagrams can arrive after the stop message.
   */
  stopGraceMs?: number;
  /**
   * Pause between `tts start` and the first audio frame (ms, default 40). The firmware enters its
   * Speaking state in a task scheduled on `tts start` and drops audio that arrives before; over
   * MQTT the JSON also travels through the broker while audio takes the direct UDP path.
   */
  ttsSettleMs?: number;
}

export interface ConversationStats {
  packetsIn: number;
  decodeFailures: number;
  /** packets that arrived while the device was not in a listening turn */
  droppedOutsideTurn: number;
  /** packets that came faster than real time (past AUDIO_SLACK_MS ahead) */
  droppedTooFast: number;
  utterances: number;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- typed EventEmitter events (the interface only adds on() overloads)
export interface Conversation {
  on(event: 'utterance', listener: (u: Utterance) => void): this;
  on(event: 'audio', listener: (pcm: Int16Array) => void): this;
  on(event: 'listen', listener: (state: { state: string; mode?: ListenMode; text?: string }) => void): this;
  on(event: 'abort' | 'barge-in' | 'close', listener: () => void): this;
  on(event: string, listener: (...args: never[]) => void): this;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see above
export class Conversation extends EventEmitter {
  readonly downlink: { sampleRate: number; frameMs: number };
  readonly stats: ConversationStats = { packetsIn: 0, decodeFailures: 0, droppedOutsideTurn: 0, droppedTooFast: 0, utterances: 0 };
  listening = false;
  mode: ListenMode = 'auto';
  wakeWord: string | undefined;
  closed = false;
  private readonly decoder = new OpusDecoder(UTTERANCE_RATE);
  private readonly vad: EnergyVad;
  private chunks: Int16Array[] = [];
  private collected = 0;
  private current: SpeechStream | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly cancelAll = new Set<AbortController>();
  private graceTimer: NodeJS.Timeout | undefined;
  /** Audio (ms) the device may still send now: refills at real time up to AUDIO_SLACK_MS. */
  private audioCredit = AUDIO_SLACK_MS;
  private creditAt = Date.now();

  constructor(private readonly options: ConversationOptions) {
    super();
    this.downlink = options.downlink ?? DEFAULT_DOWNLINK;
    this.vad = new EnergyVad({ sampleRate: UTTERANCE_RATE, ...options.vad });
  }

  get speaking(): boolean {
    return this.current !== undefined;
  }

  /** A JSON message from the device; true when it was a voice message (listen, abort). */
  handleJson(message: unknown): boolean {
    if (this.closed || !message || typeof message !== 'object') return false;
    // Whatever a device sends: every field is read by its type, never trusted.
    const frame = message as { type?: unknown; state?: unknown; mode?: unknown; text?: unknown };
    if (frame.type === 'listen') {
      const state = String(frame.state ?? '');
      if (state === 'start') {
        const mode: ListenMode = frame.mode === 'manual' || frame.mode === 'realtime' ? frame.mode : 'auto';
        if (this.speaking) this.interrupt('barge-in');
        this.startTurn(mode);
      } else if (state === 'stop') {
        this.stopListening();
      } else if (state === 'detect') {
        this.wakeWord = typeof frame.text === 'string' ? frame.text : undefined;
        if (this.speaking) this.interrupt('barge-in');
      }
      this.emit('listen', {
        state,
        ...(typeof frame.mode === 'string' && frame.mode ? { mode: frame.mode } : {}),
        ...(typeof frame.text === 'string' ? { text: frame.text } : {}),
      });
      return true;
    }
    if (frame.type === 'abort') {
      this.interrupt('abort');
      this.emit('abort');
      return true;
    }
    return false;
  }

  /** One uplink Opus packet (already taken out of its binary frame or UDP packet). */
  handleAudio(opus: Buffer): void {
    if (this.closed) return;
    this.stats.packetsIn++;
    if (!this.listening) {
      this.stats.droppedOutsideTurn++;
      return;
    }
    if (!this.withinRealTime()) {
      this.stats.droppedTooFast++;
      return;
    }
    const pcm = this.decoder.decode(opus);
    if (!pcm) {
      this.stats.decodeFailures++;
      return;
    }
    this.audioCredit -= (pcm.length * 1000) / UTTERANCE_RATE;
    if (this.options.collect === false) {
      this.emit('audio', pcm);
      return;
    }
    this.chunks.push(pcm);
    this.collected += pcm.length;
    if (this.mode === 'auto') {
      const events = this.vad.push(pcm);
      if (events.includes('speech-end')) {
        this.endTurn('silence');
        return;
      }
      if (!this.vad.inSpeech) this.keepTail(UTTERANCE_RATE); // pre-roll: the last second before speech
    }
    if (this.collected >= ((this.options.maxUtteranceMs ?? 30_000) * UTTERANCE_RATE) / 1000) this.endTurn('limit');
  }

  /** True while the device has not run more than AUDIO_SLACK_MS ahead of real time. */
  private withinRealTime(): boolean {
    const now = Date.now();
    this.audioCredit = Math.min(AUDIO_SLACK_MS, this.audioCredit + (now - this.creditAt));
    this.creditAt = now;
    return this.audioCredit > 0;
  }

  /** Speaks a text (through the TTS provider) or PCM audio; answers queue up behind each other. */
  speak(input: SpeakInput, options: SpeakOptions = {}): Promise<SpeechResult> {
    const controller = new AbortController();
    this.cancelAll.add(controller);
    const run = this.queue.then(() => this.speakNow(input, options, controller.signal));
    this.queue = run.catch(() => undefined);
    return run.finally(() => this.cancelAll.delete(controller));
  }

  /** Streaming speech (Gemini Live): `tts start` now, audio as it comes, `tts stop` after end(). */
  beginSpeech(options: SpeakOptions = {}): { push(audio: PcmAudio): void; end(): Promise<SpeechResult>; cancel(reason: string): void; stream: SpeechStream } {
    if (this.current) this.interrupt('replaced');
    const stream = this.openStream(options);
    if (this.closed) stream.cancel('closed');
    return {
      stream,
      push: (audio) => stream.push(audio),
      end: () => this.finishStream(stream),
      cancel: (reason) => {
        stream.cancel(reason);
        void this.finishStream(stream);
      },
    };
  }

  /** Sends `stt` (text on the device's screen). */
  display(text: string): void {
    this.send({ type: 'stt', text });
  }

  /** The device went away: playback ends as aborted, nothing more is sent or emitted. */
  close(): void {
    if (this.closed) return;
    this.interrupt('closed');
    clearTimeout(this.graceTimer);
    this.closed = true;
    this.emit('close');
    this.removeAllListeners();
  }

  private async speakNow(input: SpeakInput, options: SpeakOptions, signal: AbortSignal): Promise<SpeechResult> {
    if (signal.aborted || this.closed) return { durationMs: 0, aborted: true, reason: this.closed ? 'closed' : 'abort' };
    const text = typeof input === 'string' ? input : undefined;
    const tts = options.tts ?? this.options.tts;
    if (text !== undefined && !tts) throw new Error('No text-to-speech provider is configured: send audio (WAV/PCM), or configure TTS');
    const stream = this.openStream({ ...options, sentence: options.sentence ?? text });
    const onAbort = () => stream.cancel('abort');
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const audio = text !== undefined ? await tts!(text, signal) : (input as PcmAudio);
      stream.push(audio);
    } catch (err) {
      stream.cancel('failed');
      await this.finishStream(stream);
      if (signal.aborted || this.closed) return stream.result();
      throw err;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    return this.finishStream(stream);
  }

  private openStream(options: SpeakOptions): SpeechStream {
    if (options.display) this.display(options.display);
    this.send({ type: 'tts', state: 'start' });
    if (options.sentence) this.send({ type: 'tts', state: 'sentence_start', text: options.sentence });
    const stream = new SpeechStream(this.downlink, (opus) => this.options.link.sendAudio(opus), {
      complexity: this.options.complexity,
      holdMs: this.options.ttsSettleMs ?? 40,
    });
    this.current = stream;
    return stream;
  }

  private async finishStream(stream: SpeechStream): Promise<SpeechResult> {
    const result = await stream.end();
    if (this.current === stream) {
      this.current = undefined;
      // The device plays on until `tts stop`, also after `abort`: it must always be sent.
      this.send({ type: 'tts', state: 'stop' });
    }
    return result;
  }

  private interrupt(reason: string): void {
    for (const c of this.cancelAll) c.abort();
    const stream = this.current;
    if (!stream) return;
    stream.cancel(reason);
    if (reason === 'barge-in') this.emit('barge-in');
    void this.finishStream(stream);
  }

  private stopListening(): void {
    if (!this.listening) return;
    const grace = this.options.stopGraceMs ?? 0;
    if (grace <= 0) {
      this.listening = false;
      this.endTurn('stop');
      return;
    }
    clearTimeout(this.graceTimer);
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (!this.listening || this.closed) return;
      this.listening = false;
      this.endTurn('stop');
    }, grace);
  }

  private startTurn(mode: ListenMode): void {
    if (this.graceTimer) {
      // A new turn before the grace ran out: the previous one ends now.
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      this.endTurn('stop');
    }
    this.mode = mode;
    this.listening = true;
    this.chunks = [];
    this.collected = 0;
    this.vad.reset();
  }

  private endTurn(endedBy: Utterance['endedBy']): void {
    const samples = join(this.chunks, this.collected);
    this.chunks = [];
    this.collected = 0;
    this.vad.reset();
    const durationMs = Math.round((samples.length * 1000) / UTTERANCE_RATE);
    // Live mode collects nothing; a click or a cough under the minimum is not a question.
    if (this.options.collect === false || durationMs < (this.options.minUtteranceMs ?? 300)) return;
    this.stats.utterances++;
    const utterance: Utterance = {
      wav: encodeWav(samples, UTTERANCE_RATE),
      samples,
      sampleRate: UTTERANCE_RATE,
      durationMs,
      mode: this.mode,
      endedBy,
      ...(this.wakeWord ? { wakeWord: this.wakeWord } : {}),
    };
    this.wakeWord = undefined;
    this.emit('utterance', utterance);
  }

  private keepTail(samples: number): void {
    while (this.chunks.length > 1 && this.collected - this.chunks[0].length >= samples) {
      this.collected -= this.chunks.shift()!.length;
    }
  }

  private send(message: Record<string, unknown>): void {
    if (this.closed) return;
    try {
      this.options.link.sendJson(this.options.sessionId !== undefined ? { session_id: this.options.sessionId, ...message } : message);
    } catch {
      // The link is going away; its owner closes the conversation.
    }
  }
}

function join(chunks: Int16Array[], total: number): Int16Array {
  const out = new Int16Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
