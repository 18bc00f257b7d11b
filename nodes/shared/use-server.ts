// How a client node (mcp-list-tools, mcp-call-tool, mcp-prompt, mcp-resource) uses its mcp-server
// config node, written once: look it up, register (so the node shows the session's status and the
// session lives while it is used), deregister on close, and without a server a red ring, a log
// line, and for every message the same error a Catch node sees.
import { McpNodeError } from '../../src/errors';
import { translator } from './i18n';
import { statusWriter } from './node-status';
import type { Node, RED } from './red-types';
import { getServerNode, type McpServerConfigNode } from './server-config';

export interface ServerUse {
  /** The server, or undefined when none is configured (the node already said so). */
  server?: McpServerConfigNode;
  /** The server for a message; throws the "no server" error when there is none. */
  required(): McpServerConfigNode;
}

export function useServer(RED: RED, node: Node, serverId: unknown): ServerUse {
  const t = translator(RED, 'shared');
  const server = getServerNode(RED, serverId);
  if (!server) {
    node.error(t('common.errors.noServer'));
    statusWriter(RED, node).fixed({ fill: 'red', shape: 'ring', text: t('common.status.noServer') });
  } else {
    server.register(node);
    node.on('close', (_removed: boolean, done: () => void) => {
      server.deregister(node);
      done();
    });
  }
  return {
    server,
    required() {
      if (!server) throw new McpNodeError(t('common.errors.noServer'), t('common.status.noServer'), 'NO_SERVER');
      return server;
    },
  };
}
