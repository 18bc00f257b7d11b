// Errors a person can act on: `status` is the short text for the node's red ring, `message` says
// what went wrong and what to do. Engine code throws these; node adapters show and forward them.
export class McpNodeError extends Error {
  constructor(
    message: string,
    readonly status: string,
    readonly code: string = 'MCP_ERROR',
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'McpNodeError';
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The deepest useful cause of a network failure (fetch hides ECONNREFUSED in `cause`). */
export function rootCause(err: unknown): string {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let i = 0; i < 5 && e; i++) {
    if (typeof e.code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(e.code)) return e.code;
    if (e.cause) e = e.cause as typeof e;
    else break;
  }
  return errorMessage(err);
}
