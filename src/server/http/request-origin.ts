// The origin a client used to reach Node-RED: its scheme (TLS here, or a proxy's X-Forwarded-Proto)
// and its Host. Sign-in names the endpoint by it, since a client must find the exact URL it typed
// (127.0.0.1, the host name, the add-on's host name are all the same endpoint).
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

export function requestOrigin(req: IncomingMessage): string {
  const forwarded = String(req.headers['x-forwarded-proto'] ?? '')
    .split(',')[0]
    .trim();
  const scheme = (req.socket as TLSSocket | undefined)?.encrypted || forwarded === 'https' ? 'https' : 'http';
  const host = String(req.headers.host ?? '127.0.0.1').replace(/[^\w.:[\]-]/g, '');
  return `${scheme}://${host}`;
}
