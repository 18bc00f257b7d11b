// Mounting on Node-RED's own HTTP server (RED.httpNode) the way core's `http in` does, including
// httpNodeMiddleware, and removing the routes again on redeploy. The router stack is filtered,
// not spliced inside a loop (splicing while iterating skips the next layer: 21-httpin.js's pitfall).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { serveEndpointPath } from '../../src/server/http/endpoint-paths';
import { answerAheadOfExpress } from '../shared/ahead-of-express';
import type { RED } from '../shared/red-types';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch';

/** Express 4's router internals (`app._router.stack`), which core's http-in also filters on redeploy. */
interface RouterLayer {
  route?: { path: string; stack: Array<{ handle: unknown }> };
}

/** The full path (httpNodeRoot included) a route at `path` answers on. */
export function fullPath(RED: RED, path: string): string {
  const nodeRoot = typeof RED.settings.httpNodeRoot === 'string' ? RED.settings.httpNodeRoot : '/';
  return nodeRoot.replace(/\/+$/, '') + path;
}

export function mountRoutes(
  RED: RED,
  path: string,
  methods: HttpMethod[],
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  owner = '',
): () => void {
  const configured = RED.settings.httpNodeMiddleware;
  const middleware: RequestHandler = typeof configured === 'function' ? configured : (_q, _s, next) => next();
  for (const method of methods) RED.httpNode[method](path, middleware, handler);
  // For skip-editor-parsing.ts: the full path, as the top-level app sees the request.
  const release = serveEndpointPath(fullPath(RED, path), owner);
  const direct = answerAheadOfExpress(RED, fullPath(RED, path), handler);
  return () => {
    release();
    direct?.();
    const router: { stack?: RouterLayer[] } | undefined = RED.httpNode._router;
    if (!router?.stack) return;
    router.stack = router.stack.filter((layer) => !(layer.route && layer.route.path === path && layer.route.stack.some((l) => l.handle === handler)));
  };
}
