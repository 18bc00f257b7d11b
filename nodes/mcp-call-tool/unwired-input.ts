// A call's input requests leave on output 2. With nothing wired there nobody can answer them, so the
// node declines each at once (and says so once per deploy) rather than holding the call for the
// whole input wait. The wires are read at each call: a deploy that changes only wires keeps the
// running node and calls its updateWires.
import type { InputAsker } from '../../src/mcp/call/input-requests';
import { shorten } from '../../src/text';
import type { Node } from '../shared/red-types';

export function unwiredInput(node: Node, t: (key: string, vars?: Record<string, unknown>) => string): { wired(): boolean; decline: InputAsker } {
  let said = false;
  return {
    wired: () => ((node as unknown as { wires?: unknown[][] }).wires?.[1]?.length ?? 0) > 0,
    decline: async (request) => {
      if (!said) {
        said = true;
        node.warn(t('mcp-call-tool.warnings.inputUnwired', { message: shorten(request.message, 80) }));
      }
      return { action: 'decline' };
    },
  };
}
