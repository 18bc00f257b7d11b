// The esp32-listener's voice (docs/voice.md): builds the engine's VoiceHub from the node's
// settings, events going out through the shared listener to its esp32-mcp-in nodes, and in live mode
// the API key credential and the configured mcp-server nodes (looked up when a Live session opens:
// config nodes start in any order).
import { resolveApiKey } from '../../src/gemini/client';
import type { ServerSource } from '../../src/gemini/tool-catalog';
import type { EnvLookup } from '../../src/env-expand';
import { secrets } from '../../src/secrets';
import type { Esp32ListenerSettings } from '../../src/esp32/listener';
import type { SharedDeviceListener } from '../../src/esp32/shared-listener';
import { createVoiceHubForListener, parseAssistSettings, parseLiveSettings } from '../../src/voice/hub-for-listener';
import { startAssistLink, type AssistLink } from './assist-link';
import type { VoiceHub } from '../../src/voice/voice-hub';
import { lines } from '../shared/input-handler';
import { getServerNode } from '../shared/server-config';
import { translator } from '../shared/i18n';
import type { Node, NodeDef, RED } from '../shared/red-types';

export interface NodeVoiceHub {
  hub: VoiceHub;
  /** assist mode: what is wrong with Home Assistant now (for the status), and when that changes */
  assist?: Pick<AssistLink, 'problem' | 'onChange'>;
  close(): Promise<void>;
}

/** Undefined when voice is "off". `devices()` is the node's shared listener (created after the settings). */
export function startNodeVoiceHub(
  RED: RED,
  node: Node,
  def: NodeDef,
  settings: Esp32ListenerSettings,
  env: EnvLookup,
  devices: () => SharedDeviceListener,
): NodeVoiceHub | undefined {
  const mode = settings.voice ?? 'off';
  if (mode === 'off') return undefined;
  const releaseKey = secrets.register([node.credentials?.apiKey, env('GOOGLE_API_KEY'), env('GEMINI_API_KEY')]);
  const live = mode === 'live' ? parseLiveSettings(def.live, env) : undefined;
  const assist = mode === 'assist' ? startAssistLink(RED, parseAssistSettings(def.assist, env)) : undefined;
  const hub = createVoiceHubForListener({
    mode,
    // The gateway's UDP audio listens on the gateway's port number and address (docs/voice.md).
    udp: settings.transport === 'mqtt-gateway' ? { port: settings.port, bind: settings.bind } : { bind: settings.bind },
    listener: devices,
    warn: (m) => node.warn(secrets.scrub(m)),
    assist,
    live: live && {
      ...live,
      apiKey: () => resolveApiKey(node.credentials?.apiKey, env),
      sources: () =>
        live.servers.flatMap((entry): ServerSource[] => {
          const server = getServerNode(RED, entry.server);
          if (!server) {
            node.warn(translator(RED, 'esp32-listener')('esp32-listener.errors.liveServerMissing', { id: String(entry.server) }));
            return [];
          }
          return [{ provider: server.provider, include: lines(entry.include), exclude: lines(entry.exclude), prefix: entry.prefix || undefined }];
        }),
    },
  });
  return {
    hub,
    assist,
    close: async () => {
      await hub.close();
      assist?.close();
      releaseKey();
    },
  };
}
