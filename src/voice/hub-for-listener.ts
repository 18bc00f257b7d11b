// The voice of one esp32-listener, built from its settings (its `voice` and `live` settings: docs/voice.md): a VoiceHub
// that the listener's transports open audio channels on, and that esp32-say speaks through.
// "flow": each utterance becomes an `utterance` event (16 kHz mono WAV). "live": each conversation
// streams to Gemini Live with the tools of the configured mcp-server nodes (the catalog is built
// when a session opens, so a server that came up later is included), and every transcript and tool
// call becomes an event.
import { expandEnv, processEnvLookup, type EnvLookup } from '../env-expand';
import { createGeminiClient, DEFAULT_API_VERSION } from '../gemini/client';
import { LiveSession, DEFAULT_LIVE_MODEL } from '../gemini/live-session';
import { buildCatalog, type ServerSource } from '../gemini/tool-catalog';
import { mcpExecutor } from '../gemini/auto-executor';
import type { DeviceEventTopic } from '../esp32/device-session';
import type { SharedDeviceListener } from '../esp32/shared-listener';
import { VoiceHub, type VoiceDevice, type VoiceMode } from './voice-hub';
import type { AssistBridgeOptions } from './assist-bridge';

export interface LiveSettings {
  model: string;
  voice?: string;
  systemInstruction?: string;
  baseUrl?: string;
  /** `servers` as gemini-agent has them: `{server, include, exclude, prefix}` */
  servers: LiveServerEntry[];
}

export interface LiveServerEntry {
  server?: string;
  include?: string | string[];
  exclude?: string | string[];
  prefix?: string;
}

export interface VoiceHubForListenerOptions {
  mode: VoiceMode;
  /** mqtt transports: where the UDP audio socket listens */
  udp?: { port?: number; bind?: string };
  /**
   * The listener whose esp32-mcp-in nodes get the utterances, transcripts and tool calls (a getter:
   * the listener is created after its voice hub, since it opens audio channels on it).
   */
  listener(): Pick<SharedDeviceListener, 'publishVoiceEvent'>;
  live?: LiveSettings & {
    /** the API key at the moment a session opens (credential, else environment); throws when none */
    apiKey(): string;
    /** the configured servers' tool sources, resolved when a session opens */
    sources(): ServerSource[];
  };
  /** assist mode: the Home Assistant pipeline a device's turns run through */
  assist?: Pick<AssistBridgeOptions, 'startRun' | 'playAnswer' | 'continueConversation'>;
  warn(message: string): void;
}

export interface AssistSettings {
  /** id of the mcp-server whose URL is Home Assistant's */
  server: string;
  /** pipeline id; blank: the one for `language`, else Home Assistant's preferred */
  pipeline?: string;
  language?: string;
  continue: boolean;
}

/** The `assist` setting of flow JSON, `${VAR}` expanded. */
export function parseAssistSettings(raw: unknown, env: EnvLookup = processEnvLookup): AssistSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? expandEnv(v, env).trim() : '');
  const server = str(r.server);
  if (!server) throw new Error('voice "assist" needs a Home Assistant server: pick the mcp-server whose URL is Home Assistant\'s');
  return { server, pipeline: str(r.pipeline) || undefined, language: str(r.language) || undefined, continue: r.continue !== false && r.continue !== 'false' };
}

export function createVoiceHubForListener(o: VoiceHubForListenerOptions): VoiceHub {
  const live = o.live;
  const publish = (topic: DeviceEventTopic, device: VoiceDevice, payload: unknown, wakeWord?: string, fields?: Record<string, unknown>) =>
    o.listener().publishVoiceEvent(topic, device, payload, wakeWord, fields);
  return new VoiceHub({
    mode: o.mode,
    udp: o.udp,
    onUtterance: (device, u) => publish('utterance', device, u.wav, u.wakeWord),
    openLive: live
      ? async (device, events) => {
          const apiKey = live.apiKey();
          const catalog = await buildCatalog(live.sources());
          for (const u of catalog.unavailable) o.warn(`esp32-listener live: the tools of ${u.server} are not available: ${u.error}`);
          const client = createGeminiClient({ apiKey, baseUrl: live.baseUrl, apiVersion: DEFAULT_API_VERSION });
          return LiveSession.open(
            { client, model: live.model, voice: live.voice, systemInstruction: live.systemInstruction, catalog, executor: mcpExecutor(), secrets: [apiKey] },
            events,
          );
        }
      : undefined,
    openAssist: o.assist ? () => o.assist! : undefined,
    onAssistEvent: (device, e) => {
      if (e.topic === 'transcript')
        publish('transcript', device, e.payload.text, undefined, {
          role: e.payload.role,
          ...(e.payload.conversationId ? { conversationId: e.payload.conversationId } : {}),
        });
      else if (e.topic === 'assist_error') {
        publish('assist_error', device, e.payload);
        o.warn(`esp32-listener assist (device ${device.id}): ${e.payload.code}: ${e.payload.message}`);
      }
    },
    onLiveEvent: (device, e) => {
      if (e.topic === 'transcript' || e.topic === 'tool_call') publish(e.topic, device, e.payload);
      else if (e.topic === 'error') o.warn(`esp32-listener live (device ${device.id}): ${e.payload.message}`);
    },
  });
}

/** The `live` setting of flow JSON, `${VAR}` expanded; blank model = the default Live model. */
export function parseLiveSettings(raw: unknown, env: EnvLookup = processEnvLookup): LiveSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? expandEnv(v, env).trim() : '');
  return {
    model: str(r.model) || DEFAULT_LIVE_MODEL,
    voice: str(r.voice) || undefined,
    systemInstruction: str(r.systemInstruction) || undefined,
    baseUrl: str(r.baseUrl) || undefined,
    servers: Array.isArray(r.servers) ? (r.servers as LiveServerEntry[]).filter((e) => e && typeof e === 'object') : [],
  };
}
