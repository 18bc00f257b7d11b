// `mcp-resource-in`: declares one resource (a fixed URI or a URI template) on an mcp-endpoint and
// sends one message per resources/read: the template's variables in msg.payload, the URI in
// msg.mcp.uri, the reply handle in msg._mcp (keep it for the mcp-resource-out that answers). A
// message sent into the node tells subscribed clients that the resource changed (msg.uri names
// which one, for a template).
import { flowResourceSettings } from '../../src/server/flows/flow-resources';
import { withDeclaredDefaults } from '../../src/settings-declaration';
import { errorMessage, McpNodeError } from '../../src/errors';
import { translator } from '../shared/i18n';
import { flowOffer, offerUntilClosed } from '../mcp-endpoint/flow-offer';
import { SETTINGS } from './settings';
import type { DoneFn, Node, NodeDef, NodeMessage, RED } from '../shared/red-types';
import { nodeEnvLookup } from '../shared/node-env';

export = function (RED: RED) {
  const t = translator(RED, 'mcp-resource-in');
  function McpResourceInNode(this: Node, flowDef: NodeDef) {
    RED.nodes.createNode(this, flowDef);
    const def = withDeclaredDefaults(flowDef, SETTINGS, nodeEnvLookup(RED, this));
    const node = this;
    const offer = flowOffer(RED, node, def.endpoint, [t('mcp-resource-in.errors.noEndpoint'), t('mcp-resource-in.status.noEndpoint')]);
    let settings: ReturnType<typeof flowResourceSettings> | undefined;
    const refuse = (text: string) => new McpNodeError(text, t('mcp-resource-in.status.notAnnounced'), 'BAD_UPDATE');
    node.on('input', (msg: NodeMessage, _send: unknown, done: DoneFn) => {
      if (!offer || !settings) return done(refuse(t('mcp-resource-in.errors.notServed')));
      const fixed = settings.template ? undefined : (settings.definition as { uri: string }).uri;
      const uri = typeof msg.uri === 'string' && msg.uri ? msg.uri : fixed;
      if (!uri) return done(refuse(t('mcp-resource-in.errors.updateNeedsUri', { template: def.uri })));
      if (settings.template ? !settings.template.match(uri) : uri !== fixed) return done(refuse(t('mcp-resource-in.errors.otherUri', { uri, mine: def.uri })));
      offer.config.endpoint.resourceUpdated(uri);
      done();
    });
    if (!offer) return;
    try {
      settings = flowResourceSettings(def, SETTINGS.timeout.value);
    } catch (err) {
      return offer.fail(t('mcp-resource-in.errors.badResource', { reason: errorMessage(err) }), t('mcp-resource-in.status.badResource'));
    }
    const { definition, template, timeoutMs } = settings;
    const { endpoint } = offer.config;
    const sendRead = offer.deliver;
    offerUntilClosed(
      node,
      offer,
      () =>
        endpoint.resources.register({
          owner: node.id,
          definition,
          template,
          read: (request) =>
            endpoint.pendingReads.wait(
              request,
              timeoutMs,
              sendRead(request.variables, { uri: request.uri, resource: def.uri, requestId: request.requestId, client: request.client }),
            ),
        }),
      (other) => [t('mcp-resource-in.errors.duplicate', { uri: def.uri, other }), t('mcp-resource-in.status.duplicate')],
      () => endpoint.resources.deregister(node.id),
    );
  }
  RED.nodes.registerType('mcp-resource-in', McpResourceInNode);
};
