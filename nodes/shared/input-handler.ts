// Every input handler goes through here so that it always ends in `send`+`done()` or `done(err)`
// (Catch nodes see every failure, no unhandled rejection reaches Node-RED) and follows the request
// lifecycle of core's http request node: blue dot while in flight, cleared on success, red ring
// with a short reason on failure. It is also the secret gate of every node with an input: what the
// node sends, logs, shows or fails with is scrubbed (./secret-gate.ts).
import { McpNodeError, errorMessage } from '../../src/errors';
import type { DoneFn, Node, NodeMessage, RED, SendFn } from './red-types';
import { statusWriter } from './node-status';
import { guardNode, scrubbedError } from './secret-gate';
import { shorten } from '../../src/text';
import { readableError } from './readable-error';

export type AsyncInputHandler = (msg: NodeMessage, send: SendFn) => Promise<void>;

export interface InputHandlerOptions {
  /** Status text shown while a request is in flight (a blue dot). */
  busyText?: string;
}

export function handleInput(RED: RED, node: Node, handler: AsyncInputHandler, options: InputHandlerOptions = {}): void {
  const status = statusWriter(RED, node);
  guardNode(node);
  node.on('input', (msg: NodeMessage, send: SendFn, done: DoneFn) => {
    status.busy(options.busyText);
    // Node-RED's `send` calls node.send, which guardNode has made scrub what it sends.
    handler(msg, send).then(
      () => {
        status.succeeded();
        done();
      },
      (err: unknown) => {
        const error = scrubbedError(err instanceof Error ? err : new Error(errorMessage(err)));
        status.failed(shortStatus(error));
        // One readable sentence in the sidebar; the Catch node's msg.error.message and .code (./readable-error.ts).
        done(readableError(error) as unknown as Error);
      },
    );
  });
}

export function shortStatus(err: Error): string {
  if (err instanceof McpNodeError) return err.status;
  return shorten(err.message, 40);
}

/** Promise form of RED.util.evaluateNodeProperty (the callback form also covers async context stores). */
export function evaluateProperty(RED: RED, node: Node, value: unknown, type: string | undefined, msg: NodeMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // The editor stores strings; a hand-edited flow may hold other JSON, which the runtime takes as is.
    RED.util.evaluateNodeProperty(value as string, type || 'str', node, msg, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

export { lines, numberSetting } from '../../src/settings-values';
