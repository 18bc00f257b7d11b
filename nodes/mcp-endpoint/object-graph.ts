// The object graph's roots over Node-RED context: `global.<key>` in the configured store, or
// `flow:<tab id>.<key>` reached through any node deployed on that tab (the runtime gives flow
// context to nodes, not to a config node). Reads and writes use the callback API, so
// asynchronous stores (localfilesystem) work as well as memory.
import { ObjectGraph } from '../../src/server/flows/object-graph/graph-tools';
import { parseRoot, type GraphRoot, type RootSpec } from '../../src/server/flows/object-graph/source';
import type { EndpointSettings } from '../../src/server/settings';
import type { McpEndpointConfigNode } from './endpoint-config';
import type { ContextStore as Store, RED } from '../shared/red-types';

function contextFor(RED: RED, node: McpEndpointConfigNode, spec: RootSpec): Store {
  if (spec.scope === 'global') return node.context().global;
  let onTab: string | undefined;
  RED.nodes.eachNode((n) => {
    if (!onTab && n.z === spec.tab && RED.nodes.getNode(n.id)) onTab = n.id;
  });
  const user = onTab ? RED.nodes.getNode(onTab) : null;
  if (!user) throw new Error(`flow:${spec.tab} has no deployed node, so its flow context cannot be reached; check the tab id in the endpoint's roots`);
  return user.context().flow;
}

export function graphRoots(RED: RED, node: McpEndpointConfigNode, settings: EndpointSettings): GraphRoot[] {
  const names = new Set<string>();
  return settings.roots.map((text) => {
    const spec = parseRoot(text);
    if (names.has(spec.name)) throw new Error(`object graph root name "${spec.name}" appears twice; give each root a different last key`);
    names.add(spec.name);
    const store = settings.contextStore;
    return {
      name: spec.name,
      read: () => new Promise((resolve, reject) => contextFor(RED, node, spec).get(spec.key, store, (err, v) => (err ? reject(err) : resolve(v)))),
      replace: (value) =>
        new Promise<void>((resolve, reject) => contextFor(RED, node, spec).set(spec.key, value, store, (err) => (err ? reject(err) : resolve()))),
    };
  });
}

export function attachObjectGraph(RED: RED, node: McpEndpointConfigNode, settings: EndpointSettings): void {
  node.endpoint.graph = new ObjectGraph(graphRoots(RED, node, settings), settings, node.endpoint.tools);
}
