// A stand-in for the Home Assistant Supervisor's proxy to Home Assistant's API, as an add-on reaches
// it: http://supervisor/core/api/… with `Authorization: Bearer ${SUPERVISOR_TOKEN}` (Home Assistant
// developer docs, "App communication": the add-on's token, and `homeassistant_api: true`). On a test
// machine the host name `supervisor` does not resolve, so the stand-in is an HTTP proxy: Node-RED runs
// with NODE_USE_ENV_PROXY=1 and HTTP_PROXY pointing here. Node's fetch tunnels through a proxy
// (`CONNECT supervisor:80`, then the requests inside); a plain proxy request in absolute form
// (`POST http://supervisor/core/api/mcp`) is served too. Only that URL with that header is forwarded, to the Home
// Assistant stand-in with Home Assistant's own token, as the Supervisor does; anything else is refused
// and recorded, so a test can prove nothing else was tried.
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SUPERVISOR_MCP_URL = 'http://supervisor/core/api/mcp';

export interface SupervisorStandIn {
  /** http://127.0.0.1:PORT, to give Node-RED as HTTP_PROXY. */
  proxyUrl: string;
  /** What Node-RED must send: the add-on's SUPERVISOR_TOKEN. */
  token: string;
  /** Requests forwarded to Home Assistant. */
  forwarded: number;
  /** Requests refused, with why. */
  refused: Array<{ method: string; url: string; why: string }>;
  close(): Promise<void>;
}

export async function startSupervisor(opts: { token: string; haUrl: string; haToken: string }): Promise<SupervisorStandIn> {
  const ha = new URL(opts.haUrl);
  const standIn: SupervisorStandIn = { proxyUrl: '', token: opts.token, forwarded: 0, refused: [], close: async () => {} };
  const refuse = (req: IncomingMessage, res: import('node:http').ServerResponse, status: number, why: string) => {
    standIn.refused.push({ method: req.method ?? '', url: req.url ?? '', why });
    req.resume();
    res.writeHead(status, { 'Content-Type': 'text/plain' }).end(why);
  };
  const server = createServer((req, res) => {
    // A proxied request carries the whole URL, a tunnelled one its path and Host; the add-on's MCP
    // URL is the only one this stand-in serves.
    const url = /^https?:\/\//.test(req.url ?? '') ? req.url : `http://${req.headers.host}${req.url}`;
    if (url !== SUPERVISOR_MCP_URL && !url?.startsWith(SUPERVISOR_MCP_URL + '?')) return refuse(req, res, 404, `not the Supervisor MCP URL: ${url}`);
    if (req.headers.authorization !== `Bearer ${opts.token}`) return refuse(req, res, 401, '401: Unauthorized');
    standIn.forwarded++;
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, host: ha.host, authorization: `Bearer ${opts.haToken}` };
    delete headers['proxy-connection'];
    const upstream = httpRequest({ host: ha.hostname, port: ha.port, method: req.method, path: ha.pathname, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', (err) => res.destroy(err));
    req.pipe(upstream);
  });
  // A tunnel to the Supervisor's port 80 only; its requests are parsed by this same server.
  server.on('connect', (req, socket, head) => {
    if (req.url !== 'supervisor:80') {
      standIn.refused.push({ method: 'CONNECT', url: req.url ?? '', why: 'tunnel to another host refused' });
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) socket.unshift(head);
    server.emit('connection', socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  standIn.proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}
