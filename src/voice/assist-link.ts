// The way a listener's "assist" voice reaches Home Assistant: from the MCP URL and bearer of the
// mcp-server named in the settings (its token, the add-on's, or its OAuth sign-in), the WebSocket API
// and the TTS files. The link is made when `connect()` is called (the node calls it once every config
// node has started), reports its state for the listener's status, and gives each turn a pipeline
// run. Home Assistant away at first shows on the status and is retried; a turn made once it is back
// works without a redeploy.
import { HomeAssistantLink, type LinkState } from '../home-assistant/connection';
import { listPipelines, startAssistRun, PipelineRefused } from '../home-assistant/pipeline-run';
import { streamTtsAudio } from '../home-assistant/tts-audio';
import { homeAssistantUrls } from '../home-assistant/urls';
import type { AssistBridgeOptions } from './assist-bridge';

export interface AssistSettings {
  /** id of the mcp-server whose URL is Home Assistant's */
  server: string;
  /** pipeline id; blank: the one for `language`, else Home Assistant's preferred */
  pipeline?: string;
  language?: string;
  continue: boolean;
}

/** Home Assistant's MCP URL (…/api/mcp) and the bearer to send; throws HomeAssistantUnavailable saying why there is none. */
export type HomeAssistantBearer = () => { url: string; token(): Promise<string | undefined> };

export interface AssistLink extends Pick<AssistBridgeOptions, 'startRun' | 'playAnswer' | 'continueConversation'> {
  /** Connects now, so the status says at once whether Home Assistant answers (a problem shows in problem()). */
  connect(): void;
  /** what is wrong with Home Assistant now, for the status; undefined when all is well */
  problem(): string | undefined;
  onChange(listener: () => void): void;
  close(): void;
}

export function startAssistLink(settings: AssistSettings, bearer: HomeAssistantBearer): AssistLink {
  let link: HomeAssistantLink | undefined;
  let access: { urls: ReturnType<typeof homeAssistantUrls>; token(): Promise<string | undefined> } | undefined;
  let setupProblem: string | undefined;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  const ensure = () => {
    if (link && access) return { link, access };
    try {
      const given = bearer();
      access = { urls: homeAssistantUrls(given.url), token: given.token };
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
    connect() {
      try {
        ensure();
      } catch {
        /* problem() says why */
      }
    },
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
      listeners.clear();
      link?.close();
    },
  };
}
