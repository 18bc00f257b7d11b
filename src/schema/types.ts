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

/**
 * Sets an own property even when the key is "__proto__" (a legal JSON key, e.g. a property name in a
 * schema), which plain assignment would turn into a prototype change.
 */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

export function hasOwn(target: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(target, key);
}

/** Plain JSON deep copy of data values (enum, default, examples …); schemas are copied by the walkers. */
export function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) setOwn(out, key, copyJson(value[key]));
    return out;
  }
  return value;
}
