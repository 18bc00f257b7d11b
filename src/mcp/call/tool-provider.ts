// The one shape every MCP endpoint has for the rest of the engine (list tools, call a tool, report
// state), whether it is a client session over stdio/HTTP/SSE or an ESP32 device that dialled in.
// Nodes and the Gemini loop talk only to this, so a new kind of endpoint needs no change there.
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ListWarning } from '../lenient/lenient-list';
import type { TaskUpdate } from './task-call';
import type { InputAsker } from './input-requests';

export type { CallToolResult, Tool };

export interface ServerIdentity {
  /** Node-RED config node id (or any stable id when used outside Node-RED). */
  id: string;
  name: string;
  protocolVersion?: string;
  serverInfo?: { name: string; version?: string; title?: string };
}

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** Per-request routing facts taken from the message (ESP32: which device). */
export interface RequestContext {
  deviceId?: string;
}

export interface ListToolsOptions {
  context?: RequestContext;
  /** Bypass the per-session cache and walk every page again. */
  refresh?: boolean;
  /** Include tools whose annotations.audience says they are for the device's user (ESP32). */
  userOnly?: boolean;
  timeoutMs?: number;
}

export interface ListToolsResult {
  tools: Tool[];
  pages: number;
  server: ServerIdentity;
  /** What the lenient reading repaired or left out ({tool, path, message}, as in mcp-list-tools' msg.mcp.warnings). */
  warnings?: ListWarning[];
}

export interface CallToolOptions {
  context?: RequestContext;
  /** Per-request timeout; progress notifications reset it. */
  timeoutMs?: number;
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /**
   * The controller `signal` comes from, when the caller owns one for this call alone: a provider
   * that times the call itself (a call that may wait for a person, call-clock.ts) then ends it
   * through this controller on timeout, instead of making a second signal that follows `signal`.
   */
  controller?: AbortController;
  /** Answers the server's requests for input during this call (MCP elicitation); without it they are declined. */
  onInputRequest?: InputAsker;
  /** How long a person may take to answer, added to the call's timeout while it may ask. */
  inputTimeoutMs?: number;
  /** A call the server runs as a task (task-call.ts): each change of the task's status. */
  onTaskUpdate?: (update: TaskUpdate) => void;
}

export type ProviderState =
  | { kind: 'idle' }
  /** `note`: why it takes long (a package runner downloading the server). */
  | { kind: 'connecting'; note?: string }
  | { kind: 'ready'; toolCount: number }
  | { kind: 'error'; reason: string };

export interface ToolProvider {
  identity(context?: RequestContext): ServerIdentity;
  listTools(options?: ListToolsOptions): Promise<ListToolsResult>;
  /** Looks a tool up in the cached list (listing first when nothing is cached). */
  findTool(name: string, context?: RequestContext): Promise<Tool | undefined>;
  callTool(name: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<CallToolResult>;
  state(): ProviderState;
  onStateChange(listener: (state: ProviderState) => void): () => void;
  close(): Promise<void>;
  /** Ends the connection until the next request (the last user left); providers without one keep it. */
  disconnect?(): Promise<void>;
  /** Keeps state() fresh while nodes use it (connect now, probe now and then) until the returned function is called. */
  watch?(): () => void;
}
