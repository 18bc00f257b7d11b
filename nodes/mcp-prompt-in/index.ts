// `mcp-prompt-in`: declares one prompt on an mcp-endpoint and sends one message per prompts/get:
// the arguments in msg.payload, the reply handle in msg._mcp (keep it for the mcp-prompt-out that
// answers with the prompt's messages).
import { flowPromptSettings } from '../../src/server/flows/flow-prompts';
import { withDeclaredDefaults } from '../../src/settings-declaration';
import { errorMessage } from '../../src/errors';
import { translator } from '../shared/i18n';
import { flowOffer, offerUntilClosed } from '../mcp-endpoint/flow-offer';
import { SETTINGS } from './settings';
import type { Node, NodeDef, RED } from '../shared/red-types';
import { nodeEnvLookup } from '../shared/node-env';

export = function (RED: RED) {
  const t = translator(RED, 'mcp-prompt-in');
  function McpPromptInNode(this: Node, flowDef: NodeDef) {
    RED.nodes.createNode(this, flowDef);
    const def = withDeclaredDefaults(flowDef, SETTINGS, nodeEnvLookup(RED, this));
    const node = this;
    const offer = flowOffer(RED, node, def.endpoint, [t('mcp-prompt-in.errors.noEndpoint'), t('mcp-prompt-in.status.noEndpoint')]);
    if (!offer) return;
    let settings: ReturnType<typeof flowPromptSettings>;
    try {
      settings = flowPromptSettings(def, SETTINGS.timeout.value);
    } catch (err) {
      return offer.fail(t('mcp-prompt-in.errors.badPrompt', { reason: errorMessage(err) }), t('mcp-prompt-in.status.badPrompt'));
    }
    const { definition, timeoutMs } = settings;
    const { endpoint } = offer.config;
    offerUntilClosed(
      node,
      offer,
      () =>
        endpoint.prompts.register({
          owner: node.id,
          definition,
          get: (request) =>
            endpoint.pendingPrompts.wait(
              request,
              timeoutMs,
              offer.deliver(request.arguments, { prompt: definition.name, requestId: request.requestId, client: request.client }),
            ),
        }),
      (other) => [t('mcp-prompt-in.errors.duplicate', { prompt: definition.name, other }), t('mcp-prompt-in.status.duplicate')],
      () => endpoint.prompts.deregister(node.id),
    );
  }
  RED.nodes.registerType('mcp-prompt-in', McpPromptInNode);
};
