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
import { randomUUID } from 'node:crypto';

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
  /** Discovery announcements it holds (uuid → config), as POST /discovery made them and DELETE removed them. */
  discoveries: Map<string, { service: string; config: Record<string, unknown> }>;
  /** Every DELETE /discovery/<uuid> it got. */
  withdrawn: string[];
  close(): Promise<void>;
}

/**
 * `discovery`: the services the app's config lists under `discovery:` (the Supervisor answers 403 to
 * an announcement of any other service; the Node-RED app v22.0.2 lists none).
 */
export async function startSupervisor(opts: { token: string; haUrl: string; haToken: string; discovery?: string[] }): Promise<SupervisorStandIn> {
  const ha = new URL(opts.haUrl);
  const standIn: SupervisorStandIn = {
    proxyUrl: '',
    token: opts.token,
    forwarded: 0,
    refused: [],
    discoveries: new Map(),
    withdrawn: [],
    close: async () => {},
  };
  const refuse = (req: IncomingMessage, res: import('node:http').ServerResponse, status: number, why: string) => {
    standIn.refused.push({ method: req.method ?? '', url: req.url ?? '', why });
    req.resume();
    res.writeHead(status, { 'Content-Type': 'text/plain' }).end(why);
  };
  // The Supervisor's discovery API (POST /discovery, DELETE /discovery/<uuid>), with its 403 for an
  // app whose config does not list the service (supervisor/api/discovery.py, as the fixture notes say).
  const discovery = (req: IncomingMessage, res: import('node:http').ServerResponse, url: string) => {
    if (req.headers.authorization !== `Bearer ${opts.token}`) return refuse(req, res, 401, '401: Unauthorized');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    const uuid = /^http:\/\/supervisor\/discovery\/([\w-]+)$/.exec(url)?.[1];
    if (req.method === 'DELETE' && uuid) {
      req.resume();
      standIn.withdrawn.push(uuid);
      standIn.discoveries.delete(uuid);
      return json(200, { result: 'ok', data: {} });
    }
    if (req.method !== 'POST' || url !== 'http://supervisor/discovery') return refuse(req, res, 405, `not a discovery request: ${req.method} ${url}`);
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const message = JSON.parse(body || '{}') as { service?: string; config?: Record<string, unknown> };
      if (!(opts.discovery ?? []).includes(String(message.service)))
        return json(403, { result: 'error', message: 'Apps must list services they provide via discovery in their config!' });
      const id = randomUUID();
      standIn.discoveries.set(id, { service: String(message.service), config: message.config ?? {} });
      json(200, { result: 'ok', data: { uuid: id } });
    });
  };
  const server = createServer((req, res) => {
    // A proxied request carries the whole URL, a tunnelled one its path and Host; the add-on's MCP
    // URL is the only one this stand-in serves.
    const url = /^https?:\/\//.test(req.url ?? '') ? req.url : `http://${req.headers.host}${req.url}`;
    if (url?.startsWith('http://supervisor/discovery')) return discovery(req, res, url);
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
