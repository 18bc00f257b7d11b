// `mcp-resource-out`: answers the resources/read msg._mcp names (nodes/mcp-resource-out/help.html):
// a string is text, a Buffer bytes, anything else JSON; msg.contentType overrides the node's MIME type.
import { resourceBodyFromReply } from '../../src/server/flows/flow-resources';
import { registerAnswerNode } from '../mcp-endpoint/answer-node';
import type { RED } from '../shared/red-types';

export = function (RED: RED) {
  registerAnswerNode(RED, {
    type: 'mcp-resource-out',
    pendingOf: (endpoint) => endpoint.pendingReads,
    answerOf: (msg) => resourceBodyFromReply(msg.payload, msg.contentType),
  });
};
