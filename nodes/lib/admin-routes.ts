// Every admin HTTP route the editor's dialogs use, one module per concern under routes/, registered
// here once per admin app (namespaced and permissioned like core's nodes). Each node module that
// has a dialog calls this, so disabling one node set leaves the others' routes in place; the test
// helper builds a fresh admin app per runtime, hence the guard per app rather than per process.
import type { RED } from './red-types';
import { registerEsp32DeviceRoutes } from './routes/esp32-devices';
import { registerGeminiTestRoute } from './routes/gemini-test';
import { registerGeminiToolsRoute } from './routes/gemini-tools';
import { registerOAuthRoutes } from './routes/oauth';
import { registerPromptResourceRoutes } from './routes/prompts-resources';
import { registerServerToolRoutes } from './routes/server-tools';

const registeredOn = new WeakSet<object>();

export function registerAdminRoutes(RED: RED): void {
  if (!RED.httpAdmin || registeredOn.has(RED.httpAdmin)) return;
  registeredOn.add(RED.httpAdmin);
  registerServerToolRoutes(RED); //        /mcp-server/:id/tools, /mcp-server/test, /mcp-server/tools
  registerPromptResourceRoutes(RED); //    /mcp-server/:id/prompts, /mcp-server/:id/resources
  registerOAuthRoutes(RED); //             /mcp-server/oauth/…
  registerGeminiTestRoute(RED); //         /gemini-agent/test
  registerGeminiToolsRoute(RED); //        /gemini-agent/tools
  registerEsp32DeviceRoutes(RED); //       /esp32-listener/:id/devices
}
