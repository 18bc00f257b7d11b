// The endpoint's outbound link to xiaozhi's MCP endpoint: state changes are logged (never the URL's
// token) so a user sees in the log when the devices can reach the flows and when they cannot.
import { XiaozhiLink } from '../../src/server/xiaozhi-link';
import type { McpEndpointConfigNode } from './endpoint-config';
import type { RED } from '../shared/red-types';

export function startXiaozhiLink(_RED: RED, node: McpEndpointConfigNode, url: string): () => Promise<void> {
  let lastWarning = '';
  const link = new XiaozhiLink(url, () => node.endpoint.createServer(), {
    onState: (state, detail) => {
      if (state === 'connected') {
        lastWarning = '';
        node.log(`xiaozhi MCP endpoint connected (${detail})`);
      } else if (state === 'disconnected' && detail !== lastWarning) {
        lastWarning = detail ?? '';
        node.warn(`xiaozhi MCP endpoint disconnected: ${detail}; retrying with backoff`);
      }
    },
  });
  link.start();
  return () => link.close();
}
