// A small energy voice-activity detector for `auto` listening, where the device never ends the
// person's turn and the server must (xiaozhi firmware: only the server's VAD ends auto turns).
// Per 20 ms window: loud enough above an adaptive noise floor = voice. A turn ends after
// `silenceMs` of no voice that followed at least `minSpeechMs` of voice.
export interface VadOptions {
  sampleRate: number;
  /** silence after speech that ends the turn (ms) */
  silenceMs?: number;
  /** voice needed before a turn counts as speech (ms) */
  minSpeechMs?: number;
  /** how far above the noise floor voice must be (dB) */
  marginDb?: number;
  /** never voice below this level (dBFS) */
  minDbfs?: number;
}

export type VadEvent = 'speech-start' | 'speech-end';

export class EnergyVad {
  private readonly window: number;
  private readonly silenceMs: number;
  private readonly minSpeechMs: number;
  private readonly marginDb: number;
  private readonly minDbfs: number;
  private noiseDb = -60;
  private carry: number[] = [];
  private voicedMs = 0;
  private silentMs = 0;
  private speaking = false;

  constructor(options: VadOptions) {
    this.window = Math.max(1, Math.round(options.sampleRate / 50));
    this.silenceMs = options.silenceMs ?? 700;
    this.minSpeechMs = options.minSpeechMs ?? 200;
    this.marginDb = options.marginDb ?? 12;
    this.minDbfs = options.minDbfs ?? -45;
  }

  get inSpeech(): boolean {
    return this.speaking;
  }

  /** Feeds samples; returns the events they caused, in order. */
  push(samples: Int16Array): VadEvent[] {
    const events: VadEvent[] = [];
    let i = 0;
    if (this.carry.length) {
      const need = this.window - this.carry.length;
      for (; i < need && i < samples.length; i++) this.carry.push(samples[i]);
      if (this.carry.length < this.window) return events;
      this.windowDone(Int16Array.from(this.carry), events);
      this.carry = [];
    }
    for (; i + this.window <= samples.length; i += this.window) this.windowDone(samples.subarray(i, i + this.window), events);
    for (; i < samples.length; i++) this.carry.push(samples[i]);
    return events;
  }

  reset(): void {
    this.carry = [];
    this.voicedMs = 0;
    this.silentMs = 0;
    this.speaking = false;
  }

  private windowDone(w: Int16Array, events: VadEvent[]): void {
    let sum = 0;
    for (let k = 0; k < w.length; k++) sum += w[k] * w[k];
    const db = 10 * Math.log10(sum / w.length / (32768 * 32768) + 1e-12);
    const voiced = db > this.minDbfs && db > this.noiseDb + this.marginDb;
    // The floor follows quiet windows quickly and loud ones slowly, so speech does not raise it.
    this.noiseDb += (db - this.noiseDb) * (voiced ? 0.002 : db < this.noiseDb ? 0.3 : 0.05);
    if (voiced) {
      this.voicedMs += 20;
      this.silentMs = 0;
      if (!this.speaking && this.voicedMs >= this.minSpeechMs) {
        this.speaking = true;
        events.push('speech-start');
      }
    } else {
      this.silentMs += 20;
      if (!this.speaking && this.silentMs >= this.silenceMs) this.voicedMs = 0;
      if (this.speaking && this.silentMs >= this.silenceMs) {
        this.speaking = false;
        this.voicedMs = 0;
        events.push('speech-end');
      }
    }
  }
}
