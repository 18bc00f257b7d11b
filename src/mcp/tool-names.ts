// Finding tools by name: globs (include/exclude filters, the agent's approval list) that match a
// tool by its full name or by the names it had before its server renamed it (./tool-renames.ts),
// and "did you mean" suggestions.
import { minimatch } from 'minimatch';
import type { Tool } from './protocol/sdk';
import { otherForms } from './tool-renames';

export { missingNames, namesTool, otherForms, resolveToolName, type NameResolution } from './tool-renames';

const GLOB = { nocase: false, dot: true } as const;
const hasLiteral = (pattern: string) => /[^*?[\]{}!(),|@+]/.test(pattern);

/**
 * True when the glob `pattern` matches `toolName` or one of its other forms (`Hass*` matches
 * `intent__HassTurnOn`), or when the pattern without its literal integration prefix matches the
 * name (`intent__HassTurnOn` on a server that still calls it `HassTurnOn`). A pattern whose rest is
 * only wildcards (`light__*`) does not widen to every tool of an older server.
 */
export function globMatchesTool(pattern: string, toolName: string): boolean {
  if (minimatch(toolName, pattern, GLOB)) return true;
  if (otherForms(toolName).some((form) => minimatch(form, pattern, GLOB))) return true;
  return otherForms(pattern).some((form) => hasLiteral(form) && minimatch(toolName, form, GLOB));
}

export function filterTools(tools: Tool[], include: string[], exclude: string[]): Tool[] {
  const match = (name: string, patterns: string[]) => patterns.some((p) => globMatchesTool(p, name));
  return tools.filter((t) => (include.length === 0 || match(t.name, include)) && !match(t.name, exclude));
}

/**
 * Up to `max` names closest to `name` (case-insensitive edit distance, substring matches first),
 * each candidate measured by its closest form (`HassTurnOnn` is one letter from `intent__HassTurnOn`).
 */
export function closeMatches(name: string, candidates: string[], max = 3): string[] {
  const n = name.toLowerCase();
  const distance = (form: string) => {
    const l = form.toLowerCase();
    return l.includes(n) || n.includes(l) ? 0 : editDistance(n, l);
  };
  return candidates
    .map((c) => ({ c, d: Math.min(distance(c), ...otherForms(c).map(distance)) }))
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
