// `esp32-mcp-in`: emits what happens on an `esp32-listener` (devices connecting, their tools,
// notifications, other device messages, utterances, Live transcripts and tool calls (nodes/esp32-mcp-in/help.html),
// disconnections), optionally filtered by topic. The
// listener config node owns the devices; this node is one of its users.
import { guardNode } from '../shared/secret-gate';
import type { DeviceEvent } from '../../src/esp32/devices/device-session';
import { getListenerNode } from '../esp32-listener/listener-config';
import { translator } from '../shared/i18n';
import { lines } from '../shared/input-handler';
import type { Node, NodeDef, RED } from '../shared/red-types';
import { deployedSettings } from '../../src/settings-declaration';
import { SETTINGS } from './settings';
import { nodeEnvLookup } from '../shared/node-env';

export = function (RED: RED) {
  const t = translator(RED, 'esp32-mcp-in');
  function Esp32McpInNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    guardNode(node); // device events leave through here: the secret gate masks what they carry
    const settings = deployedSettings(def, SETTINGS, nodeEnvLookup(RED, node));
    const listenerNode = getListenerNode(RED, settings.listener);
    if (!listenerNode) {
      // Never throw from a constructor: report and stay inert.
      node.error(t('esp32-mcp-in.errors.noListener'));
      node.status({ fill: 'red', shape: 'ring', text: t('esp32-mcp-in.status.noListener') });
      return;
    }
    const wanted = new Set(lines(settings.events));
    const onEvent = (e: DeviceEvent) => {
      if (wanted.size && !wanted.has(e.topic)) return;
      // A copy: flows may change the message, and the tool list is also the routing cache.
      // (structuredClone would turn an utterance's WAV Buffer into a plain Uint8Array.)
      const payload = Buffer.isBuffer(e.payload) ? Buffer.from(e.payload) : structuredClone(e.payload);
      node.send({ ...e.fields, topic: e.topic, device: { ...e.device }, payload, ...(e.wakeWord ? { wakeWord: e.wakeWord } : {}) });
    };
    listenerNode.devices.on('event', onEvent);
    void listenerNode.register(node);

    node.on('close', (_removed: boolean, done: () => void) => {
      listenerNode.devices.off('event', onEvent);
      listenerNode.deregister(node).then(done, done);
    });
  }

  RED.nodes.registerType('esp32-mcp-in', Esp32McpInNode);
};
