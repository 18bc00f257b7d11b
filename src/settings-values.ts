// Reading flow JSON values the way the editor writes them: numbers as numbers or numeric strings.

/** Blank means "use the default"; anything not a finite number falls back too. */
export function numberSetting(value: unknown, fallback: number | undefined): number | undefined {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : fallback;
}
