// The words both sides of an MCP task use, written once for the client (src/mcp/call/task-call*.ts) and
// the endpoint (src/server/tasks/flow-tasks*.ts): the tasks extension's name (2026-07-28, SEP-2663) and
// the statuses after which a task never changes again (both revisions).

/** The extension a 2026-07-28 client names in its capabilities to have calls become tasks. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export type TerminalTaskStatus = 'completed' | 'failed' | 'cancelled';

const TERMINAL: ReadonlySet<string> = new Set<TerminalTaskStatus>(['completed', 'failed', 'cancelled']);

/** True once a task has ended: completed, failed or cancelled. */
export function taskEnded(status: string): status is TerminalTaskStatus {
  return TERMINAL.has(status);
}
