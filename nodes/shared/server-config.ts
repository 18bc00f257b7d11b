// What a user node sees of an `mcp-server` config node: the shared provider (one long-lived session
// per config node) and register/deregister, as core's mqtt-broker does for its users. Registered
// users get their status mirrored from the session (yellow connecting, green "N tools", red reason).
import type { ToolProvider } from '../../src/mcp/call/tool-provider';
import type { Node, RED } from './red-types';

export interface McpServerConfigNode extends Node {
  provider: ToolProvider;
  displayName: string;
  register(user: Node): void;
  deregister(user: Node): void;
  /**
   * For other APIs of the same server (the esp32-listener's Assist voice reaches Home Assistant's
   * WebSocket API): its URL and its current bearer (token, or the OAuth sign-in's access token).
   */
  bearerAccess?(): { url: string; token(): Promise<string | undefined> } | undefined;
}

export function getServerNode(RED: RED, id: unknown): McpServerConfigNode | undefined {
  if (typeof id !== 'string' || !id) return undefined;
  const n: Node | null = RED.nodes.getNode(id);
  return n && 'register' in n && typeof n.register === 'function' ? (n as McpServerConfigNode) : undefined;
}
