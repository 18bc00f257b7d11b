// The admin routes the editor uses, registered through the one registration helper: every URL with
// its method and permission (the editor and the browser tests depend on them), and registered once
// per admin app however many node modules ask.
import assert from 'node:assert/strict';
import { oncePerAdminApp } from '../nodes/shared/admin-routes';
import { registerEsp32DeviceRoutes } from '../nodes/esp32-listener/devices-route';
import { registerAgentRoutes } from '../nodes/gemini-agent/routes';
import { registerServerRoutes } from '../nodes/mcp-server/routes';
import { registerClientRoutes } from '../nodes/mcp-endpoint/clients-routes';

/** What the four node modules with dialog routes do when Node-RED loads them. */
function registerAdminRoutes(red: never): void {
  registerServerRoutes(red);
  registerAgentRoutes(red);
  oncePerAdminApp(red, 'esp32-listener', registerEsp32DeviceRoutes);
  registerClientRoutes(red);
}

describe('admin routes: one registration for every dialog route', () => {
  function recordingRed() {
    const routes: string[] = [];
    const guards = new Map<unknown, string>();
    const record =
      (method: string) =>
      (path: string, ...handlers: unknown[]) =>
        routes.push(`${method} ${path} ${guards.get(handlers[0]) ?? 'no permission'}`);
    const red = {
      httpAdmin: { get: record('GET'), post: record('POST') },
      auth: {
        needsPermission: (permission: string) => {
          const guard = () => undefined;
          guards.set(guard, permission);
          return guard;
        },
      },
      _: (key: string) => key,
    };
    return { red, routes };
  }

  it('registers each route once, behind the permission the editor expects', () => {
    const { red, routes } = recordingRed();
    registerAdminRoutes(red as never);
    registerAdminRoutes(red as never); // a second node module loading
    assert.deepEqual(routes.sort(), [
      'GET /esp32-listener/:id/devices esp32-listener.read',
      // The codes of waiting devices are read, devices paired and unpaired only with the listener's permissions.
      'GET /esp32-listener/:id/pairing esp32-listener.read',
      // Sign-in on an endpoint: waiting clients are read, approved, denied and revoked only with the endpoint's permissions.
      'GET /mcp-endpoint/:id/clients mcp-endpoint.read',
      'GET /mcp-server/:id/prompts mcp-server.read',
      'GET /mcp-server/:id/resources mcp-server.read',
      'GET /mcp-server/:id/tools mcp-server.read',
      // A browser redirect carries no admin bearer: the single-use state of /start guards it.
      'GET /mcp-server/oauth/:id/status mcp-server.read',
      'GET /mcp-server/oauth/callback no permission',
      // An authorization server fetches it; it holds only Node-RED's name and callback address.
      'GET /mcp-server/oauth/client-metadata.json no permission',
      'POST /esp32-listener/:id/pair esp32-listener.write',
      'POST /esp32-listener/:id/unpair esp32-listener.write',
      'POST /gemini-agent/test gemini-agent.write',
      'POST /gemini-agent/tools gemini-agent.write',
      'POST /mcp-endpoint/:id/clients/:client/revoke mcp-endpoint.write',
      'POST /mcp-endpoint/:id/clients/:request/approve mcp-endpoint.write',
      'POST /mcp-endpoint/:id/clients/:request/deny mcp-endpoint.write',
      'POST /mcp-server/home-assistant/apis mcp-server.write',
      'POST /mcp-server/oauth/start mcp-server.write',
      'POST /mcp-server/server-card mcp-server.write',
      'POST /mcp-server/test mcp-server.write',
      'POST /mcp-server/tools mcp-server.write',
    ]);
  });

  it('registers again on a new admin app (a restarted runtime)', () => {
    const first = recordingRed();
    const second = recordingRed();
    registerAdminRoutes(first.red as never);
    registerAdminRoutes(second.red as never);
    assert.equal(second.routes.length, first.routes.length);
  });
});
