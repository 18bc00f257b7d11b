// Floods an attacker sends without credentials: an HTTP body streamed as fast as the server takes
// it, and a raw MQTT CONNECT that announces a huge packet and then streams junk. Each stops when the
// server answers or closes, and reports how much it managed to send.
import { connect } from 'node:net';

const CHUNK = Buffer.alloc(1024 * 1024, 0x61);

export interface HttpFloodResult {
  status?: number;
  body: string;
  sentBytes: number;
}

/**
 * POSTs up to `totalBytes` to `url` over a raw socket (1 MiB writes, honouring backpressure) and
 * stops writing once the server answers or closes. A raw socket, not node:http, because a server
 * that refuses early closes the connection while the client is still writing: node:http then
 * reports the write error and drops the answer that had already arrived.
 */
export function httpFlood(url: string, totalBytes: number, headers: Record<string, string>): Promise<HttpFloodResult> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    let sentBytes = 0;
    let received = Buffer.alloc(0);
    let settled = false;
    const socket = connect(Number(port), hostname);
    const answered = () => received.includes('\r\n\r\n');
    const finish = () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const text = received.toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ status: status ? Number(status) : undefined, body: /chunked/i.test(text.split('\r\n\r\n')[0]) ? dechunk(body) : body, sentBytes });
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
    });
    socket.on('error', () => undefined); // EPIPE/ECONNRESET once the server closed: the answer is in `received`
    socket.on('close', finish);
    socket.on('connect', () => {
      const head = [
        `POST ${pathname} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        `Content-Length: ${totalBytes}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(head.join('\r\n') + '\r\n\r\n');
      const pump = () => {
        while (!socket.destroyed && !answered() && sentBytes < totalBytes) {
          const piece = CHUNK.subarray(0, Math.min(CHUNK.length, totalBytes - sentBytes));
          sentBytes += piece.length;
          if (!socket.write(piece)) return void socket.once('drain', pump);
        }
        // Sent everything (or answered): wait for the rest of the answer, then close ourselves.
        setTimeout(finish, 2000).unref();
      };
      pump();
    });
  });
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

/** MQTT's variable byte integer (the fixed header's remaining length). */
function remainingLength(n: number): Buffer {
  const bytes: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    bytes.push(b);
  } while (n > 0);
  return Buffer.from(bytes);
}

/** A raw TCP client: a CONNECT header announcing `announcedBytes`, then junk until the server closes. */
export function mqttConnectFlood(port: number, announcedBytes: number): Promise<{ sentBytes: number; closedByServer: boolean }> {
  return new Promise((resolve) => {
    let sentBytes = 0;
    const socket = connect(port, '127.0.0.1');
    const finish = (closedByServer: boolean) => {
      socket.destroy();
      resolve({ sentBytes, closedByServer });
    };
    socket.on('close', () => finish(sentBytes < announcedBytes));
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from([0x10]), remainingLength(announcedBytes)]));
      const pump = () => {
        while (!socket.destroyed && sentBytes < announcedBytes) {
          sentBytes += CHUNK.length;
          if (!socket.write(CHUNK)) return void socket.once('drain', pump);
        }
        if (sentBytes >= announcedBytes) finish(false);
      };
      pump();
    });
  });
}
