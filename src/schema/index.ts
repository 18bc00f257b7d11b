// The tool schema compiler: MCP tools -> the declarations each LLM provider accepts (the
// rules the mcp-list-tools help lists under Details: nodes/mcp-list-tools/help.html). Pure functions: no Node-RED, no I/O.
import type { Tool } from '@modelcontextprotocol/client';
import { cleanJsonSchema } from './clean-json-schema';
import { flattenRoot } from './flatten-root';
import { toGeminiSchema } from './gemini-schema';
import { declaredNameMap } from './names';
import { setOwn, type CompileWarning, type JsonObject, type Warn } from './types';

export type { CompileWarning } from './types';
export { declareNames } from './names';
export { restoreArgumentNames } from './argument-names';
export { validateDeclarations, type ValidationTarget } from './validate';

export type ToolFormat = 'mcp' | 'gemini' | 'gemini-schema' | 'openai' | 'anthropic';

export const TOOL_FORMATS: readonly ToolFormat[] = ['mcp', 'gemini', 'gemini-schema', 'openai', 'anthropic'];

export interface CompiledTools {
  /** mcp: the raw tools array; gemini & gemini-schema: ONE Tool {functionDeclarations:[…]}; openai: [{type:"function",function:{…}}]; anthropic: [{name,description,input_schema}] */
  payload: unknown;
  /** Every declared name -> its MCP tool name (for every format, mcp included). */
  names: Record<string, string>;
  warnings: CompileWarning[];
}

export interface CompileOptions {
  prefix?: string;
}

export const EMPTY_DESCRIPTION = 'No description provided';

export function isToolFormat(x: unknown): x is ToolFormat {
  return typeof x === 'string' && (TOOL_FORMATS as readonly string[]).includes(x);
}

function descriptionOf(tool: Tool, notes: string[]): string {
  const own = typeof tool.description === 'string' ? tool.description.trim() : '';
  // A tool without a description may still have a title (MCP 2025-06-18+; Home Assistant 2026.10
  // sets one on some tools): better words for the model than none.
  const title = typeof (tool as { title?: unknown }).title === 'string' ? (tool as { title: string }).title.trim() : '';
  const text = own || title || EMPTY_DESCRIPTION;
  if (notes.length === 0) return text;
  return [/[.!?)]$/.test(text) ? text : `${text}.`, ...notes].join(' ');
}

interface Prepared {
  tool: Tool;
  declared: string;
  warn: Warn;
}

type Target = Exclude<ToolFormat, 'mcp'>;

/** The parameters schema for one tool in the target's dialect, plus sentences for its description. */
function parametersFor(tool: Tool, warn: Warn, target: Target): { schema: JsonObject; notes: string[] } {
  const { schema } = cleanJsonSchema(tool.inputSchema, warn);
  if (target === 'gemini') return { schema, notes: [] };
  const flat = flattenRoot(schema, warn);
  if (target === 'gemini-schema') return { schema: toGeminiSchema(flat.schema, '$', { warn }), notes: flat.notes };
  addMissingItems(flat.schema);
  return flat;
}

/** One odd tool must not cost the whole list: if its schema cannot be compiled, it is declared without parameters. */
function safeParametersFor(tool: Tool, warn: Warn, target: Target): { schema: JsonObject; notes: string[] } {
  try {
    return parametersFor(tool, warn, target);
  } catch (err) {
    warn('$', `input schema could not be compiled (${err instanceof Error ? err.message : String(err)}); declared without parameters`);
    return { schema: target === 'gemini-schema' ? { type: 'OBJECT', properties: {} } : { type: 'object', properties: {} }, notes: [] };
  }
}

/** Azure/OpenAI reject "array schema missing items"; `items: {}` means exactly what the missing keyword meant. */
function addMissingItems(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const s of schema) addMissingItems(s);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const s = schema as JsonObject;
  if ((s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) && s.items === undefined && s.prefixItems === undefined) s.items = {};
  for (const key of Object.keys(s)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples' || key === 'example') continue;
    const v = s[key];
    if (typeof v === 'object' && v !== null) addMissingItems(v);
  }
}

export function compileTools(tools: Tool[], format: ToolFormat, options: CompileOptions = {}): CompiledTools {
  if (!isToolFormat(format)) throw new TypeError(`unknown tool format ${JSON.stringify(format)}; use one of ${TOOL_FORMATS.join(', ')}`);
  const warnings: CompileWarning[] = [];
  const nameMap = declaredNameMap(
    tools.map((t) => t.name),
    options,
  );
  const names: Record<string, string> = {};
  const seen = new Set<string>();
  const prepared: Prepared[] = [];
  for (const tool of tools) {
    const declared = nameMap.get(tool.name) as string;
    if (seen.has(tool.name)) {
      warnings.push({ tool: tool.name, path: '$', message: 'duplicate tool name in the list; only the first one is declared' });
      continue;
    }
    seen.add(tool.name);
    setOwn(names, declared, tool.name);
    if (declared !== tool.name) {
      warnings.push({
        tool: tool.name,
        path: '$',
        message: `tool name declared as "${declared}" (allowed: letters, digits, underscore, at most 64, no leading digit)`,
      });
    }
    const warn: Warn = (path, message) => warnings.push({ tool: tool.name, path, message });
    prepared.push({ tool, declared, warn });
  }
  if (format === 'mcp') return { payload: tools, names, warnings };
  const declarations = prepared.map(({ tool, declared, warn }) => {
    const { schema, notes } = safeParametersFor(tool, warn, format);
    return { name: declared, description: descriptionOf(tool, notes), schema };
  });
  let payload: unknown;
  if (format === 'gemini') {
    payload = { functionDeclarations: declarations.map(({ name, description, schema }) => ({ name, description, parametersJsonSchema: schema })) };
  } else if (format === 'gemini-schema') {
    payload = { functionDeclarations: declarations.map(({ name, description, schema }) => ({ name, description, parameters: schema })) };
  } else if (format === 'openai') {
    payload = declarations.map(({ name, description, schema }) => ({ type: 'function', function: { name, description, parameters: schema } }));
  } else {
    payload = declarations.map(({ name, description, schema }) => ({ name, description, input_schema: schema }));
  }
  return { payload, names, warnings };
}
