// The wire data the stand-in serves, one set per Home Assistant generation users still run, copied
// into the repo so a fresh clone can run the tests: fixtures/ is Home Assistant before 2026.9
// (unprefixed tool names), fixtures/2026.10/ is 2026.9 and later (every tool named
// `<integration>__<tool>`, `title`, `annotations` and `required` per tool, ToolResult texts, the
// context-snapshot resource), each reconstructed from Home Assistant's source and release notes.
// Keys starting with "_" are provenance notes, never sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface JsonRpcRequestLike {
  jsonrpc: '2.0';
  id?: string | number;
  method: string;
  params?: Record<string, unknown>;
}

export interface HaTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

export interface HaCallResult {
  content: Array<{ type: 'text'; text: string }>;
  isError: boolean;
}

export interface HaCallExample {
  title: string;
  request: { jsonrpc: '2.0'; id: number; method: 'tools/call'; params: { name: string; arguments: Record<string, unknown> } };
  response: { jsonrpc: '2.0'; id: number; result: HaCallResult };
}

interface ProtocolExample {
  title: string;
  request: JsonRpcRequestLike;
  response: { result?: Record<string, unknown>; error?: Record<string, unknown> } | null;
}

/** The Home Assistant generations users still run; the fixtures hold both. */
const ALL_HA_GENERATIONS = ['pre-2026.9', '2026.10'] as const;
export type HaGeneration = (typeof ALL_HA_GENERATIONS)[number];

/**
 * The generations this run covers: every HA spec runs once per entry. All of them, unless
 * TEST_HA_GENERATIONS names some: `npm test` runs both on Node 22 and only the newest again on
 * its second runtime (whose subject is the runtime, not Home Assistant); `npm run test:all` and CI
 * run both everywhere.
 */
export const HA_GENERATIONS: readonly HaGeneration[] = generationsOfThisRun(process.env.TEST_HA_GENERATIONS);

function generationsOfThisRun(named: string | undefined): readonly HaGeneration[] {
  if (!named) return ALL_HA_GENERATIONS;
  const chosen = named.split(',').map((g) => g.trim());
  const unknown = chosen.filter((g) => !(ALL_HA_GENERATIONS as readonly string[]).includes(g));
  if (unknown.length) throw new Error(`TEST_HA_GENERATIONS names ${unknown.join(', ')}; known: ${ALL_HA_GENERATIONS.join(', ')}`);
  return ALL_HA_GENERATIONS.filter((g) => chosen.includes(g));
}

const fixtureRoot = join(__dirname, 'fixtures');
const fixtureDirs: Record<HaGeneration, string> = { 'pre-2026.9': fixtureRoot, '2026.10': join(fixtureRoot, '2026.10') };

function readFixture(dir: string, name: string): Record<string, unknown> {
  return stripNotes(JSON.parse(readFileSync(join(dir, name), 'utf8'))) as Record<string, unknown>;
}

function stripNotes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNotes);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (!key.startsWith('_')) out[key] = stripNotes(inner);
  return out;
}

export interface HaFixtureSet {
  generation: HaGeneration;
  /** The 19 tools of the fixture home, in that generation's order. */
  tools: readonly HaTool[];
  /** tools/call request/response pairs (successes and failures). */
  callExamples: readonly HaCallExample[];
  initializeResult: Record<string, unknown>;
  promptsListResult: Record<string, unknown>;
  assistPromptResult: Record<string, unknown>;
  resourcesListResult: Record<string, unknown>;
  /** resources/read answers the fixture gives, by URI. */
  resourceReads: ReadonlyMap<string, Record<string, unknown>>;
}

function loadSet(generation: HaGeneration): HaFixtureSet {
  const dir = fixtureDirs[generation];
  const toolsList = readFixture(dir, 'tools-list.json') as { result: { tools: HaTool[] } };
  const examples = readFixture(dir, 'tools-call-examples.json') as { protocol: ProtocolExample[]; tools_call: HaCallExample[] };
  const protocolResult = (method: string): Record<string, unknown> => {
    const example = examples.protocol.find((e) => e.request.method === method && e.response?.result);
    if (!example?.response?.result) throw new Error(`fixture ${generation} has no ${method} result`);
    return example.response.result;
  };
  const resourceReads = new Map<string, Record<string, unknown>>();
  for (const e of examples.protocol) {
    if (e.request.method === 'resources/read' && e.response?.result) resourceReads.set(String(e.request.params?.uri), e.response.result);
  }
  return {
    generation,
    tools: toolsList.result.tools,
    callExamples: examples.tools_call,
    initializeResult: protocolResult('initialize'),
    promptsListResult: protocolResult('prompts/list'),
    assistPromptResult: protocolResult('prompts/get'),
    resourcesListResult: protocolResult('resources/list'),
    resourceReads,
  };
}

const sets = new Map<HaGeneration, HaFixtureSet>();

/** The wire data of one Home Assistant generation. */
export function haFixtures(generation: HaGeneration = 'pre-2026.9'): HaFixtureSet {
  let set = sets.get(generation);
  if (!set) sets.set(generation, (set = loadSet(generation)));
  return set;
}

/** The 19 tools of the pre-2026.9 fixture home, in HA's order. */
export const haTools: readonly HaTool[] = haFixtures().tools;

/** The pre-2026.9 fixture's tools/call request/response pairs (successes and failures). */
export const haCallExamples: readonly HaCallExample[] = haFixtures().callExamples;

/**
 * The name a generation gives a tool of the fixture home: `haToolName('2026.10', 'HassTurnOn')` is
 * `intent__HassTurnOn`, before 2026.9 it is `HassTurnOn` (and `todo_get_items` ↔ `todo__get_items`).
 * Looked up in the fixture itself, so a test states what that Home Assistant really calls it.
 */
export function haToolName(generation: HaGeneration, name: string): string {
  const bare = name.replace(/^[a-z_]+?__/, '');
  const tools = haFixtures(generation).tools;
  const found =
    tools.find((t) => t.name === name) ??
    tools.find((t) => t.name.endsWith(`__${bare}`)) ??
    tools.find((t) => t.name.replace('__', '_') === name || t.name === name.replace('__', '_'));
  if (!found) throw new Error(`the ${generation} fixture has no tool for ${name}`);
  return found.name;
}
