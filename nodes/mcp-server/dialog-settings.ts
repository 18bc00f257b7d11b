// An mcp-server as the editor's dialog has it (saved or not), turned into session settings for the
// routes that connect with it (Test connection, the tools of an undeployed server). The editor never
// holds a deployed credential: it sends the password placeholder (or nothing) and we read the stored
// one of that config node, but only while the dialog still names the URL or command line the node
// was deployed with (secret-destinations.ts); a token or secret typed into the dialog is used as is.
import { describeEndpoint, normalizeSettings, type McpServerSettings } from '../../src/mcp/settings/settings';
import { PASSWORD_PLACEHOLDER, SECRET_STAYS, serverDestination, storedSecretsMayGo } from '../shared/secret-destinations';
import { nodeEnvLookup, withOwnAddress, withStdioPaths } from '../shared/node-env';
import { processEnvLookup, type EnvLookup } from '../../src/env-expand';
import { applyOAuth } from './oauth';
import type { Node, RED } from '../shared/red-types';
import type { DialogServer as DeclaredDialogServer, Untrusted } from '../../src/mcp/settings/server-settings-declaration';

export { PASSWORD_PLACEHOLDER };

/** The dialog's server as it arrives: declared once beside the settings, every field unchecked. */
export type DialogServer = Untrusted<DeclaredDialogServer>;

export function dialogSettings(RED: RED, body: DialogServer, fallbackId: string): McpServerSettings {
  const id = typeof body.id === 'string' && body.id ? body.id : undefined;
  const config = body.config && typeof body.config === 'object' ? (body.config as Record<string, unknown>) : {};
  const raw = withOwnAddress(RED, { ...config, id: id ?? fallbackId });
  // ${VAR} resolves as for the deployed node: its own variables, its group's and tab's, global, process.
  const env = dialogEnvLookup(RED, id, body.z);
  const unsecured = normalizeSettings(raw, undefined, env);
  const stored = storedSecretsMayGo(id, serverDestination(unsecured, describeEndpoint(unsecured)));
  const settings = normalizeSettings({ ...raw, secrets: secretsFor(RED, body, stored) }, tokenFor(RED, body, stored), env);
  // The node's OAuth tokens likewise go only where it was deployed to.
  return applyOAuth(RED, withStdioPaths(RED, settings), stored ? (id ?? '') : '');
}

/**
 * Where the dialog's `${VAR}` are looked up: the deployed node itself; for a node not deployed yet,
 * a deployed node on the tab it is scoped to (the tab's variables, credentials among them, live only
 * in the runtime); else the global environment and the process, as for a global config node.
 */
export function dialogEnvLookup(RED: RED, id: string | undefined, z: unknown): EnvLookup {
  const deployed = id ? RED.nodes.getNode(id) : null;
  if (deployed) return nodeEnvLookup(RED, deployed);
  let onTab: Node | null = null;
  if (typeof z === 'string' && z) {
    RED.nodes.eachNode((n: { id: string; z?: string }) => {
      if (!onTab && n.z === z) onTab = RED.nodes.getNode(n.id);
    });
  }
  if (onTab) return nodeEnvLookup(RED, onTab);
  return (name) => {
    const global = (RED.util as { getSetting?(node: unknown, name: string): unknown }).getSetting?.(null, name);
    return global === undefined || global === null ? processEnvLookup(name) : String(global);
  };
}

/** The stored credentials of a config node (its dialog sends the node id). */
export function storedCredentials<T extends Record<string, unknown>>(RED: RED, id: unknown): Partial<T> | undefined {
  if (typeof id !== 'string' || !id) return undefined;
  return (RED.nodes as unknown as { getCredentials?(id: string): Partial<T> | undefined }).getCredentials?.(id);
}

function tokenFor(RED: RED, body: DialogServer, stored: boolean): string | undefined {
  const token = typeof body.token === 'string' ? body.token : undefined;
  if (token && token !== PASSWORD_PLACEHOLDER) return token;
  if (token === PASSWORD_PLACEHOLDER && !stored) throw new Error(SECRET_STAYS);
  return stored ? storedCredentials<{ token: string }>(RED, body.id)?.token : undefined;
}

// Secret header/env entries: what the dialog typed ({headers, env} object), else the stored credential.
function secretsFor(RED: RED, body: DialogServer, stored: boolean): unknown {
  if (body.secrets && typeof body.secrets === 'object') return body.secrets;
  return stored ? storedCredentials<{ secrets: string }>(RED, body.id)?.secrets : undefined;
}
