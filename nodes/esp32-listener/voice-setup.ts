// The esp32-listener's part of its voice (docs/voice.md): what only Node-RED knows, handed to the
// engine that builds the voice (src/voice/listener-voice.ts): the API key credential, the
// configured mcp-server nodes for Live (looked up when a Live session opens: config nodes start in
// any order) and, for Assist, the bearer of the Home Assistant mcp-server.
import { resolveApiKey } from '../../src/gemini/client';
import type { ServerSource } from '../../src/gemini/tool-catalog';
import type { EnvLookup } from '../../src/env-expand';
import { secrets } from '../../src/secrets';
import type { Esp32ListenerSettings } from '../../src/esp32/listener';
import type { SharedDeviceListener } from '../../src/esp32/provider/shared-listener';
import { createListenerVoice, parseAssistSettings, parseLiveSettings, type ListenerVoice } from '../../src/voice/listener-voice';
import { homeAssistantBearer } from '../shared/home-assistant-bearer';
import { lines } from '../shared/input-handler';
import { getServerNode } from '../shared/server-config';
import { translator } from '../shared/i18n';
import type { Node, NodeDef, RED } from '../shared/red-types';

/** Undefined when voice is "off". `devices()` is the node's shared listener (created after the settings). */
export function setUpVoice(
  RED: RED,
  node: Node,
  def: NodeDef,
  settings: Esp32ListenerSettings,
  env: EnvLookup,
  devices: () => SharedDeviceListener,
): ListenerVoice | undefined {
  const mode = settings.voice ?? 'off';
  if (mode === 'off') return undefined;
  const releaseKey = secrets.register([node.credentials?.apiKey, env('GOOGLE_API_KEY'), env('GEMINI_API_KEY')]);
  const live = mode === 'live' ? parseLiveSettings(def.live, env) : undefined;
  const assist = mode === 'assist' ? parseAssistSettings(def.assist, env) : undefined;
  const voice = createListenerVoice({
    mode,
    // The gateway's UDP audio listens on the gateway's port number and address (docs/voice.md).
    udp: settings.transport === 'mqtt-gateway' ? { port: settings.port, bind: settings.bind } : { bind: settings.bind },
    listener: devices,
    warn: (m) => node.warn(secrets.scrub(m)),
    assist: assist && { settings: assist, bearer: homeAssistantBearer(RED, assist.server) },
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
  // Home Assistant is reached once every node has started, so the status says at once whether it answers.
  const connect = () => voice.connect();
  RED.events?.once?.('flows:started', connect);
  return {
    ...voice,
    close: async () => {
      RED.events?.removeListener?.('flows:started', connect);
      await voice.close();
      releaseKey();
    },
  };
}
