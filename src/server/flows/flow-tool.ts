// An `mcp-tool-in` node's settings turned into a tool definition, checked: the name pattern of
// nodes/mcp-tool-in/help.html, schemas that compile, annotations limited to the four hints. Throws with what to fix.
import { compileArgumentCheck, type ArgumentCheck } from '../../schema/json-schema-dialect';
import { pathOf, segmentsOf } from './object-graph/model';
import type { Tool } from '../calls/types';

import { TOOL_IN_SETTINGS, TOOL_NAME } from './tool-in-settings-declaration';

export { TOOL_NAME };
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

export interface FlowToolSettings {
  definition: Tool;
  check: ArgumentCheck;
  subject?: string;
  method?: string;
  timeoutMs: number;
  /** How long a person has to answer the flow's input request. */
  inputWaitMs: number;
  /** Long-running: how long the flow has to answer a call made as a task. */
  taskLimitMs?: number;
}

function jsonObject(value: unknown, what: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch (err) {
      throw new Error(`${what} is not valid JSON (${(err as Error).message})`, { cause: err });
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${what} must be a JSON object`);
  return v as Record<string, unknown>;
}

/** `/home/bedroom/` and `home/bedroom` name the same subject. */
function normalisePath(path: string): string {
  return pathOf(segmentsOf(path));
}

export function flowToolSettings(def: Record<string, unknown>): FlowToolSettings {
  const name = typeof def.name === 'string' ? def.name.trim() : '';
  const method = typeof def.method === 'string' && def.method.trim() ? def.method.trim() : undefined;
  const subject = typeof def.subject === 'string' && def.subject.trim() ? normalisePath(def.subject.trim()) : undefined;
  const toolName = name || method || '';
  if (!TOOL_NAME.test(toolName)) throw new Error(`tool name "${toolName}" must be 1-128 letters, digits, "_", "." or "-"`);
  const inputSchema = jsonObject(def.inputSchema, 'input schema') ?? { type: 'object', properties: {} };
  if (inputSchema.type !== 'object') throw new Error('input schema must have "type": "object" (MCP tool arguments are an object)');
  const outputSchema = jsonObject(def.outputSchema, 'output schema');
  const given = jsonObject(def.annotations, 'annotations') ?? {};
  const annotations: Record<string, boolean> = {};
  for (const h of HINTS) if (typeof given[h] === 'boolean') annotations[h] = given[h] as boolean;
  const title = typeof def.title === 'string' && def.title.trim() ? def.title.trim() : undefined;
  const description = typeof def.description === 'string' && def.description.trim() ? def.description.trim() : undefined;
  const longRunning = def.longRunning === true || def.longRunning === 'true';
  const definition: Tool = {
    name: toolName,
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    inputSchema: inputSchema as Tool['inputSchema'],
    ...(outputSchema ? { outputSchema: outputSchema as Tool['outputSchema'] } : {}),
    ...(Object.keys(annotations).length ? { annotations } : {}),
    // Optional, not required: a client without tasks still calls it the ordinary way (within Timeout).
    ...(longRunning ? { execution: { taskSupport: 'optional' as const } } : {}),
  };
  let check: ArgumentCheck;
  try {
    check = compileArgumentCheck(inputSchema);
  } catch (err) {
    throw new Error(`input schema does not compile: ${(err as Error).message}`, { cause: err });
  }
  const seconds = Number(def.timeout);
  const timeoutMs =
    (def.timeout === '' || def.timeout === undefined || !Number.isFinite(seconds) || seconds <= 0 ? TOOL_IN_SETTINGS.timeout.value : seconds) * 1000;
  const inputSeconds = Number(def.inputTimeout);
  const inputWaitMs = (Number.isFinite(inputSeconds) && inputSeconds > 0 ? inputSeconds : TOOL_IN_SETTINGS.inputTimeout.value) * 1000;
  const limitSeconds = Number(def.taskLimit);
  const taskLimitMs = longRunning ? (Number.isFinite(limitSeconds) && limitSeconds > 0 ? limitSeconds : TOOL_IN_SETTINGS.taskLimit.value) * 1000 : undefined;
  return { definition, check, subject, method: subject ? (method ?? toolName) : undefined, timeoutMs, inputWaitMs, taskLimitMs };
}
