// The gemini-agent node's settings, declared once: the dialog's defaults and credentials
// (nodes/gemini-agent/editor.ts), the runtime's parsing (agent-settings.ts, and the defaults of
// client.ts, memory.ts and approval-gate.ts) and the node's credential registration read this;
// test/settings-declared-once.test.ts checks it against the form. Plain data: the editor bundle
// includes this file.

import type { ServerRow } from '../mcp/settings/server-row';

export const AGENT_SETTINGS = {
  name: { value: '' },
  /** A model name has no spaces; ${VAR} references are expanded at runtime. */
  model: { value: 'gemini-flash-latest', required: true },
  baseUrl: { value: '' },
  apiVersion: { value: 'v1beta' },
  systemInstruction: { value: '' },
  systemInstructionType: { value: 'str' },
  /** The server rows ({server, include, exclude, prefix}), kept by the dialog's editable list. */
  servers: { value: [] as ServerRow[], form: false },
  toolMode: { value: 'auto' },
  maxSteps: { value: 10 },
  /** Google's own tools, run by Gemini beside the MCP tools. */
  googleSearch: { value: false },
  urlContext: { value: false },
  codeExecution: { value: false },
  functionCalling: { value: 'AUTO' },
  /** Blank: the model's own; MINIMAL, LOW, MEDIUM or HIGH (Gemini 3's thinkingConfig.thinkingLevel). */
  thinkingLevel: { value: '' },
  /** A sampling setting Gemini 3 deprecated in favour of the thinking level: kept for older models and older flows. */
  temperature: { value: '' },
  memory: { value: 'none' },
  historyTurns: { value: 10 },
  stream: { value: false },
  /** Seconds for one whole run, every step included. */
  timeout: { value: 120 },
  /** {server, name, arguments}: a server prompt (Home Assistant: Assist) put before the system instruction. */
  systemPrompt: { value: {} as { server?: string; name?: string; arguments?: Record<string, unknown> | string }, form: false },
  approval: { value: '' },
  approveNotReadOnly: { value: false },
  approveDestructive: { value: false },
  approvalTimeout: { value: 300 },
} as const;

export const AGENT_CREDENTIALS = {
  apiKey: { type: 'password' },
} as const;
