// The tool schema compiler: MCP tools -> the declarations each LLM provider accepts (SPEC §2
// "Transformation rules"). Pure functions: no Node-RED, no I/O.
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
  const text = own || EMPTY_DESCRIPTION;
  if (notes.length === 0) return text;
  return [/[.!?)]$/.test(text) ? text : `${text}.`, ...notes].join(' ');
}

interface Prepared {
  tool: Tool;
  declared: string;
  warn: Warn;
}

/** One JSON-Schema parameters object per tool, for the targets that take JSON Schema. */
function jsonSchemaParameters(tool: Tool, warn: Warn, target: 'gemini' | 'gemini-schema' | 'openai' | 'anthropic'): { schema: JsonObject; notes: string[] } {
  const { schema } = cleanJsonSchema(tool.inputSchema, warn);
  if (target === 'gemini') return { schema, notes: [] };
  const flat = flattenRoot(schema, warn);
  if (target !== 'gemini-schema') addMissingItems(flat.schema);
  return flat;
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
  const warnings: CompileWarning[] = [];
  const nameMap = declaredNameMap(tools.map((t) => t.name), options);
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
      warnings.push({ tool: tool.name, path: '$', message: `tool name declared as "${declared}" (allowed: letters, digits, underscore, at most 64, no leading digit)` });
    }
    const warn: Warn = (path, message) => warnings.push({ tool: tool.name, path, message });
    prepared.push({ tool, declared, warn });
  }
  if (format === 'mcp') return { payload: tools, names, warnings };
  let payload: unknown;
  switch (format) {
    case 'gemini':
      payload = {
        functionDeclarations: prepared.map(({ tool, declared, warn }) => ({
          name: declared,
          description: descriptionOf(tool, []),
          parametersJsonSchema: jsonSchemaParameters(tool, warn, 'gemini').schema,
        })),
      };
      break;
    case 'gemini-schema':
      payload = {
        functionDeclarations: prepared.map(({ tool, declared, warn }) => {
          const { schema, notes } = jsonSchemaParameters(tool, warn, 'gemini-schema');
          return { name: declared, description: descriptionOf(tool, notes), parameters: toGeminiSchema(schema, '$', { warn }) };
        }),
      };
      break;
    case 'openai':
      payload = prepared.map(({ tool, declared, warn }) => {
        const { schema, notes } = jsonSchemaParameters(tool, warn, 'openai');
        return { type: 'function', function: { name: declared, description: descriptionOf(tool, notes), parameters: schema } };
      });
      break;
    case 'anthropic':
      payload = prepared.map(({ tool, declared, warn }) => {
        const { schema, notes } = jsonSchemaParameters(tool, warn, 'anthropic');
        return { name: declared, description: descriptionOf(tool, notes), input_schema: schema };
      });
      break;
    default:
      throw new TypeError(`unknown tool format ${JSON.stringify(format)}; use one of ${TOOL_FORMATS.join(', ')}`);
  }
  return { payload, names, warnings };
}
