// The devices one listener has connected right now. A device that reconnects (every wake-up on
// WebSocket is a new connection) replaces its previous session if it proved itself with a token;
// a connection without a token cannot take over a connected device's id (see device-gate.ts).
// Only the newest session of an id is routed to.
import { EventEmitter } from 'node:events';
import type { DeviceEvent, DeviceSession } from './device-session';

export class DeviceRegistry extends EventEmitter {
  private readonly sessions = new Map<string, DeviceSession>();

  constructor() {
    super();
    this.setMaxListeners(0);
  }

  /** False (and nothing changed) when an unauthenticated session would replace a connected one. */
  add(session: DeviceSession, authenticated = true): boolean {
    const previous = this.sessions.get(session.id);
    if (previous && previous !== session && !authenticated && previous.state !== 'closed') return false;
    this.sessions.set(session.id, session);
    session.on('event', (e: DeviceEvent) => this.emit('event', e));
    session.on('state', () => {
      if (session.state === 'closed' && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
      this.emit('change');
    });
    if (previous && previous !== session) previous.close();
    this.emit('change');
    return true;
  }

  /** A live session holds this id. */
  isClaimed(id: string): boolean {
    const s = this.sessions.get(id);
    return !!s && s.state !== 'closed';
  }

  get(id: string): DeviceSession | undefined {
    return this.sessions.get(id);
  }

  list(): DeviceSession[] {
    return [...this.sessions.values()];
  }

  get size(): number {
    return this.sessions.size;
  }
}
