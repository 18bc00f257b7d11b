// Reading flow JSON values the way the editor writes them: numbers as numbers or numeric strings,
// text trimmed, with `${VAR}` expanded where the setting may come from a tab variable.
import { expandEnv, type EnvLookup } from './env-expand';

/** Blank means "use the default"; anything not a finite number falls back too. */
export function numberSetting(value: unknown, fallback: number | undefined): number | undefined {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : fallback;
}

/** Multi-line settings (include/exclude/expected/tokens/allow lists): one entry per non-blank line. */
export function lines(value: unknown): string[] {
  if (Array.isArray(value))
    return value
      .map(String)
      .map((s) => s.trim())
      .filter(Boolean);
  return typeof value === 'string'
    ? value
        .split(/\r?\n/)
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
}

/**
 * A text setting: trimmed, a number written as its digits, anything else blank. Given a lookup,
 * `${VAR}` and `${VAR:-default}` inside it are expanded (Node-RED itself replaces only a value that
 * is nothing but one `${VAR}`).
 */
export function textSetting(value: unknown, lookup?: EnvLookup): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  return (lookup ? expandEnv(text, lookup) : text).trim();
}
