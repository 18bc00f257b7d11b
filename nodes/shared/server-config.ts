// What a user node sees of an `mcp-server` config node: the shared provider (one long-lived session
// per config node) and register/deregister, as core's mqtt-broker does for its users. Registered
// users get their status mirrored from the session (yellow connecting, green "N tools", red reason).
import type { ToolProvider } from '../../src/mcp/tool-provider';
import type { Node, RED } from './red-types';

export interface McpServerConfigNode extends Node {
  provider: ToolProvider;
  displayName: string;
  register(user: Node): void;
  deregister(user: Node): void;
}

export function getServerNode(RED: RED, id: unknown): McpServerConfigNode | undefined {
  if (typeof id !== 'string' || !id) return undefined;
  const n: Node | null = RED.nodes.getNode(id);
  return n && 'register' in n && typeof n.register === 'function' ? (n as McpServerConfigNode) : undefined;
}
