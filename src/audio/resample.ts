// Sample-rate conversion with a windowed-sinc filter (Blackman window). Linear interpolation would
// fold the 8-12 kHz band of 24 kHz speech back into the 16 kHz result as hiss; the sinc low-pass
// at the lower Nyquist frequency keeps it out.
//
// The filter's weights depend only on where an output sample falls between two input samples, and
// for the rates we meet (16, 22.05, 24, 44.1, 48 kHz) that position takes a few hundred values at
// most (to / gcd(from, to)), so they are computed once per rate pair: a dot product per output
// sample instead of ~34 sines and cosines. `StreamResampler` converts as the input arrives and
// only as much as is asked for, so a long answer's first frame does not wait for its last.
import { clamp16 } from './wav';

const ZERO_CROSSINGS = 16;
/** Above this many phases a table costs more than it saves: weights are computed per sample. */
const MAX_PHASES = 4096;

export function resample(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (!(fromRate > 0) || !(toRate > 0)) throw new RangeError(`Cannot resample from ${fromRate} Hz to ${toRate} Hz`);
  if (fromRate === toRate || samples.length === 0) return samples.slice();
  const stream = new StreamResampler(fromRate, toRate);
  stream.push(samples);
  stream.end();
  return stream.take(Infinity);
}

/** Resampling as the input arrives: output is handed out once every input it depends on is in. */
export class StreamResampler {
  private readonly kernel: SincKernel;
  /** input samples still needed; `base` is the input index of source[0] */
  private source = new Int16Array(0);
  private base = 0;
  private received = 0;
  private next = 0;
  private ended = false;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    if (!(fromRate > 0) || !(toRate > 0)) throw new RangeError(`Cannot resample from ${fromRate} Hz to ${toRate} Hz`);
    this.kernel = kernelFor(fromRate, toRate);
  }

  push(samples: Int16Array): void {
    if (this.ended) throw new Error('StreamResampler: push after end');
    if (!samples.length) return;
    // Input before the next output's window is never read again.
    const keepFrom = Math.max(this.base, Math.min(this.received, this.kernel.firstInput(this.next)));
    const kept = this.source.subarray(keepFrom - this.base, this.received - this.base);
    const joined = new Int16Array(kept.length + samples.length);
    joined.set(kept, 0);
    joined.set(samples, kept.length);
    this.source = joined;
    this.base = keepFrom;
    this.received += samples.length;
  }

  end(): void {
    this.ended = true;
  }

  /** True once the input has ended and every output sample was taken. */
  get drained(): boolean {
    return this.ended && this.next >= this.total();
  }

  /** Up to `max` output samples whose inputs have all arrived (all that remain after `end()`). */
  take(max: number): Int16Array {
    const end = Math.min(this.total(), this.ended ? Infinity : this.kernel.readyBefore(this.received), this.next + max);
    const count = Math.max(0, end - this.next);
    const out = new Int16Array(count);
    for (let k = 0; k < count; k++) out[k] = this.kernel.output(this.source, this.base, this.received, this.next + k);
    this.next += count;
    return out;
  }

  private total(): number {
    return this.ended ? Math.floor((this.received * this.toRate) / this.fromRate) : Infinity;
  }
}

/** The filter for one rate pair: for output i, the input window and its weights. */
interface SincKernel {
  firstInput(i: number): number;
  /** The first output that needs input past `received` samples (everything before it is ready). */
  readyBefore(received: number): number;
  /** Output sample i from input held in `source` (input index `base` first, `received` in all). */
  output(source: Int16Array, base: number, received: number, i: number): number;
}

const kernels = new Map<string, SincKernel>();

/** Kernels are shared: every answer from the same TTS engine uses the same rate pair. */
function kernelFor(fromRate: number, toRate: number): SincKernel {
  const key = `${fromRate}>${toRate}`;
  let kernel = kernels.get(key);
  if (!kernel) kernels.set(key, (kernel = buildKernel(fromRate, toRate)));
  return kernel;
}

function buildKernel(fromRate: number, toRate: number): SincKernel {
  // Below 1 when downsampling: the filter's cutoff moves down to the new Nyquist frequency.
  const cutoff = Math.min(1, toRate / fromRate) * 0.97;
  const halfWidth = Math.ceil(ZERO_CROSSINGS / cutoff);
  const weight = (x: number) => cutoff * sinc(cutoff * x) * blackman(x / halfWidth);
  if (!Number.isInteger(fromRate) || !Number.isInteger(toRate)) return directKernel(fromRate / toRate, halfWidth, weight);
  const g = gcd(fromRate, toRate);
  const phases = toRate / g;
  const step = fromRate / g;
  if (phases > MAX_PHASES) return directKernel(fromRate / toRate, halfWidth, weight);

  // Output i sits at input position q + p / phases, q = floor(i * step / phases), p the remainder.
  const offsets: number[] = [];
  const tables: Float64Array[] = [];
  for (let p = 0; p < phases; p++) {
    const frac = p / phases;
    const first = Math.ceil(frac - halfWidth);
    const last = Math.floor(frac + halfWidth);
    offsets.push(first);
    tables.push(Float64Array.from({ length: last - first + 1 }, (_, k) => weight(first + k - frac)));
  }
  return {
    firstInput: (i) => Math.max(0, Math.floor((i * step) / phases) - halfWidth),
    // Output i reads up to input floor(i * step / phases) + halfWidth, which must be < received.
    readyBefore: (received) => Math.max(0, Math.ceil(((received - halfWidth) * phases) / step)),
    output(source, base, received, i) {
      const pos = i * step;
      const q = Math.floor(pos / phases);
      const p = pos - q * phases;
      const w = tables[p];
      const start = q + offsets[p];
      const from = Math.max(0, start);
      const to = Math.min(received - 1, start + w.length - 1);
      let acc = 0;
      let sum = 0;
      for (let j = from; j <= to; j++) {
        const k = w[j - start];
        acc += source[j - base] * k;
        sum += k;
      }
      // Normalising by the summed weights keeps DC gain exactly 1, also at the buffer's edges.
      return clamp16(sum !== 0 ? acc / sum : 0);
    },
  };
}

/** Rates without a small common period (e.g. 44100 → 16001): weights computed per sample. */
function directKernel(ratio: number, halfWidth: number, weight: (x: number) => number): SincKernel {
  return {
    firstInput: (i) => Math.max(0, Math.ceil(i * ratio - halfWidth)),
    // Output i reads up to input floor(i * ratio + halfWidth), which must be < received.
    readyBefore: (received) => Math.max(0, Math.ceil((received - halfWidth) / ratio)),
    output(source, base, received, i) {
      const center = i * ratio;
      const from = Math.max(0, Math.ceil(center - halfWidth));
      const to = Math.min(received - 1, Math.floor(center + halfWidth));
      let acc = 0;
      let sum = 0;
      for (let j = from; j <= to; j++) {
        const k = weight(j - center);
        acc += source[j - base] * k;
        sum += k;
      }
      return clamp16(sum !== 0 ? acc / sum : 0);
    },
  };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

/** Blackman window over [-1, 1]. */
function blackman(t: number): number {
  if (t <= -1 || t >= 1) return 0;
  const a = Math.PI * (t + 1);
  return 0.42 - 0.5 * Math.cos(a) + 0.08 * Math.cos(2 * a);
}
