// Answering an endpoint's requests from Node-RED's HTTP server itself, before Express. Each MCP
// request otherwise passes three Express apps (the top one, the editor's API with its CORS and body
// parsers when httpAdminRoot is "/", then httpNode): measured, an eighth of Node-RED's CPU per call,
// more than the endpoint's own code. Only done when nothing the user configured would run in front
// of the endpoint on the Express way (see whatRunsInFront), and only on the server Node-RED's own
// red.js made, whose one listener is its Express app: an application that embeds Node-RED may put
// its own guards in front of httpNode, which must not be skipped. The Express route stays mounted
// either way, so requests that arrive through the app some other way are served the same.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { normalEndpointPath } from '../../src/server/http/endpoint-paths';
import type { RED } from './red-types';
import { SKIP_EDITOR_PARSING } from './skip-editor-parsing-mark';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Listener = (this: Server, req: IncomingMessage, res: ServerResponse) => void;

const METHODS = new Set(['POST', 'GET', 'DELETE']);
/** Per HTTP server: the endpoint paths answered directly, and the listeners (Express) for the rest. */
const dispatchers = new WeakMap<Server, Map<string, Handler>>();

/**
 * The settings that would meet a request for `path` (the full path) on the Express way, by name;
 * empty when nothing but the route itself would. httpNodeAuth (Node-RED copies the older httpAuth
 * into it) and httpNodeMiddleware guard every httpNode route. Beneath httpAdminRoot the editor's API
 * comes first: httpAdminAuth, the user's own httpAdminMiddleware (ours, skip-editor-parsing, only
 * sends endpoint paths past the editor), requireHttps's redirect and httpAdminCors reach the request
 * there. (httpNodeCors is not among them: core's `http in` applies it per route, and the endpoint
 * never had it.)
 */
export function whatRunsInFront(settings: RED['settings'], path: string): string[] {
  const set = (name: string) => Boolean(Reflect.get(settings, name));
  const found = ['httpNodeAuth', 'httpNodeMiddleware'].filter(set);
  if (underAdminRoot(settings, normalEndpointPath(path))) {
    found.push(...['httpAdminAuth', 'httpAdminCors'].filter(set));
    if (Reflect.get(settings, 'requireHttps') === true) found.push('requireHttps');
    const middleware: unknown = Reflect.get(settings, 'httpAdminMiddleware');
    const own = (m: unknown) => typeof m === 'function' && Reflect.get(m, SKIP_EDITOR_PARSING) === true;
    if (middleware && !(Array.isArray(middleware) ? middleware.every(own) : own(middleware))) found.push('httpAdminMiddleware');
  }
  return found;
}

/** The server red.js creates: `http.createServer(function(req,res) {app(req,res);})`, its one listener. */
export function isNodeRedsOwnServer(server: Server): boolean {
  const listeners = server.listeners('request');
  return listeners.length === 1 && String(listeners[0]).replace(/[\s;]/g, '') === 'function(req,res){app(req,res)}';
}

/**
 * Answers POST, GET and DELETE for `path` (the full path, httpNodeRoot included) with `handler`
 * before Express sees them, when nothing runs in front of the endpoint. Returns the function that
 * stops it, or undefined when the requests keep going through Express.
 */
export function answerAheadOfExpress(RED: RED, path: string, handler: Handler): (() => void) | undefined {
  const server = RED.server as Server | undefined;
  if (!server || typeof server.listeners !== 'function' || whatRunsInFront(RED.settings, path).length) return undefined;
  let routes = dispatchers.get(server);
  if (!routes) {
    if (!isNodeRedsOwnServer(server)) return undefined;
    routes = install(server);
  }
  const key = normalEndpointPath(path);
  const own = addCors(handler, underAdminRoot(RED.settings, key));
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

/** Whether the editor's API (httpAdminRoot, unless false) sees a request for `key` (a normal path). */
function underAdminRoot(settings: RED['settings'], key: string): boolean {
  const adminRoot: unknown = Reflect.get(settings, 'httpAdminRoot');
  if (adminRoot === false) return false;
  const root = normalEndpointPath(typeof adminRoot === 'string' ? adminRoot : '/');
  return root === '/' || key === root || key.startsWith(`${root}/`);
}

/** The editor's API adds `Access-Control-Allow-Origin: *` to every request beneath it: kept. */
function addCors(handler: Handler, cors: boolean): Handler {
  if (!cors) return handler;
  return (req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    handler(req, res);
  };
}
