// The status every user node shows for its server: yellow ring connecting, green dot "N tools",
// red ring with a short reason, nothing before the first use (sessions connect lazily).
import type { ProviderState } from '../../src/mcp/call/tool-provider';
import { translator } from './i18n';
import type { NodeStatus, RED } from './red-types';

export function statusFor(RED: RED, s: ProviderState): NodeStatus {
  const t = translator(RED, 'mcp-server');
  switch (s.kind) {
    case 'connecting':
      return { fill: 'yellow', shape: 'ring', text: s.note ? `${t('mcp-server.status.connecting')}: ${s.note}` : t('mcp-server.status.connecting') };
    case 'ready':
      return { fill: 'green', shape: 'dot', text: t('mcp-server.status.tools', { count: s.toolCount }) };
    case 'error':
      return { fill: 'red', shape: 'ring', text: s.reason };
    default:
      return {};
  }
}
