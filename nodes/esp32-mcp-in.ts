// `esp32-mcp-in`: accepts xiaozhi ESP32 devices (WebSocket on Node-RED's own HTTP server, MQTT
// client, or an embedded MQTT gateway) and makes each one an MCP server for `mcp-server` config
// nodes with transport "esp32". Device events leave on the one output. The protocol lives in
// src/esp32; this adapter only turns settings into a listener and events into messages.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorMessage } from '../src/errors';
import { normalizeDeviceId } from '../src/esp32/device-id';
import { isUserOnlyTool, type DeviceEvent, type Esp32Transport } from '../src/esp32/device-session';
import { DEFAULT_GATEWAY_PORT, DEFAULT_PATH, type Esp32Listener, type Esp32ListenerSettings } from '../src/esp32/listener';
import { createEsp32Listener, getListener, registerListener, unregisterListener } from '../src/esp32/listener-registry';
import type { WebSocketDeviceListener } from '../src/esp32/ws-listener';
import { lines, numberSetting } from './lib/input-handler';
import type { Node, NodeDef, RED } from './lib/red-types';

const TRANSPORTS: Esp32Transport[] = ['websocket', 'mqtt', 'mqtt-gateway'];
/** Full upgrade path → node id, so two nodes cannot claim the same path. */
const claimedPaths = new Map<string, string>();
const adminRoutesOn = new WeakSet<object>();

export = function (RED: RED) {
  function Esp32McpInNode(this: Node, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    const creds = node.credentials ?? {};
    const transport = TRANSPORTS.includes(def.transport as Esp32Transport) ? (def.transport as Esp32Transport) : 'websocket';
    const vision = visionSetting(def, creds.visionToken);
    const settings: Esp32ListenerSettings = {
      id: node.id,
      transport,
      path: str(def.path) || DEFAULT_PATH,
      // One password field in the editor: tokens separated by newlines, commas or spaces.
      tokens: String(creds.tokens ?? '').split(/[\s,]+/).filter(Boolean),
      allow: lines(def.allow).map(normalizeDeviceId),
      broker: str(def.broker),
      username: creds.username || undefined,
      password: creds.password || undefined,
      host: str(def.host) || '0.0.0.0',
      port: numberSetting(def.port, DEFAULT_GATEWAY_PORT),
      publishTopic: str(def.publishTopic) || undefined,
      deviceTopic: str(def.deviceTopic) || undefined,
      vision,
      log: { debug: (m) => node.debug(m), warn: (m) => node.warn(m) },
    };

    let listener: Esp32Listener | undefined;
    let fullPath: string | undefined;
    let onUpgrade: ((req: IncomingMessage, socket: Duplex, head: Buffer) => void) | undefined;

    const showStatus = () => {
      if (!listener) return;
      const broker = listener.brokerState?.();
      if (broker && broker !== 'connected') {
        node.status({ fill: broker === 'offline' ? 'red' : 'yellow', shape: 'ring', text: RED._(broker === 'offline' ? 'esp32-mcp-in.status.brokerOffline' : 'esp32-mcp-in.status.brokerConnecting') });
        return;
      }
      const n = listener.registry.size;
      node.status(
        n > 0
          ? { fill: 'green', shape: 'dot', text: RED._('esp32-mcp-in.status.devices', { count: n }) }
          : { fill: 'grey', shape: 'ring', text: RED._('esp32-mcp-in.status.waiting') },
      );
    };

    try {
      if (transport === 'mqtt' && !settings.broker) throw new Error(RED._('esp32-mcp-in.errors.noBroker'));
      if (transport !== 'websocket') {
        listener = createEsp32Listener(settings);
      } else {
        fullPath = joinPath(RED.settings.httpNodeRoot, settings.path!);
        const owner = claimedPaths.get(fullPath);
        if (owner && owner !== node.id) throw new Error(RED._('esp32-mcp-in.errors.duplicatePath', { path: fullPath }));
        claimedPaths.set(fullPath, node.id);
        const ws = createEsp32Listener({ ...settings, path: fullPath }) as WebSocketDeviceListener;
        listener = ws;
        // Like core's websocket-listener: paths that are not ours are left to other listeners.
        onUpgrade = (req, socket, head) => {
          ws.handleUpgrade(req, socket, head);
        };
        RED.server.on('upgrade', onUpgrade);
      }
    } catch (err) {
      // Never throw from a constructor: report and stay inert.
      node.error(RED._('esp32-mcp-in.errors.badConfig', { reason: errorMessage(err) }));
      node.status({ fill: 'red', shape: 'ring', text: RED._('esp32-mcp-in.status.badConfig') });
      listener = undefined;
    }

    if (listener) {
      const active = listener;
      active.registry.on('event', (e: DeviceEvent) => {
        // A copy: flows may change the message, and the tool list is also the routing cache.
        node.send({ topic: e.topic, device: { ...e.device }, payload: structuredClone(e.payload) });
      });
      active.registry.on('change', showStatus);
      registerListener(active);
      showStatus();
      active.start().then(showStatus, (err: unknown) => {
        node.error(RED._('esp32-mcp-in.errors.startFailed', { reason: errorMessage(err) }));
        node.status({ fill: 'red', shape: 'ring', text: RED._('esp32-mcp-in.status.startFailed') });
      });
    }

    node.on('close', (_removed: boolean, done: () => void) => {
      if (onUpgrade) RED.server.removeListener('upgrade', onUpgrade);
      if (fullPath && claimedPaths.get(fullPath) === node.id) claimedPaths.delete(fullPath);
      if (!listener) return done();
      unregisterListener(listener);
      listener.close().then(
        () => done(),
        (err: unknown) => {
          node.warn(errorMessage(err));
          done();
        },
      );
    });
  }

  RED.nodes.registerType('esp32-mcp-in', Esp32McpInNode as any, {
    credentials: {
      tokens: { type: 'password' },
      username: { type: 'text' },
      password: { type: 'password' },
      visionToken: { type: 'password' },
    },
  });

  // The editor shows the devices a deployed node has connected right now.
  if (RED.httpAdmin && !adminRoutesOn.has(RED.httpAdmin)) {
    adminRoutesOn.add(RED.httpAdmin);
    RED.httpAdmin.get('/esp32-mcp-in/:id/devices', RED.auth.needsPermission('esp32-mcp-in.read'), (req: any, res: any) => {
      const listener = getListener(String(req.params.id));
      if (!listener) return res.status(404).json({ error: RED._('esp32-mcp-in.errors.notDeployed') });
      res.json({
        transport: listener.transport,
        devices: listener.registry.list().map((s) => ({
          ...s.info(),
          state: s.state,
          toolCount: s.tools.filter((t) => !isUserOnlyTool(t)).length,
          userToolCount: s.tools.filter(isUserOnlyTool).length,
        })),
      });
    });
  }
};

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

/** `vision` from flow JSON ({url, token}) or the editor's URL field plus its credential. */
function visionSetting(def: NodeDef, credentialToken: string | undefined): Esp32ListenerSettings['vision'] {
  const v = def.vision as { url?: unknown; token?: unknown } | undefined;
  const url = str(v?.url) || str(def.visionUrl);
  if (!url) return undefined;
  const token = credentialToken || (typeof v?.token === 'string' ? v.token : undefined);
  return token ? { url, token } : { url };
}

function joinPath(root: unknown, path: string): string {
  const base = typeof root === 'string' && root ? root : '/';
  return base + (base.endsWith('/') ? '' : '/') + (path.startsWith('/') ? path.slice(1) : path);
}
