// Compiling 1,000 MCP tools (the Home Assistant fixture repeated with renamed tools) into each
// declaration format, against structuredClone of the same tools measured in the same run.
// Goal: each format ≤ 5× a structured clone. Run: npx tsx bench/schema-compile.ts
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Tool } from '@modelcontextprotocol/client';
import { compileTools, validateDeclarations, type ToolFormat } from '../src/schema';

const TOOL_COUNT = 1000;
const ROUNDS = Number(process.env.ROUNDS ?? 40);
const WARMUP = 10;
const FORMATS: ToolFormat[] = ['mcp', 'gemini', 'gemini-schema', 'openai', 'anthropic'];

// Home Assistant's real tools/list answer, as the HA stand-in serves it.
const fixture = path.resolve(__dirname, '../test/peers/home-assistant/fixtures/tools-list.json');
const haTools: Tool[] = JSON.parse(readFileSync(fixture, 'utf8')).result.tools;
const tools: Tool[] = Array.from({ length: TOOL_COUNT }, (_, i) => {
  const base = haTools[i % haTools.length];
  return { ...structuredClone(base), name: `${base.name}.${Math.floor(i / haTools.length)}` };
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function time(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

// Sanity: what we time is what the tests validate.
for (const format of FORMATS) {
  if (format === 'mcp') continue;
  const problems = validateDeclarations(compileTools(tools, format).payload, format);
  if (problems.length) throw new Error(`${format}: ${problems.slice(0, 3).join('; ')}`);
}

const samples = new Map<string, number[]>([['structuredClone', []], ...FORMATS.map((f) => [f, []] as [string, number[]])]);
let sink = 0;
for (let round = 0; round < WARMUP + ROUNDS; round++) {
  // Interleave the candidates so drift on a shared machine hits them all alike.
  const clone = time(() => (sink += structuredClone(tools).length));
  if (round >= WARMUP) samples.get('structuredClone')!.push(clone);
  for (const format of FORMATS) {
    const t = time(() => (sink += compileTools(tools, format).warnings.length));
    if (round >= WARMUP) samples.get(format)!.push(t);
  }
}

const baseline = median(samples.get('structuredClone')!);
console.log(`schema-compile: ${TOOL_COUNT} tools, ${ROUNDS} rounds (median), node ${process.version}`);
console.log(`${'candidate'.padEnd(18)}${'median ms'.padStart(10)}${'× clone'.padStart(10)}`);
for (const [name, values] of samples) {
  const m = median(values);
  const ratio = m / baseline;
  const verdict = name === 'structuredClone' ? '' : ratio <= 5 ? '  ok (≤ 5×)' : '  OVER GOAL (> 5×)';
  console.log(`${name.padEnd(18)}${m.toFixed(2).padStart(10)}${ratio.toFixed(2).padStart(10)}${verdict}`);
}
if (sink < 0) console.log(sink);
