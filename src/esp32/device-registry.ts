// The devices one listener has connected right now. A device that reconnects (every wake-up on
// WebSocket is a new connection) replaces its previous session; only the newest one is routed to.
import { EventEmitter } from 'node:events';
import type { DeviceEvent, DeviceSession } from './device-session';

export class DeviceRegistry extends EventEmitter {
  private readonly sessions = new Map<string, DeviceSession>();

  constructor() {
    super();
    this.setMaxListeners(0);
  }

  add(session: DeviceSession): void {
    const previous = this.sessions.get(session.id);
    this.sessions.set(session.id, session);
    session.on('event', (e: DeviceEvent) => this.emit('event', e));
    session.on('state', () => {
      if (session.state === 'closed' && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
      this.emit('change');
    });
    if (previous && previous !== session) previous.close();
    this.emit('change');
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
