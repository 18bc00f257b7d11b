// One configured agent: its parsed settings, a Gemini client kept while the key stays the same, and
// the trace put on msg.gemini. The node and the dialog's Test route run their turns through it, so
// the request they send Gemini (model, endpoint, limits) is built in one place.
import type { Content, GoogleGenAI } from '@google/genai';
import { runAgent } from './agent-loop';
import { combinedUse, type GoogleToolUse } from './google-tools';
import type { AgentSettings } from './agent-settings';
import { createGeminiClient, DEFAULT_BASE_URL } from './client';
import type { AgentResult, ToolCatalog, ToolExecutor } from './types';

export interface AgentTurn {
  apiKey: string;
  /** History (if any) followed by the new user turn. */
  contents: Content[];
  systemInstruction?: string;
  catalog: ToolCatalog;
  executor: ToolExecutor;
  signal?: AbortSignal;
  /** Streamed text, when the settings ask for streaming. */
  onText?: (text: string, step: number) => void;
}

export class AgentRunner {
  private client?: { key: string; instance: GoogleGenAI };

  constructor(readonly settings: AgentSettings) {}

  run(turn: AgentTurn): Promise<AgentResult> {
    const { model, baseUrl, apiVersion, maxSteps, functionCalling, thinkingLevel, temperature, timeoutMs, stream, googleTools } = this.settings;
    return runAgent({
      client: this.clientFor(turn.apiKey),
      model,
      contents: turn.contents,
      systemInstruction: turn.systemInstruction,
      catalog: turn.catalog,
      executor: turn.executor,
      googleTools,
      maxSteps,
      functionCalling,
      thinkingLevel,
      temperature,
      timeoutMs,
      signal: turn.signal,
      stream,
      onText: stream ? turn.onText : undefined,
      secrets: [turn.apiKey],
      endpoint: `${baseUrl ?? DEFAULT_BASE_URL}/${apiVersion}/models/${model}`,
    });
  }

  /** msg.gemini for a finished turn. */
  trace(result: AgentResult, sessionId: string, unavailable: unknown[]): Record<string, unknown> {
    return {
      model: this.settings.model,
      steps: result.steps,
      usage: result.usage,
      sessionId,
      finishReason: result.finishReason,
      ...(result.blocked ? { blocked: result.blocked } : {}),
      ...withGoogle(combinedUse(result.steps.map((s) => s.google))),
      ...(unavailable.length ? { unavailable } : {}),
    };
  }

  private clientFor(key: string): GoogleGenAI {
    const { baseUrl, apiVersion } = this.settings;
    if (!this.client || this.client.key !== key) this.client = { key, instance: createGeminiClient({ apiKey: key, baseUrl, apiVersion }) };
    return this.client.instance;
  }
}

/** msg.gemini.google: every turn's searches, sources, pages and programs, when there were any. */
function withGoogle(use: GoogleToolUse | undefined): { google?: GoogleToolUse } {
  return use ? { google: use } : {};
}
