// Answering an endpoint's requests from Node-RED's HTTP server itself, before Express. Each MCP
// request otherwise passes three Express apps (the top one, the editor's API with its CORS and body
// parsers when httpAdminRoot is "/", then httpNode): measured, an eighth of Node-RED's CPU per call,
// more than the endpoint's own code. Only done when nothing the user configured runs in front of
// httpNode routes (httpNodeAuth, httpNodeMiddleware, requireHttps): those settings guard a flow's
// HTTP endpoints, and with any of them set every request goes the Express way. (httpNodeCors is not
// among them: core's `http in` applies it per route, and the endpoint never had it.) The
// Express route stays mounted either way, so requests that arrive through the app some other way
// (a test's supertest, another server wrapping the app) are served the same.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { normalEndpointPath } from '../../src/server/endpoint-paths';
import type { RED } from '../shared/red-types';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Listener = (this: Server, req: IncomingMessage, res: ServerResponse) => void;

const METHODS = new Set(['POST', 'GET', 'DELETE']);
/** Per HTTP server: the endpoint paths answered directly, and the listeners (Express) for the rest. */
const dispatchers = new WeakMap<Server, Map<string, Handler>>();

/** Whether a request for an httpNode route would meet nothing but the route itself. */
export function nothingInFrontOfHttpNode(settings: RED['settings']): boolean {
  // Node-RED copies the older httpAuth into httpNodeAuth at start; requireHttps redirects in the top app.
  return !settings.httpNodeAuth && !settings.httpNodeMiddleware && !Reflect.get(settings, 'requireHttps');
}

/**
 * Answers POST, GET and DELETE for `path` (the full path, httpNodeRoot included) with `handler`
 * before Express sees them, when nothing runs in front of httpNode routes. Returns the function that
 * stops it, or undefined when the requests keep going through Express.
 */
export function answerAheadOfExpress(RED: RED, path: string, handler: Handler): (() => void) | undefined {
  const server = RED.server as Server | undefined;
  if (!server || typeof server.listeners !== 'function' || !nothingInFrontOfHttpNode(RED.settings)) return undefined;
  let routes = dispatchers.get(server);
  if (!routes) routes = install(server);
  const key = normalEndpointPath(path);
  const own = addCors(handler, corsLikeTheEditor(RED) && underAdminRoot(RED, key));
  routes.set(key, own);
  return () => {
    if (routes.get(key) === own) routes.delete(key);
  };
}

/**
 * Node-RED's server has one request listener, its Express app. It is replaced by one that gives the
 * endpoint paths to their handlers and everything else to the listeners it replaced, once per server.
 */
function install(server: Server): Map<string, Handler> {
  const routes = new Map<string, Handler>();
  const rest = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  server.on('request', function (this: Server, req: IncomingMessage, res: ServerResponse) {
    // Clients send the path as configured ("/mcp"), so the exact URL is tried before the Express-like comparison.
    const url = req.url ?? '/';
    const handler = routes.size && METHODS.has(req.method ?? '') ? (routes.get(url) ?? routes.get(normalEndpointPath(url))) : undefined;
    if (handler) return handler(req, res);
    for (const listener of rest) listener.call(this, req, res);
  });
  dispatchers.set(server, routes);
  return routes;
}

/** The editor's API (httpAdminRoot) adds `Access-Control-Allow-Origin: *` to every request beneath it. */
const corsLikeTheEditor = (RED: RED) => RED.settings.httpAdminRoot !== false;

function underAdminRoot(RED: RED, key: string): boolean {
  const root = normalEndpointPath(typeof RED.settings.httpAdminRoot === 'string' ? RED.settings.httpAdminRoot : '/');
  return root === '/' || key === root || key.startsWith(`${root}/`);
}

function addCors(handler: Handler, cors: boolean): Handler {
  if (!cors) return handler;
  return (req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    handler(req, res);
  };
}
