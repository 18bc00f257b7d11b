// The way a listener's "assist" voice reaches Home Assistant: from the MCP URL and bearer of the
// mcp-server named in the settings (its token, the add-on's, or its OAuth sign-in), the WebSocket API
// and the TTS files. The link is made when `connect()` is called (the node calls it once every config
// node has started), reports its state for the listener's status, and gives each turn a pipeline
// run. Home Assistant away at first shows on the status and is retried; a turn made once it is back
// works without a redeploy.
import { bearerLink, type HomeAssistantBearer } from '../home-assistant/bearer-link';
import { choosePipeline, startAssistRun } from '../home-assistant/pipeline-run';
import { streamTtsAudio } from '../home-assistant/tts-audio';
import type { AssistBridgeOptions } from './assist-bridge';

export interface AssistSettings {
  /** id of the mcp-server whose URL is Home Assistant's */
  server: string;
  /** pipeline id; blank: the one for `language`, else Home Assistant's preferred */
  pipeline?: string;
  language?: string;
  continue: boolean;
}

export type { HomeAssistantBearer };

export interface AssistLink extends Pick<AssistBridgeOptions, 'startRun' | 'playAnswer' | 'continueConversation'> {
  /** Connects now, so the status says at once whether Home Assistant answers (a problem shows in problem()). */
  connect(): void;
  /** what is wrong with Home Assistant now, for the status; undefined when all is well */
  problem(): string | undefined;
  onChange(listener: () => void): void;
  close(): void;
}

export function startAssistLink(settings: AssistSettings, bearer: HomeAssistantBearer): AssistLink {
  const ha = bearerLink(bearer);
  return {
    continueConversation: settings.continue,
    connect: ha.connect,
    async startRun(options, onEvent) {
      const { link } = ha.ensure();
      const conn = await link.connection().catch((err: Error) => {
        throw Object.assign(new Error(`Home Assistant: ${err.message}`), { code: 'unavailable' });
      });
      const pipeline = await choosePipeline(conn, settings.pipeline, settings.language);
      return startAssistRun(conn, { pipeline, conversationId: options.conversationId, timeoutS: 60 }, onEvent);
    },
    async playAnswer(tts, onAudio, signal) {
      const { urls, token } = ha.ensure();
      await streamTtsAudio({ base: urls.base, url: tts.url, mimeType: tts.mimeType, token: await token(), signal }, onAudio);
    },
    problem: ha.problem,
    onChange: ha.onChange,
    close: ha.close,
  };
}
