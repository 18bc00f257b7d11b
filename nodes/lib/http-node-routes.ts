// Mounting on Node-RED's own HTTP server (RED.httpNode) the way core's `http in` does, including
// httpNodeMiddleware, and removing the routes again on redeploy. The router stack is filtered,
// not spliced inside a loop (splicing while iterating skips the next layer: 21-httpin.js's pitfall).
import type { RED } from './red-types';

type Handler = (req: any, res: any, next?: () => void) => void;

export function mountRoutes(RED: RED, path: string, methods: string[], handler: Handler): () => void {
  const middleware: Handler = typeof RED.settings.httpNodeMiddleware === 'function' ? RED.settings.httpNodeMiddleware : (_q, _s, next) => next!();
  for (const method of methods) RED.httpNode[method](path, middleware, handler);
  return () => {
    const router = RED.httpNode._router;
    if (!router?.stack) return;
    router.stack = router.stack.filter(
      (layer: any) => !(layer.route && layer.route.path === path && layer.route.stack.some((l: any) => l.handle === handler)),
    );
  };
}
