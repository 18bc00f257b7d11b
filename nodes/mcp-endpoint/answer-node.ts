// The node that answers what an `mcp-prompt-in` or `mcp-resource-in` sent (as mcp-tool-out answers
// tool calls): it finds the waiting request by msg._mcp, turns msg into the answer (a bad one goes
// to Catch and the request keeps waiting), and a message from a Catch node fails the request with
// the error text and the node that raised it.
import { caughtErrorText, type CaughtError } from '../../src/server/reply';
import { requestFailure } from '../../src/server/calls/pending-requests';
import type { McpEndpoint } from '../../src/server/endpoint';
import { McpNodeError, errorMessage } from '../../src/errors';
import { shortStatus } from '../shared/input-handler';
import { translator } from '../shared/i18n';
import { getEndpointNode } from './endpoint-config';
import type { DoneFn, Node, NodeDef, NodeMessage, RED, SendFn } from '../shared/red-types';

export interface AnswerNodeKind<R> {
  type: 'mcp-prompt-out' | 'mcp-resource-out';
  pendingOf(endpoint: McpEndpoint): { answer(handle: string, outcome: R | Error): boolean };
  /** Throws with what is wrong with the message as an answer. */
  answerOf(msg: NodeMessage): R;
}

export function registerAnswerNode<R>(RED: RED, kind: AnswerNodeKind<R>): void {
  const t = translator(RED, kind.type);
  function AnswerNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const answer = (msg: NodeMessage) => {
      const handle = msg._mcp as { endpoint?: unknown; handle?: unknown } | undefined;
      if (!handle || typeof handle.handle !== 'string')
        throw new McpNodeError(t(`${kind.type}.errors.noHandle`), t(`${kind.type}.status.noHandle`), 'NO_HANDLE');
      const config = getEndpointNode(RED, handle.endpoint);
      if (!config) throw new McpNodeError(t(`${kind.type}.errors.noEndpoint`), t(`${kind.type}.status.noEndpoint`), 'NO_ENDPOINT');
      let outcome: R | Error;
      if (msg.error) outcome = requestFailure(caughtErrorText(msg.error as CaughtError));
      else {
        try {
          outcome = kind.answerOf(msg);
        } catch (err) {
          throw new McpNodeError(t(`${kind.type}.errors.badAnswer`, { reason: errorMessage(err) }), t(`${kind.type}.status.badAnswer`), 'BAD_ANSWER');
        }
      }
      // A late answer (timed out, cancelled) is a warning, not an error: a Catch → out loop must not feed itself.
      if (!kind.pendingOf(config.endpoint).answer(handle.handle, outcome)) node.warn(t(`${kind.type}.errors.notWaiting`));
    };
    let failed = false;
    node.on('input', (msg: NodeMessage, _send: SendFn, done: DoneFn) => {
      try {
        answer(msg);
        if (failed) node.status({});
        failed = false;
        done();
      } catch (err) {
        failed = true;
        node.status({ fill: 'red', shape: 'ring', text: shortStatus(err as Error) });
        done(err as Error);
      }
    });
  }
  RED.nodes.registerType(kind.type, AnswerNode);
}
