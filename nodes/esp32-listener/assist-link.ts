// The esp32-listener's way to Home Assistant in assist voice mode: the mcp-server node named in
// `assist.server` gives the URL and bearer (its token, the add-on's, or its OAuth sign-in), from which
// the WebSocket API and the TTS files are reached. The link is made once the flows have started
// (config nodes start in any order), reports its state for the listener's status, and gives each
// turn a pipeline run. Home Assistant away at deploy shows on the status and is retried; a turn
// made while it is back works without a redeploy.
import { HomeAssistantLink, HomeAssistantUnavailable, type LinkState } from '../../src/home-assistant/connection';
import { listPipelines, startAssistRun, PipelineRefused } from '../../src/home-assistant/pipeline-run';
import { streamTtsAudio } from '../../src/home-assistant/tts-audio';
import { homeAssistantUrls } from '../../src/home-assistant/urls';
import type { AssistSettings } from '../../src/voice/hub-for-listener';
import type { AssistBridgeOptions } from '../../src/voice/assist-bridge';
import { getServerNode } from '../shared/server-config';
import type { RED } from '../shared/red-types';

export interface AssistLink extends Pick<AssistBridgeOptions, 'startRun' | 'playAnswer' | 'continueConversation'> {
  /** what is wrong with Home Assistant now, for the status; undefined when all is well */
  problem(): string | undefined;
  onChange(listener: () => void): void;
  close(): void;
}

interface Access {
  urls: { base: string; websocket: string };
  token(): Promise<string | undefined>;
}

/** The mcp-server's Home Assistant URLs and bearer, or why they cannot be had. */
export function homeAssistantAccess(RED: RED, serverId: string): Access {
  const server = getServerNode(RED, serverId);
  if (!server) throw new HomeAssistantUnavailable(`the Home Assistant mcp-server ${serverId} is not deployed`);
  const access = server.bearerAccess?.();
  if (!access) throw new HomeAssistantUnavailable(`the mcp-server "${server.displayName}" has no URL: Assist needs Home Assistant's MCP URL (…/api/mcp)`);
  return { urls: homeAssistantUrls(access.url), token: access.token };
}

export function startAssistLink(RED: RED, settings: AssistSettings): AssistLink {
  let link: HomeAssistantLink | undefined;
  let access: Access | undefined;
  let setupProblem: string | undefined;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  const ensure = (): { link: HomeAssistantLink; access: Access } => {
    if (link && access) return { link, access };
    try {
      access = homeAssistantAccess(RED, settings.server);
      setupProblem = undefined;
    } catch (err) {
      setupProblem = (err as Error).message;
      changed();
      throw err;
    }
    const a = access;
    link = new HomeAssistantLink({ websocketUrl: a.urls.websocket, token: a.token });
    link.on('state', changed);
    link.start();
    return { link, access: a };
  };
  // Connect once every node has started, so the status says at once whether Home Assistant answers.
  const onStarted = () => {
    try {
      ensure();
    } catch {
      /* the status shows setupProblem */
    }
  };
  RED.events?.once?.('flows:started', onStarted);

  // With no language and no pipeline, Home Assistant's preferred pipeline runs (no id sent).
  const pipelineFor = async (conn: Parameters<typeof listPipelines>[0]): Promise<string | undefined> => {
    if (settings.pipeline || !settings.language) return settings.pipeline;
    const { pipelines } = await listPipelines(conn);
    const lang = settings.language.toLowerCase();
    const hit =
      pipelines.find((p) => p.language.toLowerCase() === lang) ?? pipelines.find((p) => p.language.toLowerCase().split('-')[0] === lang.split('-')[0]);
    if (!hit) throw new PipelineRefused('pipeline-not-found', `no Assist pipeline in Home Assistant speaks "${settings.language}"`);
    return hit.id;
  };

  return {
    continueConversation: settings.continue,
    async startRun(options, onEvent) {
      const { link: l } = ensure();
      const conn = await l.connection().catch((err: Error) => {
        throw Object.assign(new Error(`Home Assistant: ${err.message}`), { code: 'unavailable' });
      });
      return startAssistRun(conn, { pipeline: await pipelineFor(conn), conversationId: options.conversationId, timeoutS: 60 }, onEvent);
    },
    async playAnswer(tts, onAudio, signal) {
      const { access: a } = ensure();
      await streamTtsAudio({ base: a.urls.base, url: tts.url, mimeType: tts.mimeType, token: await a.token(), signal }, onAudio);
    },
    problem() {
      if (setupProblem) return setupProblem;
      const s: LinkState | undefined = link?.state;
      return s?.kind === 'failed' ? s.reason : undefined;
    },
    onChange(listener) {
      listeners.add(listener);
    },
    close() {
      RED.events?.removeListener?.('flows:started', onStarted);
      listeners.clear();
      link?.close();
    },
  };
}
