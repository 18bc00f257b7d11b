// Sample-rate conversion with a windowed-sinc filter (Blackman window). Linear interpolation would
// fold the 8-12 kHz band of 24 kHz speech back into the 16 kHz result as hiss; the sinc low-pass
// at the lower Nyquist frequency keeps it out. Whole buffers: utterances and answers are short.
import { clamp16 } from './wav';

const ZERO_CROSSINGS = 16;

export function resample(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (!(fromRate > 0) || !(toRate > 0)) throw new RangeError(`Cannot resample from ${fromRate} Hz to ${toRate} Hz`);
  if (fromRate === toRate || samples.length === 0) return samples.slice();
  const ratio = fromRate / toRate;
  // Below 1 when downsampling: the filter's cutoff moves down to the new Nyquist frequency.
  const cutoff = Math.min(1, toRate / fromRate) * 0.97;
  const halfWidth = Math.ceil(ZERO_CROSSINGS / cutoff);
  const outLength = Math.floor((samples.length * toRate) / fromRate);
  const out = new Int16Array(outLength);
  for (let i = 0; i < outLength; i++) {
    const center = i * ratio;
    const first = Math.max(0, Math.ceil(center - halfWidth));
    const last = Math.min(samples.length - 1, Math.floor(center + halfWidth));
    let acc = 0;
    let weight = 0;
    for (let j = first; j <= last; j++) {
      const x = j - center;
      const w = cutoff * sinc(cutoff * x) * blackman(x / halfWidth);
      acc += samples[j] * w;
      weight += w;
    }
    // Normalising by the summed weights keeps DC gain exactly 1, also at the buffer's edges.
    out[i] = clamp16(weight !== 0 ? acc / weight : 0);
  }
  return out;
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
