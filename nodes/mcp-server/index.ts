// `mcp-server` config node: owns one long-lived MCP session (or, for transport "esp32", the route
// to a device that dialled in) and mirrors its state onto every node that registered with it.
import { errorMessage } from '../../src/errors';
import { secrets } from '../../src/secrets';
import { describeEndpoint, normalizeSettings } from '../../src/mcp/settings/settings';
import { SERVER_CREDENTIALS, SERVER_RUNTIME_CREDENTIALS } from '../../src/mcp/settings/server-settings-declaration';
import { rememberSecretDestination, serverDestination } from '../shared/secret-destinations';
import type { ProviderState, ToolProvider } from '../../src/mcp/call/tool-provider';
import { UnconfiguredProvider } from '../../src/mcp/unconfigured-provider';
import { createProvider, secretCredentialValues } from './provider';
import { registerServerRoutes } from './routes';
import { applyOAuth } from './oauth';
import { forgetOAuthState } from './oauth-store';
import { translator } from '../shared/i18n';
import type { Node, NodeDef, RED } from '../shared/red-types';
import { nodeEnvLookup, withOwnAddress, withStdioPaths } from '../shared/node-env';
import { guardNode } from '../shared/secret-gate';
import { statusWriter } from '../shared/node-status';
import type { McpServerConfigNode } from '../shared/server-config';

const IDLE_DISCONNECT_MS = 1000;

export = function (RED: RED) {
  const t = translator(RED, 'mcp-server');
  function McpServerNode(this: McpServerConfigNode, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const users = new Set<Node>();
    let provider: ToolProvider;
    guardNode(node);
    // Registered before anything can fail, so even a bad-config message cannot carry them.
    const releases = [secrets.register([node.credentials?.token, ...secretCredentialValues(node.credentials?.secrets)])];
    const releaseSecrets = () => releases.forEach((release) => release());
    try {
      const raw = withOwnAddress(RED, { ...def, id: def.id, secrets: node.credentials?.secrets });
      const expanded = normalizeSettings(raw, node.credentials?.token, nodeEnvLookup(RED, node));
      const settings = applyOAuth(RED, withStdioPaths(RED, expanded), def.id, (m) => node.debug(m));
      releases.push(secrets.register(settings.secretValues ?? [])); // as expanded from ${VAR}
      releases.push(rememberSecretDestination(def.id, serverDestination(settings, describeEndpoint(settings))));
      provider = createProvider(RED, settings, node);
      // The bearer as this server sends it: the sign-in's, the token, or an Authorization header.
      const headerBearer = /^Bearer\s+(.+)$/i.exec(Object.entries(settings.headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1] ?? '')?.[1];
      // A sign-in's bearer changes with each refresh: the one handed out is registered with the
      // scrubber (the previous one released), so Home Assistant echoing it never shows it.
      let releaseBearer: (() => void) | undefined;
      const bearer = async () => {
        const token = settings.authProvider ? await settings.authProvider.token() : settings.token || headerBearer;
        const release = secrets.register([token]);
        releaseBearer?.();
        releaseBearer = release;
        return token;
      };
      releases.push(() => releaseBearer?.());
      node.bearerAccess = () => (settings.url ? { url: settings.url, token: bearer } : undefined);
      node.displayName = settings.name || def.name || settings.url || settings.command || settings.transport;
    } catch (err) {
      // Never throw from a constructor: report, and let every request fail with the reason.
      const reason = errorMessage(err);
      node.error(t('mcp-server.errors.badConfig', { reason }));
      provider = new UnconfiguredProvider(def.id, String(def.name ?? ''), reason);
      node.displayName = String(def.name || 'mcp-server');
    }
    node.provider = provider;

    // Each user's own status writer decides what to show (it may use several servers).
    const show = (user: Node, s: ProviderState) => statusWriter(RED, user).server(node.id, node.displayName, s);
    provider.onStateChange((s) => {
      for (const u of users) show(u, s);
    });
    // The last user gone: end the session (and its stdio process) until a node uses it again. After a
    // short grace period, so a redeployed user re-registers without a restart and a closing node's
    // notifications/cancelled still goes out on the open session.
    let idleTimer: NodeJS.Timeout | undefined;
    // While nodes use the server, its state reaches them from deploy on and within seconds of a change.
    let unwatch: (() => void) | undefined;
    node.register = (user: Node) => {
      clearTimeout(idleTimer);
      guardNode(user); // the status mirrored below leaves through the user node
      users.add(user);
      show(user, provider.state());
      unwatch ??= provider.watch?.();
    };
    node.deregister = (user: Node) => {
      users.delete(user);
      if (users.size === 0) {
        unwatch?.();
        unwatch = undefined;
      }
      if (users.size > 0 || !provider.disconnect) return;
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        if (users.size === 0) void provider.disconnect?.().catch((err) => node.debug(errorMessage(err)));
      }, IDLE_DISCONNECT_MS);
      idleTimer.unref?.();
    };
    node.on('close', (removed: boolean, done: () => void) => {
      clearTimeout(idleTimer);
      unwatch?.();
      users.clear();
      if (removed) forgetOAuthState(RED, node.id);
      const finish = () => {
        releaseSecrets();
        done();
      };
      provider.close().then(finish, finish);
    });
  }

  RED.nodes.registerType('mcp-server', McpServerNode, {
    // The dialog's credentials (src/mcp/settings/server-settings-declaration.ts), plus oauthState: the sign-in
    // (tokens), written by the OAuth routes and refreshes, never shown in the dialog.
    credentials: { ...SERVER_CREDENTIALS, ...SERVER_RUNTIME_CREDENTIALS },
  });
  registerServerRoutes(RED);
};
