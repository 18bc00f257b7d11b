// The OTA address over plain node:http, shared by Node-RED's HTTP app (nodes/esp32-listener/
// ota-route.ts) and a WebSocket listener's own port (./ws-listener.ts, the way in from the Home
// Assistant add-on, whose Node-RED port sits behind an authenticating proxy): POST `/xiaozhi/ota/`
// the check, POST `/xiaozhi/ota/activate` the activation poll, GET a line saying what it is, and GET
// `/xiaozhi/ota/firmware.bin` the one firmware image a listener offers (nothing else can be had).
// Bodies are read up to 64 KB; answers carry a Content-Length (the firmware reads no chunked body).
import { createReadStream, stat } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OtaAnswer, OtaAnswerer } from '../ota-wire';

export const OTA_PATH = '/xiaozhi/ota/';
export const FIRMWARE_PATH = OTA_PATH + 'firmware.bin';
const MAX_BODY_BYTES = 64 * 1024;

/** Handles the request when it is for the OTA address (true), else leaves it alone (false). */
export function handleOtaHttp(service: OtaAnswerer | undefined, req: IncomingMessage, res: ServerResponse): boolean {
  const path = (req.url ?? '/').split('?')[0];
  const activate = path === OTA_PATH + 'activate';
  if (path === FIRMWARE_PATH) {
    serveFirmware(service?.firmwareFile?.(), req, res);
    return true;
  }
  if (path !== OTA_PATH && !activate) return false;
  if (!service) {
    send(res, { status: 404, body: 'No esp32-listener answers the OTA check here (turn on "Answer devices\' OTA check")' });
    return true;
  }
  if (req.method === 'GET' && !activate) {
    send(res, service.describe());
    return true;
  }
  if (req.method !== 'POST') {
    send(res, { status: 405, headers: { Allow: activate ? 'POST' : 'GET, POST' }, body: 'POST the OTA check here' });
    return true;
  }
  readBody(req).then(
    (body) => {
      const request = { headers: req.headers, body, remoteAddress: req.socket.remoteAddress, secure: 'encrypted' in req.socket && !!req.socket.encrypted };
      send(res, activate ? service.activate(request) : service.check(request));
    },
    () => send(res, { status: 413, body: { error: 'request body too large' } }),
  );
  return true;
}

/**
 * The image with a Content-Length (the firmware's download fails on a chunked answer: it reads the
 * length to size the partition write), streamed from disk.
 */
function serveFirmware(file: string | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (!file) return send(res, { status: 404, body: 'no firmware offered here' });
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, { status: 405, headers: { Allow: 'GET' }, body: 'GET the firmware here' });
  stat(file, (err, info) => {
    if (err || !info.isFile()) return send(res, { status: 404, body: 'the offered firmware file is missing' });
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': info.size });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  });
}

function send(res: ServerResponse, answer: OtaAnswer): void {
  const json = typeof answer.body !== 'string';
  const body = Buffer.from(json ? JSON.stringify(answer.body) : (answer.body as string), 'utf8');
  res.writeHead(answer.status, {
    'Content-Type': json ? 'application/json' : 'text/plain; charset=utf-8',
    'Content-Length': body.length,
    ...(answer.headers ?? {}),
  });
  res.end(body);
}

/** The raw body, at most 64 KB (a body parser before us may have read it already). */
function readBody(req: IncomingMessage): Promise<string> {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  if (parsed !== undefined && req.readableEnded) return Promise.resolve(typeof parsed === 'string' ? parsed : JSON.stringify(parsed));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(new Error('too large'));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
