// The mcp-tool-in node's settings, declared once: the dialog's defaults (nodes/mcp-tool-in/editor.ts)
// and the runtime's parsing (flow-tool.ts) read this; test/settings-declared-once.test.ts checks it
// against the form. Plain data: the editor bundle includes this file.

export const TOOL_IN_SETTINGS = {
  /** The node's own label: `name` is the tool's name on the wire. */
  caption: { value: '' },
  endpoint: { value: '', type: 'mcp-endpoint', required: true },
  name: { value: '', required: true },
  title: { value: '' },
  description: { value: '' },
  /** A JSON Schema object; the dialog's text field holds it as text until saved. */
  inputSchema: { value: '' as string | Record<string, unknown> },
  outputSchema: { value: '' as string | Record<string, unknown> },
  /** The hint checkboxes, gathered into one object by the dialog's code. */
  annotations: { value: {} as Record<string, boolean>, form: false },
  subject: { value: '' },
  /** An object-graph method served under `subject`; flows written by hand set it, the dialog keeps it. */
  method: { value: '', form: false },
  /** Seconds the flow has to answer a call. */
  timeout: { value: 30 },
  /** Seconds a person has to answer the flow's input request (mcp-tool-out with msg.input); not counted in `timeout`. */
  inputTimeout: { value: 300 },
  /** A client may call the tool as a task (MCP 2025-11-25): it gets the task at once, and the flow has `taskLimit` to answer. */
  longRunning: { value: false },
  /** Seconds a flow has to answer a call made as a task. */
  taskLimit: { value: 3600 },
} as const;

/** MCP tool names: 1-128 letters, digits, `_`, `.` or `-`. */
export const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
