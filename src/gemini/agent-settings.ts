// The gemini-agent settings as the loop needs them, parsed once for the node and for the dialog's
// Test route alike (defaults applied, `${VAR}` expanded through the lookup the caller gives).
import { processEnvLookup, type EnvLookup } from '../env-expand';
import { numberSetting, textSetting } from '../settings-values';
import { DEFAULT_API_VERSION, DEFAULT_MODEL } from './client';
import { DEFAULT_HISTORY_TURNS } from './memory';
import type { FunctionCallingMode } from './types';
import { GOOGLE_TOOLS, type GoogleTool } from './google-tools';
import { AGENT_SETTINGS } from './agent-settings-declaration';

const MODES: FunctionCallingMode[] = ['AUTO', 'ANY', 'NONE'];
/** Gemini 3's thinking levels (ThinkingLevel in @google/genai, less THINKING_LEVEL_UNSPECIFIED). */
export const THINKING_LEVELS = ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] as const;
export type ThinkingLevelName = (typeof THINKING_LEVELS)[number];

export interface AgentSettings {
  model: string;
  baseUrl?: string;
  apiVersion: string;
  toolMode: 'auto' | 'flow';
  maxSteps: number;
  functionCalling: FunctionCallingMode;
  /** undefined: the model's own */
  thinkingLevel?: ThinkingLevelName;
  temperature?: number;
  memory: 'none' | 'context';
  historyTurns: number;
  stream: boolean;
  timeoutMs: number;
  /** Google's own tools offered beside the MCP tools (the dialog's checkboxes). */
  googleTools: GoogleTool[];
}

export function parseAgentSettings(def: Record<string, unknown>, env: EnvLookup = processEnvLookup): AgentSettings {
  const text = (v: unknown) => textSetting(v, env);
  const mode = String(def.functionCalling ?? '').toUpperCase() as FunctionCallingMode;
  // The dialog offers only these; anything else in a hand-written flow leaves the model's own level.
  const level = text(def.thinkingLevel).toUpperCase() as ThinkingLevelName;
  return {
    model: text(def.model) || DEFAULT_MODEL,
    baseUrl: text(def.baseUrl) || undefined,
    apiVersion: text(def.apiVersion) || DEFAULT_API_VERSION,
    toolMode: def.toolMode === 'flow' ? 'flow' : 'auto',
    maxSteps: Math.max(1, Math.floor(numberSetting(def.maxSteps, AGENT_SETTINGS.maxSteps.value)!)),
    functionCalling: MODES.includes(mode) ? mode : 'AUTO',
    thinkingLevel: THINKING_LEVELS.includes(level) ? level : undefined,
    temperature: numberSetting(def.temperature, undefined),
    memory: def.memory === 'context' ? 'context' : 'none',
    historyTurns: Math.max(0, Math.floor(numberSetting(def.historyTurns, DEFAULT_HISTORY_TURNS)!)),
    stream: def.stream === true || def.stream === 'true',
    timeoutMs: numberSetting(def.timeout, AGENT_SETTINGS.timeout.value)! * 1000,
    googleTools: GOOGLE_TOOLS.filter((name) => def[name] === true || def[name] === 'true'),
  };
}
