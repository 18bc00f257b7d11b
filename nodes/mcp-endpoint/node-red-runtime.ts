// Node-RED's flow configuration and node registry for the endpoint's write tools, through the
// runtime API the editor's own deploy goes through (@node-red/runtime's flows.getFlows/setFlows and
// nodes.getNodeList/getNodeConfig). The node API a node gets (RED) has no flows, and the admin HTTP
// API needs a signed-in user; the runtime module Node-RED loaded is found among the loaded modules
// (so it is the same instance, whatever folder Node-RED runs from). Credentials are never read here:
// only the names of a node's stored credentials, through RED.nodes.getCredentials.
import type { DeployedNode, NodeRedRuntime, NodeTypeInfo } from '../../src/server/node-red/types';
import type { RED } from '../shared/red-types';

interface RuntimeApi {
  isStarted(): Promise<boolean> | boolean;
  flows: {
    getFlows(opts: object): Promise<{ flows: DeployedNode[]; rev: string }>;
    setFlows(opts: { flows: { flows: DeployedNode[] }; deploymentType: string; user?: object }): Promise<{ rev: string }>;
  };
  nodes: {
    getNodeList(opts: object): Promise<Array<{ id: string; module: string; types: string[]; enabled: boolean }>>;
    getNodeConfig(opts: { id: string; lang: string }): Promise<string>;
  };
}

const RUNTIME_FILE = /[\\/]@node-red[\\/]runtime[\\/]lib[\\/]index\.js$/;
const STARTED_WAIT_MS = 10_000;

/** The runtime Node-RED loaded, or undefined (an embedding that bundles it away). */
function loadedRuntime(): RuntimeApi | undefined {
  const found = Object.entries(require.cache)
    .filter(([file, mod]) => RUNTIME_FILE.test(file) && mod?.exports && typeof (mod.exports as RuntimeApi).flows?.setFlows === 'function')
    .map(([, mod]) => mod!.exports as RuntimeApi);
  return found.find((r) => r.isStarted() === true) ?? found[0];
}

export function nodeRedRuntime(RED: RED): NodeRedRuntime | undefined {
  const api = loadedRuntime();
  if (!api) return undefined;
  const events = RED.events as unknown as { once(event: string, l: () => void): void; removeListener(event: string, l: () => void): void };
  return {
    flows: () => api.flows.getFlows({}),
    async deploy(flows, who) {
      const started = new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          events.removeListener('flows:started', done);
          resolve();
        };
        const timer = setTimeout(done, STARTED_WAIT_MS);
        events.once('flows:started', done);
      });
      RED.log.info(`mcp-endpoint: deploying flows changed through the Node-RED tools (${who})`);
      // "flows": only the tabs that changed restart, as the editor's "Modified Flows" deploy.
      const { rev } = await api.flows.setFlows({ flows: { flows }, deploymentType: 'flows', user: { username: who } });
      await started;
      return rev;
    },
    async types() {
      const sets = await api.nodes.getNodeList({});
      const out: NodeTypeInfo[] = [];
      for (const set of sets) for (const type of set.types) out.push({ type, module: set.module, set: set.id, enabled: set.enabled });
      return out;
    },
    async help(type) {
      const set = (await api.nodes.getNodeList({})).find((s) => s.types.includes(type));
      if (!set) return undefined;
      const html = await api.nodes.getNodeConfig({ id: set.id, lang: 'en-US' });
      return helpText(html, type);
    },
    credentialKeys(id) {
      const stored = RED.nodes.getCredentials(id);
      return stored ? Object.keys(stored).filter((k) => stored[k] !== undefined && stored[k] !== '') : [];
    },
    inject(id) {
      const node = RED.nodes.getNode(id) as { type?: string; receive?: (msg?: object) => void } | null;
      if (!node || node.type !== 'inject' || typeof node.receive !== 'function') return false;
      node.receive();
      return true;
    },
  };
}

/** A type's help as text: its `data-help-name` script, tags dropped, entities and blank lines tidied. */
export function helpText(html: string, type: string): string | undefined {
  const escaped = type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = new RegExp(`<script[^>]*data-help-name=["']${escaped}["'][^>]*>([\\s\\S]*?)</script>`).exec(html);
  if (!found) return undefined;
  return found[1]
    .replace(/<(br|\/p|\/li|\/dt|\/dd|\/h\d)\b[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}
