// Checks tool arguments against the tool's inputSchema before anything is sent, so a bad call
// fails here with the path and the reason instead of as an opaque server error. A `format` that does
// not match is reported, not refused: JSON Schema 2020-12 makes `format` an annotation, and the
// servers we call often accept what a strict check refuses (a todo server's `due_date` without an
// offset); the call is sent and the mismatch travels in msg.mcp.warnings.
import { compileArgumentReport, type ArgumentReport } from '../../schema/json-schema-dialect';
import type { Tool } from '../protocol/sdk';

type Report = (value: unknown) => ArgumentReport;

/** One check per schema object; null when no dialect compiles it (the server is left to judge). */
const compiled = new WeakMap<object, Report | null>();

function reportFor(schema: object): Report | null {
  if (compiled.has(schema)) return compiled.get(schema)!;
  let report: Report | null = null;
  try {
    report = compileArgumentReport(schema);
  } catch {
    /* a schema neither dialect can compile is left to the server */
  }
  compiled.set(schema, report);
  return report;
}

/** The failures ("path: reason; …", undefined when there are none) and the format mismatches. */
export function checkToolArguments(tool: Tool, args: unknown): ArgumentReport {
  return schemaReport(tool.inputSchema, args);
}

/** undefined when the arguments are valid (format mismatches aside), else "path: reason; path: reason". */
export function validateArguments(tool: Tool, args: unknown): string | undefined {
  return checkToolArguments(tool, args).problem;
}

/** The same check for any schema (a tool's outputSchema against structuredContent). */
export function schemaProblems(schema: unknown, value: unknown): string | undefined {
  return schemaReport(schema, value).problem;
}

function schemaReport(schema: unknown, value: unknown): ArgumentReport {
  if (!schema || typeof schema !== 'object') return { formatMismatches: [] };
  return reportFor(schema)?.(value) ?? { formatMismatches: [] };
}
