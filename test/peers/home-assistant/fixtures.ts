// The wire data the stand-in serves, copied from ../shared/fixtures/home-assistant/ into the repo so
// a fresh clone can run the tests. Keys starting with "_" are provenance notes, never sent.
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
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Record<string, unknown>> };
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

const fixtureDir = join(__dirname, 'fixtures');

function readFixture(name: string): Record<string, unknown> {
  return stripNotes(JSON.parse(readFileSync(join(fixtureDir, name), 'utf8'))) as Record<string, unknown>;
}

function stripNotes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNotes);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (!key.startsWith('_')) out[key] = stripNotes(inner);
  return out;
}

const toolsList = readFixture('tools-list.json') as { result: { tools: HaTool[] } };
const examples = readFixture('tools-call-examples.json') as { protocol: ProtocolExample[]; tools_call: HaCallExample[] };

/** The 19 tools of the fixture home, in HA's order. */
export const haTools: readonly HaTool[] = toolsList.result.tools;

/** The fixture's tools/call request/response pairs (successes and failures). */
export const haCallExamples: readonly HaCallExample[] = examples.tools_call;

function protocolResult(method: string, predicate: (e: ProtocolExample) => boolean = () => true): Record<string, unknown> {
  const example = examples.protocol.find((e) => e.request.method === method && e.response?.result && predicate(e));
  if (!example?.response?.result) throw new Error(`fixture has no ${method} result`);
  return example.response.result;
}

export const haInitializeResult = protocolResult('initialize');
export const haPromptsListResult = protocolResult('prompts/list');
export const haAssistPromptResult = protocolResult('prompts/get');
export const haResourcesListResult = protocolResult('resources/list');
