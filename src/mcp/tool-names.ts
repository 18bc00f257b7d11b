// Finding tools by name: glob include/exclude filters (minimatch) and "did you mean" suggestions.
import { minimatch } from 'minimatch';
import type { Tool } from './sdk';

export function filterTools(tools: Tool[], include: string[], exclude: string[]): Tool[] {
  const match = (name: string, patterns: string[]) => patterns.some((p) => minimatch(name, p, { nocase: false, dot: true }));
  return tools.filter((t) => (include.length === 0 || match(t.name, include)) && !match(t.name, exclude));
}

/** Up to `max` names closest to `name` (case-insensitive edit distance, substring matches first). */
export function closeMatches(name: string, candidates: string[], max = 3): string[] {
  const n = name.toLowerCase();
  return candidates
    .map((c) => {
      const l = c.toLowerCase();
      const d = l.includes(n) || n.includes(l) ? 0 : editDistance(n, l);
      return { c, d };
    })
    .filter((x) => x.d <= Math.max(3, Math.floor(n.length / 2)))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, max)
    .map((x) => x.c);
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}
