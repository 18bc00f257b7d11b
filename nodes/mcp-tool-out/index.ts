// `mcp-tool-out`: answers the call msg._mcp names (nodes/mcp-tool-out/help.html): payload → text / structuredContent /
// image / audio, msg.isError → an error result, topic "progress" → a progress notification without
// finishing, and a message from a Catch node → an error result naming the node that failed.
import { resultFromCaughtError, resultFromReply, type CaughtError } from '../../src/server/reply';
import { McpNodeError, errorMessage } from '../../src/errors';
import { flowInputRequest, type FlowInputRequest } from '../../src/server/calls/asking-the-client';
import type { PendingCalls } from '../../src/server/calls/pending-calls';
import { shortStatus } from '../shared/input-handler';
import { translator } from '../shared/i18n';
import { getEndpointNode } from '../mcp-endpoint/endpoint-config';
import type { DoneFn, Node, NodeDef, NodeMessage, RED, SendFn } from '../shared/red-types';

export = function (RED: RED) {
  const t = translator(RED, 'mcp-tool-out');
  function McpToolOutNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    // Answering is immediate, so no blue "in flight" dot per call (two status events per call cost
    // measurable throughput); a failure still shows a red ring and reaches Catch through done(err).
    const answer = async (msg: NodeMessage) => {
      const handle = msg._mcp as { endpoint?: unknown; handle?: unknown } | undefined;
      if (!handle || typeof handle.handle !== 'string') {
        throw new McpNodeError(t('mcp-tool-out.errors.noHandle'), t('mcp-tool-out.status.noHandle'), 'NO_HANDLE');
      }
      const config = getEndpointNode(RED, handle.endpoint);
      if (!config) throw new McpNodeError(t('mcp-tool-out.errors.noEndpoint'), t('mcp-tool-out.status.noEndpoint'), 'NO_ENDPOINT');
      const { pending } = config.endpoint;
      if (msg.topic === 'progress' && !msg.error) {
        const p = (msg.payload ?? {}) as { progress?: unknown; total?: unknown; message?: unknown };
        const progress = typeof p === 'number' ? p : Number(p.progress);
        if (!Number.isFinite(progress)) throw new McpNodeError(t('mcp-tool-out.errors.badProgress'), t('mcp-tool-out.status.badProgress'), 'BAD_PROGRESS');
        const update = {
          progress,
          ...(typeof p === 'object' && Number.isFinite(Number(p.total)) && p.total !== undefined ? { total: Number(p.total) } : {}),
          ...(typeof p === 'object' && typeof p.message === 'string' ? { message: p.message } : {}),
        };
        if (!(await pending.progress(handle.handle, update))) node.warn(t('mcp-tool-out.errors.notWaiting'));
        return;
      }
      // An answer from the client (msg.input.action, as mcp-tool-in sends it) passes on; anything else in msg.input asks.
      const input = msg.input as { action?: unknown } | undefined;
      if (input !== undefined && input !== null && !(typeof input === 'object' && 'action' in input) && !msg.error)
        return askTheClient(pending, handle.handle, msg);
      const result = msg.error ? resultFromCaughtError(msg.error as CaughtError) : resultFromReply(msg as { payload: unknown });
      // A late answer (timed out, cancelled) is a warning, not an error: a Catch → tool-out loop must not feed itself.
      if (!pending.answer(handle.handle, result)) node.warn(t('mcp-tool-out.errors.notWaiting'));
    };
    // msg.input: the flow asks the person behind the client first; the answer comes out of mcp-tool-in.
    const askTheClient = async (pending: PendingCalls, handle: string, msg: NodeMessage) => {
      let request: FlowInputRequest;
      try {
        request = flowInputRequest(msg.input);
      } catch (err) {
        throw new McpNodeError(errorMessage(err), t('mcp-tool-out.status.badInput'), 'BAD_INPUT_REQUEST');
      }
      try {
        await pending.ask(handle, request, (err) => node.error(t('mcp-tool-out.errors.inputFailed', { reason: errorMessage(err) }), msg));
      } catch (err) {
        throw new McpNodeError(t('mcp-tool-out.errors.cannotAsk', { reason: errorMessage(err) }), t('mcp-tool-out.status.cannotAsk'), 'CANNOT_ASK');
      }
    };
    let failed = false;
    node.on('input', (msg: NodeMessage, _send: SendFn, done: DoneFn) => {
      answer(msg).then(
        () => {
          if (failed) node.status({});
          failed = false;
          done();
        },
        (err: Error) => {
          failed = true;
          node.status({ fill: 'red', shape: 'ring', text: shortStatus(err) });
          done(err);
        },
      );
    });
  }
  RED.nodes.registerType('mcp-tool-out', McpToolOutNode);
};
