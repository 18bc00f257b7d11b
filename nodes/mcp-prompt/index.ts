// `mcp-prompt`: lists a server's prompts, or gets one with arguments: msg.payload = its messages,
// msg.prompt = their text joined (ready to use as a system instruction).
import { McpNodeError } from '../../src/errors';
import { nodeEnvLookup } from '../shared/node-env';
import { promptText, promptsAndResources } from '../../src/mcp/prompts-resources';
import { evaluateProperty, handleInput, numberSetting } from '../shared/input-handler';
import { translator } from '../shared/i18n';
import type { Node, NodeDef, NodeMessage, RED } from '../shared/red-types';
import { useServer } from '../shared/use-server';
import { deployedSettings } from '../../src/settings-declaration';
import { SETTINGS } from './settings';

export = function (RED: RED) {
  const t = translator(RED, 'mcp-prompt');
  function McpPromptNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const settings = deployedSettings(def, SETTINGS, nodeEnvLookup(RED, node));
    const use = useServer(RED, node, settings.server);
    const operation = settings.operation === 'list' ? 'list' : 'get';
    const configuredName = String(settings.name).trim();
    const argumentsProp = String(settings.arguments);
    // A flow written by hand may name Arguments without their type: read it as a msg property, as
    // typed inputs do (the dialog never saves Arguments with the value-less "default" type).
    const argumentsType = argumentsProp && settings.argumentsType === SETTINGS.argumentsType.value ? 'msg' : String(settings.argumentsType) || 'msg';
    const timeoutSeconds = numberSetting(settings.timeout, undefined);

    node.on('close', (_removed: boolean, done: () => void) => {
      done();
    });

    // Explicit Arguments must give an object; the default msg.payload only when it is one, so an
    // inject's timestamp does not become a prompt argument.
    async function argumentsOf(msg: NodeMessage): Promise<Record<string, unknown>> {
      if (!argumentsProp || argumentsType === 'default') return isObject(msg.payload) ? msg.payload : {};
      const value = await evaluateProperty(RED, node, argumentsProp, argumentsType, msg);
      if (value === undefined || value === null || value === '') return {};
      if (!isObject(value))
        throw new McpNodeError(
          t('mcp-prompt.errors.argsNotObject', { type: Array.isArray(value) ? 'array' : typeof value }),
          t('mcp-prompt.status.badArguments'),
          'BAD_ARGUMENTS',
        );
      return value;
    }

    handleInput(RED, node, async (msg, send) => {
      const server = use.required();
      const features = promptsAndResources(server.provider);
      const timeoutMs = timeoutSeconds !== undefined ? timeoutSeconds * 1000 : undefined;
      const started = Date.now();
      if (operation === 'list') {
        const listed = await features.listPrompts({ timeoutMs });
        msg.payload = listed.prompts;
        msg.mcp = { server: server.provider.identity(), pages: listed.pages, durationMs: Date.now() - started };
        send(msg);
        return;
      }
      const name = configuredName || (typeof msg.prompt === 'string' ? msg.prompt.trim() : '');
      if (!name) throw new McpNodeError(t('mcp-prompt.errors.noName'), t('mcp-prompt.status.noName'), 'NO_PROMPT');
      const args = await argumentsOf(msg);
      const result = await features.getPrompt(name, args, { timeoutMs });
      msg.payload = result.messages;
      msg.prompt = promptText(result);
      msg.mcp = {
        server: server.provider.identity(),
        prompt: name,
        arguments: args,
        ...(result.description !== undefined ? { description: result.description } : {}),
        durationMs: Date.now() - started,
      };
      send(msg);
    });
  }
  RED.nodes.registerType('mcp-prompt', McpPromptNode);
};

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);
}
