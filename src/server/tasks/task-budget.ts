// How many flow tools may run as tasks at once: per client (a bearer token's digest, or the address
// of an anonymous caller) and for the whole endpoint, on both revisions. A task holds a flow run for
// up to its tool's task limit (an hour, say): without a bound, one client could start a thousand.
// Past either bound the call is refused with a JSON-RPC error that says which bound and what to do;
// nobody's running task is touched. A place is given back when the task's run ends.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

export interface TaskLimits {
  /** Tasks running at once on the endpoint. */
  total: number;
  /** Tasks running at once for one client. */
  perClient: number;
}

export const DEFAULT_TASK_LIMITS: TaskLimits = { total: 100, perClient: 10 };

export class TaskBudget {
  private running = 0;
  private readonly byClient = new Map<string, number>();

  constructor(private readonly limits: TaskLimits = DEFAULT_TASK_LIMITS) {}

  /** A place for one more running task of `client`; throws the refusal the client reads. Returns the give-back (once). */
  take(client: string): () => void {
    const own = this.byClient.get(client) ?? 0;
    if (own >= this.limits.perClient)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `This client runs its most tasks at once (${this.limits.perClient}); wait for one to end or cancel one (tasks/cancel), then call again.`,
      );
    if (this.running >= this.limits.total)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `This endpoint runs its most tasks at once (${this.limits.total}); try again when one has ended.`,
      );
    this.running++;
    this.byClient.set(client, own + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left > 0) this.byClient.set(client, left);
      else this.byClient.delete(client);
    };
  }

  get size(): number {
    return this.running;
  }
}
