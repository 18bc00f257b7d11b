import type { McpEndpointConfigNode } from './endpoint-config';
import type { RED } from './red-types';

export function startXiaozhiLink(_RED: RED, _node: McpEndpointConfigNode, _url: string): () => void {
  return () => undefined;
}
