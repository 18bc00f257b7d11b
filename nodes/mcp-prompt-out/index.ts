// `mcp-prompt-out`: answers the prompts/get msg._mcp names (nodes/mcp-prompt-out/help.html): msg.payload
// is the prompt's text, an array of messages, or {description, messages}; a Catch node's message fails it.
import { promptResultFromReply } from '../../src/server/flows/flow-prompts';
import { registerAnswerNode } from '../mcp-endpoint/answer-node';
import type { RED } from '../shared/red-types';

export = function (RED: RED) {
  registerAnswerNode(RED, {
    type: 'mcp-prompt-out',
    pendingOf: (endpoint) => endpoint.pendingPrompts,
    answerOf: (msg) => promptResultFromReply(msg.payload, msg.description),
  });
};
