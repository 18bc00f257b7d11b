// `mcp-server` config node: owns one long-lived MCP session (or, for transport "esp32", the route
// to a device that dialled in) and mirrors its state onto every node that registered with it.
import { errorMessage } from '../src/errors';
import { McpSession } from '../src/mcp/session';
import { normalizeSettings, type McpServerSettings } from '../src/mcp/settings';
import type { ProviderState, ToolProvider } from '../src/mcp/tool-provider';
import { UnconfiguredProvider } from '../src/mcp/unconfigured-provider';
import { registerServerAdminRoutes } from './lib/server-admin-routes';
import { applyOAuth } from './lib/oauth-node';
import { registerOAuthRoutes } from './lib/oauth-routes';
import { forgetOAuthState } from './lib/oauth-store';
import { translator } from './lib/i18n';
import type { Node, NodeDef, NodeStatus, RED } from './lib/red-types';
import { statusFor } from './lib/server-status';
import type { McpServerConfigNode } from './lib/server-config';

export = function (RED: RED) {
  const t = translator(RED, 'mcp-server');
  function McpServerNode(this: McpServerConfigNode, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const users = new Set<Node>();
    let provider: ToolProvider;
    try {
      const settings = applyOAuth(RED, normalizeSettings({ ...def, id: def.id }, node.credentials?.token), def.id, (m) => node.debug(m));
      provider = createProvider(settings, node);
      node.displayName = settings.name || def.name || settings.url || settings.command || settings.transport;
    } catch (err) {
      // Never throw from a constructor: report, and let every request fail with the reason.
      const reason = errorMessage(err);
      node.error(t('mcp-server.errors.badConfig', { reason }));
      provider = new UnconfiguredProvider(def.id, String(def.name ?? ''), reason);
      node.displayName = String(def.name || 'mcp-server');
    }
    node.provider = provider;

    const status = (s: ProviderState): NodeStatus => statusFor(RED, s);
    provider.onStateChange((s) => {
      for (const u of users) u.status(status(s));
    });
    node.register = (user: Node) => {
      users.add(user);
      user.status(status(provider.state()));
    };
    node.deregister = (user: Node) => {
      users.delete(user);
    };
    node.on('close', (removed: boolean, done: () => void) => {
      users.clear();
      if (removed) forgetOAuthState(RED, node.id);
      provider.close().then(done, done);
    });
  }

  function createProvider(settings: McpServerSettings, node: Node): ToolProvider {
    if (settings.transport === 'esp32') {
      // Loaded on demand: only flows with ESP32 devices need the device engine.
      const { createEsp32ToolProvider } = require('../src/esp32/esp32-tool-provider');
      return createEsp32ToolProvider({
        id: settings.id,
        name: settings.name,
        listenerId: settings.listener!,
        deviceId: settings.deviceId,
        timeoutMs: settings.timeoutMs,
      }) as ToolProvider;
    }
    return new McpSession(settings, {
      debug: (m) => node.debug(m),
      warn: (m) => node.warn(m),
      info: (m) => node.log(m),
    });
  }

  RED.nodes.registerType('mcp-server', McpServerNode as any, {
    // oauthState: the sign-in (tokens), written by the OAuth routes and refreshes, never in the dialog.
    credentials: { token: { type: 'password' }, clientId: { type: 'text' }, clientSecret: { type: 'password' }, oauthState: { type: 'password' } },
  });
  registerServerAdminRoutes(RED);
  registerOAuthRoutes(RED);
};
