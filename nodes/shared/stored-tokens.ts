// A config node's Tokens as stored, before Node-RED replaced the `${VAR}` references in its
// credentials: what names the variable to set when it came out empty ("set MCP_TOKEN on the tab").
import type { Node, RED } from './red-types';

export function storedTokens(RED: RED, node: Node): string {
  const stored = RED.nodes.getCredentials(node.id)?.tokens ?? (node as Node & { credentials?: { tokens?: unknown } }).credentials?.tokens;
  return typeof stored === 'string' ? stored : '';
}
