// The admin HTTP routes behind the dialogs are registered by the node that owns them (namespaced
// and permissioned like core's nodes): nodes/mcp-server/routes.ts, nodes/gemini-agent/routes.ts,
// nodes/esp32-listener/devices-route.ts. Each node module calls this on load, so disabling one node
// set leaves the others' routes in place; the test helper builds a fresh admin app per runtime,
// hence one guard per admin app and name rather than per process.
import type { RED } from './red-types';

const registered = new WeakMap<object, Set<string>>();

/** Runs `register` once for each admin app (by `name`); nothing without an admin app. */
export function oncePerAdminApp(RED: RED, name: string, register: (RED: RED) => void): void {
  if (!RED.httpAdmin) return;
  const names = registered.get(RED.httpAdmin) ?? new Set<string>();
  registered.set(RED.httpAdmin, names);
  if (names.has(name)) return;
  names.add(name);
  register(RED);
}
