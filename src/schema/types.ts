// Shared shapes of the schema compiler.
export type JsonObject = Record<string, unknown>;

export interface CompileWarning {
  tool: string;
  /** JSON path in the tool's input schema, e.g. "$.properties.area.additionalProperties". */
  path: string;
  message: string;
}

/** Collects warnings for one tool; the path is where in the INPUT schema the thing was found. */
export type Warn = (path: string, message: string) => void;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Plain JSON deep copy of data values (enum, default, examples …); schemas are copied by the walkers. */
export function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) out[key] = copyJson(value[key]);
    return out;
  }
  return value;
}
