import type { EndpointSettings } from '../../src/server/settings';
import type { McpEndpointConfigNode } from './endpoint-config';
import type { RED } from './red-types';

export function attachObjectGraph(_RED: RED, _node: McpEndpointConfigNode, _settings: EndpointSettings): void {}
