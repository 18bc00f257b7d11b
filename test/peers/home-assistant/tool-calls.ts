// How HA answers tools/call: a fixture pair when the fixture has one for exactly these arguments,
// otherwise the same rules HA and its Python MCP SDK apply (fixtures/2026.10/NOTES.md in the shared
// fixtures, §1 and §3, for both generations):
// unknown tool -> "Error calling tool: Tool "X" not found", arguments checked against the advertised
// inputSchema first ("Input validation error: <jsonschema text>"), extra keys rejected only by
// non-intent tools, and every failure is a result with isError:true, never a JSON-RPC error.
import { isDeepStrictEqual } from 'node:util';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { HaCallResult, HaFixtureSet, HaTool } from './fixtures';
import { pythonJsonDumps, pythonRepr } from './python-json';

const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: false });

/** The tools/call answers of one generation's Home Assistant. */
export function toolCallAnswerer(fixtures: HaFixtureSet): (name: string, args: Record<string, unknown>) => HaCallResult {
  const validators = new Map<string, ValidateFunction>(fixtures.tools.map((t) => [t.name, ajv.compile(t.inputSchema)]));
  return (name, args) => {
    const example = fixtures.callExamples.find((e) => e.request.params.name === name && isDeepStrictEqual(e.request.params.arguments, args));
    if (example) return structuredClone(example.response.result);

    const tool = fixtures.tools.find((t) => t.name === name);
    if (!tool) return toolError(`Error calling tool: Tool "${name}" not found`);

    const validate = validators.get(name);
    if (validate && !validate(args)) return toolError(`Input validation error: ${jsonschemaMessage(firstError(validate.errors), args)}`);

    return isIntentTool(tool) ? intentSuccess(args) : nonIntentResult(tool, args, fixtures.generation !== 'pre-2026.9');
  };
}

/** Intent tools: `HassTurnOn` before 2026.9, `intent__HassTurnOn` / `light__HassLightSet` after. */
function isIntentTool(tool: HaTool): boolean {
  return /^(?:[a-z_]+__)?Hass/.test(tool.name);
}

function intentSuccess(args: Record<string, unknown>): HaCallResult {
  const success: Array<{ name: string; type: string; id: string }> = [];
  if (typeof args.area === 'string') success.push({ name: args.area, type: 'area', id: slug(args.area) });
  if (typeof args.name === 'string') {
    const domain = Array.isArray(args.domain) && typeof args.domain[0] === 'string' ? args.domain[0] : 'light';
    success.push({ name: args.name, type: 'entity', id: `${domain}.${slug(args.name)}` });
  }
  return toolText({ speech: {}, response_type: 'action_done', data: { success, failed: [] } });
}

function nonIntentResult(tool: HaTool, args: Record<string, unknown>, probatio: boolean): HaCallResult {
  // Non-intent tools validate with a schema that forbids extra keys: voluptuous before 2026.9,
  // probatio since (its wording: "not a valid option at 'foo'").
  const extra = Object.keys(args).find((key) => !(key in tool.inputSchema.properties));
  if (extra !== undefined)
    return toolError(probatio ? `Error calling tool: not a valid option at '${extra}'` : `Error calling tool: extra keys not allowed @ data['${extra}']`);
  return toolText({ success: true, result: {} });
}

function toolText(result: unknown): HaCallResult {
  return { content: [{ type: 'text', text: pythonJsonDumps(result, { ensureAscii: false }) }], isError: false };
}

function toolError(text: string): HaCallResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

/** ajv lists the failing anyOf branches before the anyOf itself; jsonschema reports the anyOf. */
function firstError(errors: ErrorObject[] | null | undefined): ErrorObject | undefined {
  return errors?.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf') ?? errors?.[0];
}

/** The message Python's jsonschema gives for the first failing keyword. */
function jsonschemaMessage(error: ErrorObject | undefined, args: Record<string, unknown>): string {
  if (!error) return 'invalid arguments';
  const value = valueAt(args, error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'maximum':
      return `${pythonRepr(value)} is greater than the maximum of ${pythonRepr(p.limit)}`;
    case 'minimum':
      return `${pythonRepr(value)} is less than the minimum of ${pythonRepr(p.limit)}`;
    case 'enum':
      return `${pythonRepr(value)} is not one of ${pythonRepr(p.allowedValues)}`;
    case 'type':
      return `${pythonRepr(value)} is not of type ${String(p.type)
        .split(',')
        .map((t) => pythonRepr(t))
        .join(', ')}`;
    case 'anyOf':
      return `${pythonRepr(value)} is not valid under any of the given schemas`;
    case 'required':
      return `${pythonRepr(p.missingProperty)} is a required property`;
    case 'uniqueItems':
      return `${pythonRepr(value)} has non-unique elements`;
    default:
      return `${pythonRepr(value)} ${error.message ?? 'is invalid'}`;
  }
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}
