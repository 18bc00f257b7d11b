// Tool names across renames. Servers rename their tools: Home Assistant 2026.9 put the integration
// in front of every name (`HassTurnOn` → `intent__HassTurnOn`, `todo_get_items` → `todo__get_items`,
// and `assist__intent__HassTurnOn` when several LLM APIs are served at once). A name a user wrote
// must keep meaning the same tool across such a rename, in both directions (an old name on a new
// server, a new name on an old server), and a bare name that fits more than one tool is never
// guessed. No dependencies: the dialogs use the same rule as the runtime.

/** One integration prefix: a lower-case identifier (`intent`, `media_player`) followed by `__`. */
const INTEGRATION_PREFIX = /^([a-z0-9]+(?:_[a-z0-9]+)*)__(?=[^_])/;

/**
 * The other names a tool is known by: without each of its integration prefixes
 * (`assist__intent__HassTurnOn` → `intent__HassTurnOn`, `HassTurnOn`), and with the innermost prefix
 * joined by one underscore, as the tools were called before the prefixes came (`todo__get_items` →
 * `todo_get_items`). A name without a prefix has no other forms.
 */
export function otherForms(name: string): string[] {
  const forms: string[] = [];
  let rest = name;
  let m: RegExpExecArray | null;
  while ((m = INTEGRATION_PREFIX.exec(rest))) {
    const last = !INTEGRATION_PREFIX.test(rest.slice(m[0].length));
    if (last) forms.push(`${m[1]}_${rest.slice(m[0].length)}`);
    rest = rest.slice(m[0].length);
    forms.push(rest);
  }
  return forms;
}

/** True when `written` names `toolName`: the same, or one is the other without integration prefixes. */
export function namesTool(written: string, toolName: string): boolean {
  return written === toolName || otherForms(toolName).includes(written) || otherForms(written).includes(toolName);
}

export type NameResolution<T extends { name: string }> =
  { kind: 'found'; tool: T; renamed: boolean } | { kind: 'ambiguous'; candidates: T[] } | { kind: 'missing' };

/**
 * The one tool `written` names: the exact name first; otherwise the only tool it names through a
 * rename. Several candidates are reported, never guessed between.
 */
export function resolveToolName<T extends { name: string }>(written: string, tools: readonly T[]): NameResolution<T> {
  const exact = tools.find((t) => t.name === written);
  if (exact) return { kind: 'found', tool: exact, renamed: false };
  const candidates = tools.filter((t) => namesTool(written, t.name));
  if (candidates.length === 1) return { kind: 'found', tool: candidates[0], renamed: true };
  if (candidates.length > 1) return { kind: 'ambiguous', candidates };
  return { kind: 'missing' };
}

/** The names of `expected` that name none of `toolNames` (through renames too). */
export function missingNames(expected: string[], toolNames: string[]): string[] {
  return expected.filter((e) => !toolNames.some((n) => namesTool(e, n)));
}
