// What an mcp-endpoint's users show, and what it says once at deploy, from who may call it: open
// (anonymous), tokens, sign-in, or nobody yet (no token, or a token variable that is not set).
import type { EndpointSettings } from '../../src/server/settings';
import { adviseOncePerDeploy } from '../shared/deploy-advice';
import { definedTwiceOnTab, referencedVariables } from '../shared/node-env';
import { storedTokens } from '../shared/stored-tokens';
import type { Node, NodeStatus, RED } from '../shared/red-types';

type Translate = (key: string, vars?: Record<string, unknown>) => string;

export function deployedStatus(RED: RED, node: Node, t: Translate, settings: EndpointSettings, unsetTokens: string[]): NodeStatus {
  const twice = definedTwiceOnTab(node, referencedVariables(storedTokens(RED, node)));
  if (twice.length) node.warn(t('mcp-endpoint.errors.variableTwice', { name: twice.join(', ') }));
  const open = settings.tokens.length === 0 && settings.anonymous && !settings.signIn;
  if (open) {
    // Logged, not warned: anonymous is a choice the user made; the users' yellow status keeps it visible.
    node.log(t('mcp-endpoint.errors.anonymous', { path: settings.path }));
    return { fill: 'yellow', shape: 'dot', text: t('mcp-endpoint.status.anonymous', { path: settings.path }) };
  }
  if (settings.tokens.length === 0 && !settings.signIn && unsetTokens.length) {
    const name = unsetTokens.join(', ');
    // Logged, not warned: an example imported to look at is closed on purpose, and the status says so.
    // Once per deploy for all endpoints waiting for the same variable.
    adviseOncePerDeploy(RED, `mcp-endpoint:${name}`, settings.path, (paths) =>
      RED.log.info(t('mcp-endpoint.errors.tokenVariableUnset', { path: paths.join(', '), name })),
    );
    return { fill: 'red', shape: 'ring', text: t('mcp-endpoint.status.tokenVariableUnset', { name }) };
  }
  if (settings.tokens.length === 0 && !settings.signIn) {
    node.warn(t('mcp-endpoint.errors.noTokens', { path: settings.path }));
    return { fill: 'red', shape: 'ring', text: t('mcp-endpoint.status.noTokens') };
  }
  return { fill: 'green', shape: 'dot', text: settings.path };
}

/** While clients wait for a person: the status says so on every user, until the last one is decided. */
export function withWaiting(status: NodeStatus, t: Translate, waiting: number): NodeStatus {
  if (!waiting) return status;
  return { fill: 'blue', shape: 'ring', text: t('mcp-endpoint.status.waitingClients', { count: waiting }) };
}
