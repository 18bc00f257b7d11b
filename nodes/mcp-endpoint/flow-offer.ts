// What mcp-prompt-in and mcp-resource-in share: find the node's mcp-endpoint, show a failure on the
// node (red ring, error in the log), and register what the node offers there until it closes.
import { getEndpointNode, type McpEndpointConfigNode } from './endpoint-config';
import type { Node, NodeMessage, RED } from '../shared/red-types';

export interface FlowOffer {
  config: McpEndpointConfigNode;
  fail(text: string, status: string): void;
  /** Sends the request's message: its payload, what msg.mcp says, and the reply handle in msg._mcp. */
  deliver(payload: unknown, mcp: Record<string, unknown>): (handle: string) => void;
}

export function failOn(node: Node) {
  return (text: string, status: string) => {
    node.error(text);
    node.status({ fill: 'red', shape: 'ring', text: status });
  };
}

/** Undefined (and the node says why) when the node names no deployed endpoint. */
export function flowOffer(RED: RED, node: Node, endpointId: unknown, noEndpoint: [string, string]): FlowOffer | undefined {
  const config = getEndpointNode(RED, endpointId);
  const fail = failOn(node);
  if (!config) {
    fail(...noEndpoint);
    return undefined;
  }
  return {
    config,
    fail,
    deliver: (payload, mcp) => (handle) =>
      node.send({ payload, mcp: { endpoint: config.label, ...mcp }, _mcp: { endpoint: config.id, handle } } as NodeMessage),
  };
}

/** Registers with the endpoint (a name or URI held by another node fails on this one) until the node closes. */
export function offerUntilClosed(
  node: Node,
  offer: FlowOffer,
  register: () => string | undefined,
  duplicate: (other: string) => [string, string],
  deregister: () => void,
): void {
  offer.config.register(node);
  const takenBy = register();
  if (takenBy) offer.fail(...duplicate(takenBy));
  node.on('close', (_removed: boolean, done: () => void) => {
    deregister();
    offer.config.deregister(node);
    done();
  });
}
