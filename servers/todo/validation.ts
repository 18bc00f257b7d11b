// Checks tool arguments against the contract's own JSON Schemas (the same objects tools/list
// publishes, so what an agent is told and what the server enforces cannot drift apart), then the
// few rules a schema cannot say. A violation becomes an `invalid_arguments` result, never a throw.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { TODO_TOOLS } from './contract';

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|z|[+-]\d{2}:\d{2})?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validDay(y: string, m: string, d: string): boolean {
  const month = Number(m);
  const day = Number(d);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(y), month);
}

/**
 * ISO 8601 date-time as agents write it: the contract's own example ("2025-12-22T15:00:00") has no
 * offset, which strict RFC 3339 would refuse. A time without an offset is read in the server's
 * local time zone (what `new Date()` does with that form); `Z` or `±hh:mm` are honoured.
 */
export function isIsoDateTime(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m;
  return validDay(y, mo, d) && Number(h) <= 23 && Number(mi) <= 59 && (s === undefined || Number(s) <= 59);
}

export function parseIsoDateTime(value: string): Date {
  return new Date(value);
}

export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  return m !== null && validDay(m[1], m[2], m[3]);
}

const ajv = new Ajv({ allErrors: true });
ajv.addFormat('date-time', { type: 'string', validate: isIsoDateTime });

const validators = new Map<string, ValidateFunction>(TODO_TOOLS.map((tool) => [tool.name, ajv.compile(tool.inputSchema)]));

function describe(error: ErrorObject): string {
  const where = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : 'arguments';
  if (error.keyword === 'required') return `${where}: missing required field '${String(error.params.missingProperty)}'`;
  if (error.keyword === 'enum') return `${where}: must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') return `${where}: must be ${JSON.stringify(error.params.allowedValue)}`;
  if (error.keyword === 'format') return `${where}: must be an ISO 8601 date-time such as 2025-12-22T15:00:00`;
  return `${where}: ${error.message ?? 'is invalid'}`;
}

/** Returns a message naming every violation, or undefined when the arguments fit the schema. */
export function schemaViolations(toolName: string, args: unknown): string | undefined {
  const validate = validators.get(toolName);
  if (!validate) return `unknown tool '${toolName}'`;
  if (validate(args)) return undefined;
  return (validate.errors ?? []).map(describe).join('; ');
}
