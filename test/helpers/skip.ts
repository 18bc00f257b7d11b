// One way for a spec to skip: say why and what enables it, once, and have it counted. Every
// reason lands in a process-wide list that test/helpers/reporter.cjs prints under the run's summary,
// so a skip is never silent (npm test installs everything npm can bring; what remains is Debian's).
export interface SkipReason {
  what: string;
  reason: string;
}

const registry: SkipReason[] = ((globalThis as any).__mcpGeminiSkips ??= []);

/** Skips the calling suite or test, naming `what` is skipped and why. */
export function skipBecause(ctx: Mocha.Context, what: string, reason: string): never {
  registry.push({ what, reason });
  console.log(`    SKIPPED ${what}: ${reason}`);
  return ctx.skip();
}
