// Floods an attacker sends without credentials: an HTTP body streamed as fast as the server takes
// it, and a raw MQTT CONNECT that announces a huge packet and then streams junk. Each stops when the
// server answers or closes, and reports how much it managed to send.
import { request } from 'node:http';
import { connect } from 'node:net';

const CHUNK = Buffer.alloc(1024 * 1024, 0x61);

export interface HttpFloodResult {
  status?: number;
  body: string;
  sentBytes: number;
}

/** POSTs up to `totalBytes` to `url` (1 MiB writes, honouring backpressure) until the server answers. */
export function httpFlood(url: string, totalBytes: number, headers: Record<string, string>): Promise<HttpFloodResult> {
  return new Promise((resolve) => {
    let sentBytes = 0;
    let settled = false;
    const done = (result: Omit<HttpFloodResult, 'sentBytes'>) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve({ ...result, sentBytes });
    };
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(totalBytes) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => done({ status: res.statusCode, body }));
      res.on('error', () => done({ status: res.statusCode, body }));
    });
    req.on('error', () => setTimeout(() => done({ body: '' }), 500)); // a reset may race the answer
    const pump = () => {
      while (!settled && sentBytes < totalBytes) {
        const piece = CHUNK.subarray(0, Math.min(CHUNK.length, totalBytes - sentBytes));
        sentBytes += piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!settled) req.end();
    };
    pump();
  });
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
