// `mcp-resource`: lists a server's resources or resource templates, reads one (text, or a Buffer
// for a blob, with msg.contentType), or subscribes to one and sends a message on every
// notifications/resources/updated until the node closes.
import { McpNodeError, errorMessage } from '../../src/errors';
import { nodeEnvLookup } from '../shared/node-env';
import { promptsAndResources, resourceContents, type ResourceUpdate } from '../../src/mcp/prompts-resources';
import { statusWriter } from '../shared/node-status';
import { handleInput, numberSetting } from '../shared/input-handler';
import { translator } from '../shared/i18n';
import type { Node, NodeDef, RED } from '../shared/red-types';
import { useServer } from '../shared/use-server';
import { deployedSettings } from '../../src/settings-declaration';
import { SETTINGS } from './settings';

type Operation = 'list' | 'templates' | 'read' | 'subscribe';
const OPERATIONS: Operation[] = ['list', 'templates', 'read', 'subscribe'];

export = function (RED: RED) {
  const t = translator(RED, 'mcp-resource');
  function McpResourceNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const settings = deployedSettings(def, SETTINGS, nodeEnvLookup(RED, node));
    const use = useServer(RED, node, settings.server);
    const operation: Operation = OPERATIONS.includes(settings.operation as Operation) ? (settings.operation as Operation) : SETTINGS.operation.value;
    const configuredUri = String(settings.uri).trim();
    const timeoutSeconds = numberSetting(settings.timeout, undefined);
    const subscriptions = new Map<string, () => Promise<void>>();
    let closed = false;

    node.on('close', (_removed: boolean, done: () => void) => {
      closed = true;
      const undo = [...subscriptions.values()];
      subscriptions.clear();
      Promise.allSettled(undo.map((u) => u())).then(() => done());
    });

    statusWriter(RED, node).note = () =>
      subscriptions.size
        ? { fill: 'green' as const, shape: 'dot' as const, text: t('mcp-resource.status.subscribed', { count: subscriptions.size }) }
        : undefined;

    function onUpdate(uri: string) {
      return (update: ResourceUpdate) => {
        if (closed) return;
        node.send({ topic: 'resources/updated', uri, payload: update, mcp: { server: use.required().provider.identity(), uri } });
      };
    }

    handleInput(RED, node, async (msg, send) => {
      const server = use.required();
      const features = promptsAndResources(server.provider);
      const timeoutMs = timeoutSeconds !== undefined ? timeoutSeconds * 1000 : undefined;
      const identity = () => server.provider.identity();
      const started = Date.now();
      if (operation === 'list' || operation === 'templates') {
        const listed = operation === 'list' ? await features.listResources({ timeoutMs }) : await features.listResourceTemplates({ timeoutMs });
        msg.payload = 'resources' in listed ? listed.resources : listed.resourceTemplates;
        msg.mcp = { server: identity(), pages: listed.pages, durationMs: Date.now() - started };
        send(msg);
        return;
      }
      const uri = configuredUri || (typeof msg.uri === 'string' ? msg.uri.trim() : '');
      if (!uri) throw new McpNodeError(t('mcp-resource.errors.noUri'), t('mcp-resource.status.noUri'), 'NO_URI');
      if (operation === 'subscribe') {
        if (subscriptions.has(uri)) return; // already watching it: one message per update, not two
        const unsubscribe = await features.subscribeResource(uri, onUpdate(uri), { timeoutMs });
        if (closed) return void unsubscribe().catch((e) => node.debug(errorMessage(e)));
        subscriptions.set(uri, unsubscribe);
        return;
      }
      const result = await features.readResource(uri, { timeoutMs });
      const contents = resourceContents(result);
      if (contents.length === 0) throw new McpNodeError(t('mcp-resource.errors.empty', { uri }), t('mcp-resource.status.empty'), 'EMPTY_RESOURCE');
      msg.payload = contents.length === 1 ? contents[0].value : contents.map((c) => c.value);
      msg.contentType = contents[0].mimeType;
      if (msg.contentType === undefined) delete msg.contentType;
      msg.mcp = {
        server: identity(),
        uri,
        contents: contents.map((c) => ({ uri: c.uri, ...(c.mimeType ? { mimeType: c.mimeType } : {}) })),
        durationMs: Date.now() - started,
      };
      send(msg);
    });
  }
  RED.nodes.registerType('mcp-resource', McpResourceNode);
};
