// Connections that have not yet proved themselves (no CONNECT accepted yet) cost a file descriptor
// each and nothing else, so a stranger could open thousands and starve the editor, the endpoint and
// every device of descriptors. This bounds them per listener and per source address; a connection
// stops counting once it is admitted or closed.
import type { Socket } from 'node:net';

export const MAX_PENDING_CONNECTIONS = 64;
export const MAX_PENDING_PER_SOURCE = 8;
/** Stock firmware sends CONNECT at once; anything slower is not a device. */
export const CONNECT_DEADLINE_MS = 10_000;

export class PendingConnections {
  private readonly sources = new Map<Socket, string>();
  private readonly perSource = new Map<string, number>();

  constructor(
    private readonly maxTotal = MAX_PENDING_CONNECTIONS,
    private readonly maxPerSource = MAX_PENDING_PER_SOURCE,
  ) {}

  get size(): number {
    return this.sources.size;
  }

  /** Counts the connection, or says why it is refused (it is then not counted). */
  admit(socket: Socket, source: string): string | undefined {
    if (this.sources.size >= this.maxTotal) return `${this.maxTotal} connections are waiting for CONNECT already`;
    const fromSource = this.perSource.get(source) ?? 0;
    if (fromSource >= this.maxPerSource) return `${this.maxPerSource} connections from ${source} are waiting for CONNECT already`;
    this.sources.set(socket, source);
    this.perSource.set(source, fromSource + 1);
    socket.once('close', () => this.settle(socket));
    return undefined;
  }

  /** The connection was admitted (or closed): it no longer counts. */
  settle(socket: Socket): void {
    const source = this.sources.get(socket);
    if (source === undefined) return;
    this.sources.delete(socket);
    const left = (this.perSource.get(source) ?? 1) - 1;
    if (left > 0) this.perSource.set(source, left);
    else this.perSource.delete(source);
  }
}
