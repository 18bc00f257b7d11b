// The mcp-server side of OAuth: with `auth: "oauth"` the transport's bearer comes from the sign-in
// stored for that config node (refreshed before expiry and after a 401, saved at once).
import { OAuthTokenProvider } from '../../src/mcp/oauth/token-provider';
import type { McpServerSettings } from '../../src/mcp/settings/settings';
import { oauthStateStore } from './oauth-store';
import type { RED } from '../shared/red-types';
import { PASSWORD_PLACEHOLDER } from '../shared/secret-destinations';

/** The configured client of a node: typed in the dialog (not deployed yet) or stored. */
export function oauthClientOf(
  RED: RED,
  nodeId: string | undefined,
  typed: { clientId?: unknown; clientSecret?: unknown } = {},
): { clientId?: string; clientSecret?: string } {
  const stored = (nodeId ? RED.nodes.getCredentials(nodeId) : undefined) ?? {};
  const pick = (v: unknown, fallback: unknown) =>
    typeof v === 'string' && v.trim() && v !== PASSWORD_PLACEHOLDER ? v.trim() : typeof fallback === 'string' && fallback ? fallback : undefined;
  return { clientId: pick(typed.clientId, stored.clientId), clientSecret: pick(typed.clientSecret, stored.clientSecret) };
}

/** Gives `settings` its token provider when the server signs in with OAuth; no-op otherwise. */
export function applyOAuth(RED: RED, settings: McpServerSettings, nodeId: string, debug?: (m: string) => void): McpServerSettings {
  if (settings.auth !== 'oauth' || !settings.url) return settings;
  const client = oauthClientOf(RED, nodeId);
  settings.authProvider = new OAuthTokenProvider({
    serverUrl: settings.url,
    store: oauthStateStore(RED, nodeId),
    ...client,
    onRefreshed: (why, expiresAt) =>
      debug?.(
        `${settings.url}: OAuth token refreshed (${why === '401' ? 'after a 401' : 'before expiry'})${expiresAt ? `, valid until ${new Date(expiresAt).toISOString()}` : ''}`,
      ),
  });
  return settings;
}
