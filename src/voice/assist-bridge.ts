// Assist mode: each turn of one device conversation runs through a Home Assistant Assist pipeline
// (speech to text, the conversation agent, text to speech, all as the user set them up in HA).
// The device's microphone audio (decoded to 16 kHz, what the pipeline takes) streams to the run as
// it arrives; the turn's speech ends at HA's own VAD (`stt-vad-end`) or the device's `listen stop`,
// whichever comes first. HA's recognised text goes to the device screen (`stt`), its answer text as
// `sentence_start`, and its spoken answer (the TTS URL, decoded as it downloads) plays as paced Opus
// between `tts start` and `tts stop`. A run opens when the person starts talking (at `listen start`
// in manual mode; at our VAD's speech start otherwise, with the second before it), so a device that
// listens again after an answer does not start runs on silence.
// Follow-ups: when HA's answer asks one (`continue_conversation`) the next turn carries its
// conversation_id. A failing stage or an unreachable HA ends the turn at once: an `assist_error`
// event, a short error tone on the device, and the device back where its mode puts it after `tts
// stop`. Barge-in and abort stop the answer as in the other voice modes.
import { EnergyVad } from '../audio/vad';
import type { PcmAudio } from '../audio/wav';
import type { Conversation, ListenMode } from './conversation';
import type { SpeechResult } from './speech-stream';
import type { PipelineEvent } from '../home-assistant/pipeline-run';

export interface AssistTranscript {
  text: string;
  role: 'user' | 'assistant';
  conversationId?: string;
}

export interface AssistErrorInfo {
  code: string;
  message: string;
}

export type AssistBridgeEvent =
  { topic: 'transcript'; payload: AssistTranscript } | { topic: 'assist_error'; payload: AssistErrorInfo } | { topic: 'answer'; payload: SpeechResult };

/** What the bridge needs of a pipeline run (src/home-assistant/pipeline-run.ts). */
export interface AssistRunHandle {
  sendAudio(pcm: Int16Array): void;
  endAudio(): void;
  cancel(): void;
}

export interface AssistBridgeOptions {
  conversation: Conversation;
  /** Starts a stt → tts run; rejects with a code and message when HA cannot run it. */
  startRun(options: { conversationId?: string }, onEvent: (e: PipelineEvent) => void): Promise<AssistRunHandle>;
  /** Downloads and decodes the answer's audio, handing on PCM as it comes. */
  playAnswer(tts: { url: string; mimeType?: string }, onAudio: (audio: PcmAudio) => void, signal: AbortSignal): Promise<void>;
  /** Keep the conversation_id when HA asks a follow-up (default true). */
  continueConversation?: boolean;
  onEvent?: (event: AssistBridgeEvent) => void;
}

const RATE = 16000;
/** Speech kept from before our VAD noticed it (the start of the first word). */
const PRE_ROLL_SAMPLES = RATE;

interface Turn {
  mode: ListenMode;
  run?: AssistRunHandle;
  opening?: boolean;
  /** audio before the run could take it */
  queued: Int16Array[];
  queuedSamples: number;
  /** speech over (HA's VAD or listen stop): nothing more is sent */
  speechEnded: boolean;
  answerText?: string;
  ttsStarted?: boolean;
  /** the run-start's conversation id: this turn's, also on the first turn of a conversation */
  conversationId?: string;
  /** the run-start's streaming TTS URL, used when HA starts streaming before tts-end */
  streamUrl?: { url: string; mimeType?: string };
  done?: boolean;
}

export class AssistBridge {
  private turn: Turn | undefined;
  private conversationId: string | undefined;
  private answer: ReturnType<Conversation['beginSpeech']> | undefined;
  private fetching: AbortController | undefined;
  private readonly vad = new EnergyVad({ sampleRate: RATE });
  private closed = false;

  constructor(private readonly options: AssistBridgeOptions) {
    const c = options.conversation;
    c.on('listen', (l) => {
      if (l.state === 'start') this.startTurn((l.mode as ListenMode) ?? 'auto');
      if (l.state === 'stop') this.endSpeech();
    });
    c.on('audio', (pcm) => this.onMicrophone(pcm));
    c.on('barge-in', () => this.stopAnswer('barge-in'));
    c.on('abort', () => this.stopAnswer('abort'));
    c.on('close', () => this.close());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopAnswer('closed');
    this.turn?.run?.cancel();
    this.turn = undefined;
  }

  private startTurn(mode: ListenMode): void {
    // A new turn replaces one still running (the device listens again, barge-in).
    if (this.turn && !this.turn.done) {
      this.turn.done = true;
      this.turn.run?.cancel();
    }
    this.stopAnswer('barge-in');
    this.vad.reset();
    this.turn = { mode, queued: [], queuedSamples: 0, speechEnded: false };
    if (mode === 'manual') this.openRun(this.turn);
  }

  private onMicrophone(pcm: Int16Array): void {
    const turn = this.turn;
    if (!turn || turn.done || turn.speechEnded) return;
    if (turn.run) return turn.run.sendAudio(pcm);
    turn.queued.push(pcm);
    turn.queuedSamples += pcm.length;
    if (!turn.opening) {
      // Not talking yet: keep the last second only, and open the run when speech starts.
      while (turn.queuedSamples - turn.queued[0].length >= PRE_ROLL_SAMPLES) turn.queuedSamples -= turn.queued.shift()!.length;
      if (this.vad.push(pcm).includes('speech-start')) this.openRun(turn);
    }
  }

  /** `listen stop` from the device, or HA's VAD: the end of what is sent. */
  private endSpeech(): void {
    const turn = this.turn;
    if (!turn || turn.done || turn.speechEnded) return;
    turn.speechEnded = true;
    if (turn.run) turn.run.endAudio();
    else if (!turn.opening) turn.done = true; // the person never spoke: nothing to ask
  }

  private openRun(turn: Turn): void {
    turn.opening = true;
    const conversationId = this.conversationId;
    this.options
      .startRun({ conversationId }, (e) => this.onPipelineEvent(turn, e))
      .then(
        (run) => {
          turn.opening = false;
          if (turn.done || this.closed) return run.cancel();
          turn.run = run;
          for (const pcm of turn.queued) run.sendAudio(pcm);
          turn.queued = [];
          turn.queuedSamples = 0;
          if (turn.speechEnded) run.endAudio();
        },
        (err: { code?: string; message?: string }) => {
          turn.opening = false;
          this.fail(turn, { code: String(err?.code ?? 'unavailable'), message: String(err?.message ?? err) });
        },
      );
  }

  private onPipelineEvent(turn: Turn, e: PipelineEvent): void {
    if (turn.done || this.closed) return;
    const data = e.data ?? {};
    switch (e.type) {
      case 'run-start':
        if (typeof data.conversation_id === 'string' && data.conversation_id) turn.conversationId = data.conversation_id;
        if (data.tts_output?.url && data.tts_output?.stream_response) turn.streamUrl = { url: data.tts_output.url, mimeType: data.tts_output.mime_type };
        break;
      case 'stt-vad-end':
        this.endSpeech();
        break;
      case 'stt-end': {
        turn.speechEnded = true;
        const text = String(data.stt_output?.text ?? '');
        this.options.conversation.display(text);
        // Home Assistant names the conversation in run-start, the first turn's too.
        const conversationId = turn.conversationId ?? this.conversationId;
        this.emit({ topic: 'transcript', payload: { text, role: 'user', ...(conversationId ? { conversationId } : {}) } });
        break;
      }
      case 'intent-progress':
        if (data.tts_start_streaming && turn.streamUrl) this.play(turn, turn.streamUrl);
        break;
      case 'intent-end': {
        const output = data.intent_output ?? {};
        turn.answerText = String(output.response?.speech?.plain?.speech ?? '');
        const id = typeof output.conversation_id === 'string' ? output.conversation_id : undefined;
        const follow = output.continue_conversation === true && this.options.continueConversation !== false;
        this.conversationId = follow ? id : undefined;
        this.emit({ topic: 'transcript', payload: { text: turn.answerText, role: 'assistant', ...(id ? { conversationId: id } : {}) } });
        break;
      }
      case 'tts-end':
        if (data.tts_output?.url) this.play(turn, { url: data.tts_output.url, mimeType: data.tts_output.mime_type });
        break;
      case 'error':
        this.fail(turn, { code: String(data.code ?? 'error'), message: String(data.message ?? 'the pipeline failed') });
        break;
      case 'run-end':
        if (!turn.ttsStarted) turn.done = true;
        break;
    }
  }

  /** Plays the answer once (the streamed URL or the one tts-end names). */
  private play(turn: Turn, tts: { url: string; mimeType?: string }): void {
    if (turn.ttsStarted) return;
    turn.ttsStarted = true;
    const answer = this.options.conversation.beginSpeech({ sentence: turn.answerText || undefined });
    this.answer = answer;
    const fetching = new AbortController();
    this.fetching = fetching;
    this.options
      .playAnswer(tts, (audio) => answer.push(audio), fetching.signal)
      .then(
        () => answer.end(),
        (err: Error) => {
          answer.cancel('failed');
          if (!fetching.signal.aborted) this.emit({ topic: 'assist_error', payload: { code: 'tts-audio-failed', message: err.message } });
          return answer.end();
        },
      )
      .then((result) => {
        if (this.answer === answer) this.answer = undefined;
        turn.done = true;
        this.emit({ topic: 'answer', payload: result });
      });
  }

  private fail(turn: Turn, error: AssistErrorInfo): void {
    if (turn.done) return;
    turn.done = true;
    turn.run?.cancel();
    this.emit({ topic: 'assist_error', payload: error });
    if (this.closed || turn.ttsStarted) return;
    // The device hears that it did not work, and goes back as `tts stop` puts it.
    const tone = this.options.conversation.beginSpeech({ sentence: 'Sorry, that did not work.' });
    tone.push(errorTone());
    void tone.end();
  }

  private stopAnswer(reason: string): void {
    this.fetching?.abort();
    this.fetching = undefined;
    const answer = this.answer;
    this.answer = undefined;
    if (answer) answer.cancel(reason);
  }

  private emit(event: AssistBridgeEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // a listener's failure is not the conversation's
    }
  }
}

/** Two short falling beeps (about 0.4 s), the sound of "that did not work". */
export function errorTone(): PcmAudio {
  const beep = (hz: number, ms: number) =>
    Int16Array.from({ length: (RATE * ms) / 1000 }, (_, i) =>
      Math.round(Math.sin((2 * Math.PI * hz * i) / RATE) * 8000 * Math.min(1, i / 160, ((RATE * ms) / 1000 - i) / 160)),
    );
  const gap = new Int16Array((RATE * 60) / 1000);
  const a = beep(660, 160);
  const b = beep(440, 200);
  const out = new Int16Array(a.length + gap.length + b.length);
  out.set(a, 0);
  out.set(gap, a.length);
  out.set(b, a.length + gap.length);
  return { samples: out, sampleRate: RATE };
}
