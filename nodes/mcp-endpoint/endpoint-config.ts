// What flow nodes see of an `mcp-endpoint` config node (as `http in` sees its route): the engine
// whose tool registry `mcp-tool-in` joins, and the waiting calls `mcp-tool-out` answers.
import type { McpEndpoint } from '../../src/server/endpoint';
import type { Node, RED } from '../shared/red-types';

export interface McpEndpointConfigNode extends Node {
  endpoint: McpEndpoint;
  /** Shown in msg.mcp.endpoint: the node's name, else its path. */
  label: string;
  register(user: Node): void;
  deregister(user: Node): void;
}

export function getEndpointNode(RED: RED, id: unknown): McpEndpointConfigNode | undefined {
  if (typeof id !== 'string' || !id) return undefined;
  const n = RED.nodes.getNode(id) as McpEndpointConfigNode | null;
  return n && (n as Partial<McpEndpointConfigNode>).endpoint ? n : undefined;
}
