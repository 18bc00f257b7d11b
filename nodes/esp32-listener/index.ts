// `esp32-listener` config node: owns one device listener (WebSocket on Node-RED's server or its
// own port, MQTT client, or the embedded MQTT gateway) for `esp32-mcp-in` nodes and `mcp-server`
// nodes with transport "esp32". Settings are parsed and devices served in src/esp32; this adapter
// wires them to Node-RED: the HTTP server, the log, the status of every user, the admin route, and
// with voice on the VoiceHub (`node.voice`, what esp32-say speaks through; voice-setup.ts).
import { errorMessage } from '../../src/errors';
import { nodeEnvLookup } from '../shared/node-env';
import { expandEnvDeep, unsetVariables } from '../../src/env-expand';
import { storedTokens } from '../shared/stored-tokens';
import { parseListenerSettings, type RawListenerConfig } from '../../src/esp32/listener-settings';
import { SharedDeviceListener } from '../../src/esp32/provider/shared-listener';
import type { Esp32ListenerSettings, ListenerRuntime } from '../../src/esp32/listener';
import { oncePerAdminApp } from '../shared/admin-routes';
import { registerEsp32DeviceRoutes } from './devices-route';
import { registerAssistPipelinesRoute } from '../shared/assist-pipelines-route';
import { LISTENER_CREDENTIALS } from './credentials';
import { listenerStatus, type Esp32ListenerConfigNode } from './listener-config';
import { translator } from '../shared/i18n';
import { withDeclaredDefaults } from '../../src/settings-declaration';
import { LISTENER_SETTINGS } from '../../src/esp32/listener-settings-declaration';
import { adviseOncePerDeploy } from '../shared/deploy-advice';
import { setUpVoice } from './voice-setup';
import type { ListenerVoice } from '../../src/voice/listener-voice';
import { connectPairing, startPairing, type ListenerPairing } from './pairing';
import type { Node, NodeDef, RED } from '../shared/red-types';

export = function (RED: RED) {
  const t = translator(RED, 'esp32-listener');
  function Esp32ListenerNode(this: Esp32ListenerConfigNode, flowDef: NodeDef) {
    RED.nodes.createNode(this, flowDef);
    const def = withDeclaredDefaults(flowDef, LISTENER_SETTINGS, nodeEnvLookup(RED, this));
    const node = this;
    const name = String(def.name || def.id);
    let settings: Esp32ListenerSettings | Error;
    let voice: ListenerVoice | undefined;
    let pairing: ListenerPairing | undefined;
    // Handed to the listener beside its settings: Node-RED's HTTP server, the log, the voice hub.
    const runtime: ListenerRuntime = { log: { debug: (m) => node.debug(m), warn: (m) => node.warn(m) } };
    const env = nodeEnvLookup(RED, node);
    // Tokens taken from a variable that is not set (an example before its set-up): say which.
    const unsetTokens = unsetVariables(storedTokens(RED, node), env);
    try {
      const parsed = parseListenerSettings(def as RawListenerConfig, node.credentials ?? {}, env);
      const onNodeRedPort = parsed.transport === 'websocket' && parsed.port === undefined;
      settings = onNodeRedPort ? { ...parsed, path: joinPath(RED.settings.httpNodeRoot, parsed.path!) } : parsed;
      if (onNodeRedPort) runtime.httpServer = RED.server;
      // Devices that join through their OTA check: answered here, paired in the dialog (pairing.ts).
      // ${VAR} in the public address and the firmware offer too, as in every other text setting.
      pairing = startPairing(RED, expandEnvDeep({ ...def }, env), name, settings, { warn: (m) => node.warn(m), log: (m) => node.log(m) });
      runtime.pairing = pairing.book;
      // On a port of its own the listener answers the check there too (the Home Assistant add-on's way in).
      if (settings.transport === 'websocket' && settings.port !== undefined) runtime.ota = pairing.service;
      voice = setUpVoice(RED, node, def, settings, env, () => devices);
      runtime.audio = voice?.hub;
    } catch (err) {
      // Never throw from a constructor: report once, and every user shows the red status.
      settings = new Error(errorMessage(err));
      node.error(t('esp32-listener.errors.badConfig', { reason: settings.message }));
    }
    const devices = new SharedDeviceListener(name, settings, runtime);
    // Logged, not warned: an example imported to look at is closed on purpose, and its status says so.
    // Once per deploy for all listeners waiting for the same variable (three voice examples wait for DEVICE_TOKEN).
    if (unsetTokens.length && !(settings instanceof Error) && !settings.anonymous) {
      const vars = unsetTokens.join(', ');
      adviseOncePerDeploy(RED, `esp32-listener:${vars}`, `"${name}"`, (who) =>
        RED.log.info(t('esp32-listener.errors.tokenVariableUnset', { who: who.join(', '), name: vars })),
      );
    }
    node.devices = devices;
    node.pairing = pairing;
    if (pairing && !(settings instanceof Error)) connectPairing(pairing.book, devices, settings.transport);
    node.voice = voice?.hub;

    const users = new Set<Node>();
    // What the voice lacks, then another listener answering the OTA address, over the device count.
    const statusNow = () =>
      listenerStatus(RED, devices.status(), unsetTokens, {
        voice: voice?.problem(),
        otaTaken: !!pairing?.ota.takenBy,
        waitingToPair: pairing?.book.list().waiting.length,
      });
    const showStatus = () => {
      const status = statusNow();
      for (const u of users) u.status(status);
    };
    devices.on('change', showStatus);
    voice?.onChange(showStatus);
    node.register = (user: Node) => {
      users.add(user);
      user.status(statusNow());
      return devices.register(user);
    };
    node.deregister = (user: Node) => {
      users.delete(user);
      return devices.deregister(user);
    };
    node.on('close', (_removed: boolean, done: () => void) => {
      users.clear();
      pairing?.close();
      const finish = () => (voice ? voice.close() : Promise.resolve()).then(done, done);
      devices.close().then(finish, finish);
    });
  }

  RED.nodes.registerType('esp32-listener', Esp32ListenerNode, { credentials: LISTENER_CREDENTIALS });
  oncePerAdminApp(RED, 'esp32-listener', () => {
    registerEsp32DeviceRoutes(RED); //     /esp32-listener/:id/devices, …/pairing, …/pair, …/unpair
    registerAssistPipelinesRoute(RED); //  /esp32-listener/assist/pipelines
  });
};

function joinPath(root: unknown, path: string): string {
  const base = typeof root === 'string' && root ? root : '/';
  return base + (base.endsWith('/') ? '' : '/') + (path.startsWith('/') ? path.slice(1) : path);
}
