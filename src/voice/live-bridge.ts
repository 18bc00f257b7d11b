// Live mode: one device conversation streamed to a Gemini Live session and back. The device's
// microphone audio (decoded to 16 kHz, Gemini's input rate) goes out as realtime input; the model's
// 24 kHz speech comes back as one streamed answer per model turn (`tts start` at its first audio,
// `tts stop` after `turnComplete`), with no resampling since the downlink is announced at 24 kHz.
// Gemini's own VAD ends the person's turn; `listen stop` (push-to-talk) ends it at once.
// Barge-in both ways: the device listening or aborting during playback stops playback at once, and
// Gemini's `interrupted` does the same. The session opens at the first `listen start`; what the
// person said meanwhile (up to 5 s) waits for it.
// A conversation outlasts its connections: Gemini ends each one after about ten minutes (goAway, the
// bridge closes between turns) and a session after about an hour, and a connection can drop. The next
// connection resumes with the latest handle the server gave, so the model keeps what was said; it
// opens at once after a drop, else at the next `listen start`. A handle the server no longer takes
// starts a fresh session, and the owner hears of it (`resumption_failed`).
import type { LiveEvents, LiveSession, LiveTranscript } from '../gemini/live-session';
import type { TraceCall } from '../gemini/types';
import type { Conversation } from './conversation';
import type { SpeechResult } from './speech-stream';

export type LiveBridgeEvent =
  | { topic: 'transcript'; payload: LiveTranscript }
  | { topic: 'tool_call'; payload: TraceCall }
  | { topic: 'answer'; payload: SpeechResult }
  | { topic: 'error'; payload: Error }
  /** a connection of this conversation was resumed from `handle` */
  | { topic: 'resumed'; payload: { handle: string } }
  /** the conversation could not be resumed (its memory is gone): a fresh session took its place */
  | { topic: 'resumption_failed'; payload: Error };

export interface LiveBridgeOptions {
  conversation: Conversation;
  /** Opens a Live session with these callbacks (the caller owns client, model and tools), resuming `resumeHandle` when given. */
  open: (events: LiveEvents, resumeHandle?: string) => Promise<LiveSession>;
  onEvent?: (event: LiveBridgeEvent) => void;
}

const MAX_WAITING_SAMPLES = 16000 * 5;

export class LiveBridge {
  private session: LiveSession | undefined;
  private opening: Promise<LiveSession | undefined> | undefined;
  private waiting: Int16Array[] = [];
  private waitingSamples = 0;
  private answer: ReturnType<Conversation['beginSpeech']> | undefined;
  /** the rest of a model turn the device interrupted is not played */
  private discardTurn = false;
  private closed = false;
  /** the server announced the end of this connection (goAway) */
  private retiring = false;
  /** the latest point this conversation can be resumed from */
  private handle: string | undefined;
  /** the device ended its turn before the connection was open */
  private endOnOpen = false;

  constructor(private readonly options: LiveBridgeOptions) {
    const c = options.conversation;
    c.on('listen', (l) => {
      if (l.state === 'start') {
        this.endOnOpen = false;
        void this.ensureSession();
      }
      if (l.state === 'stop') {
        // A short turn can end while the connection is still being set up (a resumption refused,
        // then a fresh session): the end of the audio is sent once it is open, or the turn never ends.
        if (this.session) this.session.endAudio();
        else if (this.opening) this.endOnOpen = true;
      }
    });
    c.on('audio', (pcm) => this.onMicrophone(pcm));
    c.on('barge-in', () => this.dropAnswer());
    c.on('abort', () => this.dropAnswer());
    c.on('close', () => this.close());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.answer?.cancel('closed');
    this.session?.close();
    void this.opening?.then((s) => s?.close());
  }

  private onMicrophone(pcm: Int16Array): void {
    if (this.session) return this.session.sendAudio(pcm);
    this.waiting.push(pcm);
    this.waitingSamples += pcm.length;
    while (this.waitingSamples > MAX_WAITING_SAMPLES) this.waitingSamples -= this.waiting.shift()!.length;
    void this.ensureSession();
  }

  private ensureSession(): Promise<LiveSession | undefined> {
    if (this.session || this.closed) return Promise.resolve(this.session);
    this.opening ??= this.openResumed().then(
      (session) => {
        this.opening = undefined;
        if (this.closed) {
          session.close();
          return undefined;
        }
        this.session = session;
        for (const chunk of this.waiting) session.sendAudio(chunk);
        this.waiting = [];
        this.waitingSamples = 0;
        if (this.endOnOpen) session.endAudio();
        this.endOnOpen = false;
        return session;
      },
      (err: Error) => {
        this.opening = undefined;
        this.waiting = [];
        this.waitingSamples = 0;
        this.endOnOpen = false;
        this.emit({ topic: 'error', payload: err });
        return undefined;
      },
    );
    return this.opening;
  }

  /** A connection that continues this conversation when it can, else a fresh one (and says so). */
  private async openResumed(): Promise<LiveSession> {
    const handle = this.handle;
    if (!handle) return this.options.open(this.sessionEvents());
    try {
      const session = await this.options.open(this.sessionEvents(), handle);
      this.emit({ topic: 'resumed', payload: { handle } });
      return session;
    } catch (err) {
      this.handle = undefined;
      this.emit({ topic: 'resumption_failed', payload: err as Error });
      return this.options.open(this.sessionEvents());
    }
  }

  private sessionEvents(): LiveEvents {
    return {
      audio: (samples, sampleRate) => this.onModelAudio(samples, sampleRate),
      interrupted: () => this.dropAnswer(),
      turnComplete: () => {
        this.endAnswer();
        // After goAway: close between turns; the next `listen start` resumes on a new connection.
        if (this.retiring) this.session?.close();
      },
      goAway: () => {
        this.retiring = true;
        if (!this.answer) this.session?.close();
      },
      resumable: (handle) => (this.handle = handle),
      transcript: (t) => this.emit({ topic: 'transcript', payload: t }),
      toolCall: (call) => this.emit({ topic: 'tool_call', payload: call }),
      closed: (info) => {
        this.session = undefined;
        this.retiring = false;
        this.answer?.cancel('closed');
        if (!info.error) return;
        // A dropped connection with a handle is resumed at once: the conversation goes on.
        if (this.handle && !this.closed) void this.ensureSession();
        else this.emit({ topic: 'error', payload: info.error });
      },
    };
  }

  private onModelAudio(samples: Int16Array, sampleRate: number): void {
    if (this.discardTurn || this.closed) return;
    // One answer per model turn, ended on turnComplete.
    this.answer ??= this.options.conversation.beginSpeech();
    this.answer.push({ samples, sampleRate });
  }

  private endAnswer(): void {
    this.discardTurn = false;
    const answer = this.answer;
    this.answer = undefined;
    if (answer) void answer.end().then((r) => this.emit({ topic: 'answer', payload: r }));
  }

  private dropAnswer(): void {
    const answer = this.answer;
    this.answer = undefined;
    if (answer) {
      this.discardTurn = true;
      answer.cancel('barge-in');
      void answer.end().then((r) => this.emit({ topic: 'answer', payload: r }));
    }
  }

  private emit(event: LiveBridgeEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // a listener's failure is not the conversation's
    }
  }
}
