// Home Assistant is Python: its JSON bodies come from json.dumps (", " and ": " separators) and the
// SDK's input-validation texts embed Python repr() of the offending value. Reproducing both keeps the
// stand-in's bytes close to what a client meets on a real install.

export interface PythonJsonOptions {
  /** json.dumps(ensure_ascii=True) escapes every non-ASCII character as \uXXXX. */
  ensureAscii: boolean;
}

export function pythonJsonDumps(value: unknown, options: PythonJsonOptions): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return dumpString(value, options.ensureAscii);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => pythonJsonDumps(v, options)).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${dumpString(k, options.ensureAscii)}: ${pythonJsonDumps(v, options)}`).join(', ')}}`;
  }
  throw new TypeError(`cannot serialise ${typeof value}`);
}

function dumpString(text: string, ensureAscii: boolean): string {
  const json = JSON.stringify(text);
  if (!ensureAscii) return json;
  return json.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Python repr() of a JSON value, as jsonschema puts it into its messages. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const body = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
    return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}
