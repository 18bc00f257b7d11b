// `mcp-endpoint` config node: an MCP server on Node-RED's own HTTP server at `path` (and, when
// configured, over xiaozhi's outbound MCP-endpoint WebSocket). `mcp-tool-in` nodes register their
// tools with it; the object graph over context is served when roots are configured.
import { McpEndpoint } from '../../src/server/endpoint';
import { CLIENT_INFO } from '../../src/mcp/settings/client-info';
import { endpointSettings } from '../../src/server/settings';
import { errorMessage } from '../../src/errors';
import { expandEnvDeep, unsetVariables } from '../../src/env-expand';
import { nodeEnvLookup } from '../shared/node-env';
import { storedTokens } from '../shared/stored-tokens';
import { translator } from '../shared/i18n';
import { fullPath } from './http-node-routes';
import { adoptParked, openEndpoint, park, settingsKey, type LastingEndpoint } from './lasting-endpoint';
import { deployedStatus, withWaiting } from './endpoint-status';
import { registerClientRoutes } from './clients-routes';
import { registerChangeRoutes } from './assistant-changes';
import { endpointPathOwner } from '../../src/server/http/endpoint-paths';
import { attachObjectGraph } from './object-graph';
import type { McpEndpointConfigNode } from './endpoint-config';
import { ENDPOINT_CREDENTIALS, ENDPOINT_SETTINGS } from '../../src/server/endpoint-settings-declaration';
import { withDeclaredDefaults } from '../../src/settings-declaration';
import type { Node, NodeDef, NodeStatus, RED } from '../shared/red-types';

// serverInfo.version: the package's version, as the client side announces it (read from package.json).
const VERSION = CLIENT_INFO.version;

class PathTaken extends Error {
  constructor(message: string, readonly path: string) { super(message); } // prettier-ignore
}

export = function (RED: RED) {
  const t = translator(RED, 'mcp-endpoint');
  registerClientRoutes(RED); // the dialog's sign-in list: approve, deny, revoke
  registerChangeRoutes(RED); // the assistant's changes: approve, deny, roll back
  function McpEndpointNode(this: McpEndpointConfigNode, flowDef: NodeDef) {
    RED.nodes.createNode(this, flowDef);
    const def = withDeclaredDefaults(flowDef, ENDPOINT_SETTINGS, nodeEnvLookup(RED, this));
    const node = this;
    const users = new Set<Node>();
    const closers: Array<() => Promise<void> | void> = [];
    let lasting: LastingEndpoint | undefined;
    let status: NodeStatus = {};
    let base: NodeStatus = {};
    const setStatus = (s: NodeStatus) => {
      status = s;
      for (const u of users) u.status(s);
    };
    try {
      // ${VAR} in settings and credentials, as for mcp-server: one exported flow works on every machine,
      // and the token can live in the tab's environment (the examples keep it there).
      const env = nodeEnvLookup(RED, node);
      const settings = endpointSettings(expandEnvDeep({ ...def }, env), expandEnvDeep({ ...(node.credentials ?? {}) }, env));
      const unsetTokens = unsetVariables(storedTokens(RED, node), env);
      node.label = settings.name !== 'node-red' ? settings.name : settings.path;
      // The endpoint this node left at the last deploy, with its connected clients (lasting-endpoint.ts).
      lasting = adoptParked(node.id, settingsKey(settings, unsetTokens));
      lasting?.remount(RED);
      // Two endpoints on one path: Express would give every request to the first, silently.
      const owner = lasting ? undefined : endpointPathOwner(fullPath(RED, settings.path));
      if (owner) throw new PathTaken(t('mcp-endpoint.errors.pathTaken', { path: settings.path, owner }), settings.path);
      lasting ??= openEndpoint(RED, node, { settings, unsetTokens, version: VERSION });
      node.endpoint = lasting.endpoint;
      if (settings.roots.length) attachObjectGraph(RED, node, settings);
      const signIn = lasting.signIn;
      if (signIn) closers.push(signIn.approvals.onChange(() => setStatus(withWaiting(base, t, signIn.approvals.waiting()))));
      base = deployedStatus(RED, node, t, settings, unsetTokens);
      status = withWaiting(base, t, signIn?.approvals.waiting() ?? 0);
    } catch (err) {
      // Never throw from a constructor: report, and let every tool-in show the reason.
      const taken = err instanceof PathTaken;
      node.error(taken ? err.message : t('mcp-endpoint.errors.badConfig', { reason: errorMessage(err) }));
      node.label = String(def.name || def.path);
      node.endpoint = new McpEndpoint({ name: 'node-red', version: VERSION });
      status = { fill: 'red', shape: 'ring', text: taken ? t('mcp-endpoint.status.pathTaken', { path: err.path }) : t('mcp-endpoint.status.badConfig') };
    }
    // One list_changed per list and deploy: announce when the runtime has started every node (and
    // the skills they offer are built).
    const flush = () =>
      void node.endpoint.skills.built().then(() => {
        for (const registry of [node.endpoint.tools, node.endpoint.prompts, node.endpoint.resources, node.endpoint.skills]) registry.flush();
      });
    RED.events?.on('flows:started', flush);
    closers.push(() => void RED.events?.removeListener('flows:started', flush));
    node.register = (user: Node) => {
      users.add(user);
      user.status(status);
    };
    node.deregister = (user: Node) => void users.delete(user);
    node.on('close', (removed: boolean, done: () => void) => {
      users.clear();
      const reason = t('mcp-endpoint.errors.closed');
      // Redeployed: the next node with this id may take the endpoint over, clients and all.
      if (lasting && !removed) {
        lasting.endpoint.interrupt(reason); // the flows behind calls under way stop with this deploy
        park(RED, node.id, lasting, reason);
      }
      const ending = lasting && removed ? lasting.close(reason) : Promise.resolve(lasting ? undefined : node.endpoint.close(reason));
      Promise.allSettled([ending, ...closers.map((c) => c())]).then(() => done());
    });
  }

  RED.nodes.registerType('mcp-endpoint', McpEndpointNode, {
    credentials: ENDPOINT_CREDENTIALS,
  });
};
