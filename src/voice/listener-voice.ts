// The voice of one esp32-listener, built from its settings (its `voice`, `live` and `assist`
// settings: docs/voice.md): a VoiceHub that the listener's transports open audio channels on and that
// esp32-say speaks through, and what is wrong with the voice now, for the listener's status.
// "flow": each utterance becomes an `utterance` event (16 kHz mono WAV). "live": each conversation
// streams to Gemini Live with the tools of the configured mcp-server nodes (the catalog is built
// when a session opens, so a server that came up later is included), resumed across connections,
// and every transcript and tool call becomes an event; when a server's tools change (Home
// Assistant's refresh, a device joining, a deploy) the open conversation gets the new list through
// the Live API's context update instead of a reconnect. "assist": each turn runs through the Home
// Assistant Assist pipeline reached with the bearer the node hands over (assist-link.ts).
import { processEnvLookup, type EnvLookup } from '../env-expand';
import { createGeminiClient, DEFAULT_API_VERSION } from '../gemini/client';
import { LiveSession, DEFAULT_LIVE_MODEL } from '../gemini/live-session';
import { buildCatalog, watchServerTools, type ServerRow, type ServerSource } from '../gemini/tool-catalog';
import { mcpExecutor } from '../gemini/auto-executor';
import type { DeviceEventTopic } from '../esp32/devices/device-session';
import type { SharedDeviceListener } from '../esp32/provider/shared-listener';
import { VoiceHub, type VoiceDevice, type VoiceMode } from './voice-hub';
import { startAssistLink, type AssistLink, type AssistSettings, type HomeAssistantBearer } from './assist-link';
import { textSetting } from '../settings-values';

export type { AssistSettings } from './assist-link';

export interface LiveSettings {
  model: string;
  voice?: string;
  systemInstruction?: string;
  baseUrl?: string;
  /** `servers` as gemini-agent has them: `{server, include, exclude, prefix}` */
  servers: LiveServerEntry[];
}

/** One of the Live servers, a row as gemini-agent's server list has it. */
export type LiveServerEntry = ServerRow;

export interface ListenerVoiceOptions {
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
  /** assist mode: the Home Assistant whose pipeline a device's turns run through */
  assist?: { settings: AssistSettings; bearer: HomeAssistantBearer };
  warn(message: string): void;
}

/**
 * What is wrong with a listener's voice now, for its status: Home Assistant away or refusing (no
 * device can talk), or a Live conversation that lost its memory (it goes on, started over).
 */
export type VoiceProblem = { kind: 'assist'; reason: string } | { kind: 'live-started-over'; device: string };

export interface ListenerVoice {
  hub: VoiceHub;
  problem(): VoiceProblem | undefined;
  onChange(listener: () => void): void;
  /** Reaches out to what the voice talks to (Home Assistant), once every config node has started. */
  connect(): void;
  close(): Promise<void>;
}

/** The `assist` setting of flow JSON, `${VAR}` expanded. */
export function parseAssistSettings(raw: unknown, env: EnvLookup = processEnvLookup): AssistSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const str = (v: unknown) => textSetting(v, env);
  const server = str(r.server);
  if (!server) throw new Error('voice "assist" needs a Home Assistant server: pick the mcp-server whose URL is Home Assistant\'s');
  return { server, pipeline: str(r.pipeline) || undefined, language: str(r.language) || undefined, continue: r.continue !== false && r.continue !== 'false' };
}

export function createListenerVoice(o: ListenerVoiceOptions): ListenerVoice {
  const live = o.live;
  const assist: AssistLink | undefined = o.assist && startAssistLink(o.assist.settings, o.assist.bearer);
  const changeListeners = new Set<() => void>();
  const changed = () => changeListeners.forEach((l) => l());
  assist?.onChange(changed);
  /** The device whose Live conversation last lost its memory, until a conversation is resumed again. */
  let startedOver: string | undefined;
  const setStartedOver = (device: string | undefined) => {
    if (device === startedOver) return;
    startedOver = device;
    changed();
  };
  const publish = (topic: DeviceEventTopic, device: VoiceDevice, payload: unknown, wakeWord?: string, fields?: Record<string, unknown>) =>
    o.listener().publishVoiceEvent(topic, device, payload, wakeWord, fields);
  const hub = new VoiceHub({
    mode: o.mode,
    udp: o.udp,
    onUtterance: (device, u) => publish('utterance', device, u.wav, u.wakeWord),
    openLive: live
      ? async (device, events, resumeHandle) => {
          const apiKey = live.apiKey();
          const catalog = await buildCatalog(live.sources());
          for (const u of catalog.unavailable) o.warn(`esp32-listener live: the tools of ${u.server} are not available: ${u.error}`);
          const client = createGeminiClient({ apiKey, baseUrl: live.baseUrl, apiVersion: DEFAULT_API_VERSION });
          return LiveSession.open(
            {
              client,
              model: live.model,
              voice: live.voice,
              systemInstruction: live.systemInstruction,
              catalog,
              executor: mcpExecutor(),
              secrets: [apiKey],
              resumeHandle,
              watchTools: (update) => watchServerTools(live.sources(), update),
            },
            events,
          );
        }
      : undefined,
    openAssist: assist ? () => assist : undefined,
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
      else if (e.topic === 'resumption_failed') {
        o.warn(`esp32-listener live (device ${device.id}): the conversation could not be resumed (${e.payload.message}); a new one started`);
        setStartedOver(device.id);
      } else if (e.topic === 'resumed') setStartedOver(undefined);
    },
  });
  return {
    hub,
    problem: () => {
      const reason = assist?.problem();
      if (reason) return { kind: 'assist', reason };
      return startedOver ? { kind: 'live-started-over', device: startedOver } : undefined;
    },
    onChange: (listener) => void changeListeners.add(listener),
    connect: () => assist?.connect(),
    close: async () => {
      changeListeners.clear();
      await hub.close();
      assist?.close();
    },
  };
}

/** The `live` setting of flow JSON, `${VAR}` expanded; blank model = the default Live model. */
export function parseLiveSettings(raw: unknown, env: EnvLookup = processEnvLookup): LiveSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const str = (v: unknown) => textSetting(v, env);
  return {
    model: str(r.model) || DEFAULT_LIVE_MODEL,
    voice: str(r.voice) || undefined,
    systemInstruction: str(r.systemInstruction) || undefined,
    baseUrl: str(r.baseUrl) || undefined,
    servers: Array.isArray(r.servers) ? (r.servers as LiveServerEntry[]).filter((e) => e && typeof e === 'object') : [],
  };
}
