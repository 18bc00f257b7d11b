// Text to Home Assistant's Assist, for the ha-assist node: the words go to a pipeline's intent stage
// (the conversation agent the user picked in Home Assistant: its built-in sentences, or an LLM agent)
// and its answer comes back, with the conversation id that continues the talk. Reached from an
// mcp-server's MCP URL and bearer like the listener's Assist voice; the link is made on connect() (the
// node calls it once the flows have started, so the status shows Home Assistant's state at once) and
// kept, retried while Home Assistant is away.
import { bearerLink, type HomeAssistantBearer } from './bearer-link';
import type { LinkState } from './connection';
import { askInText, choosePipeline, type TextAnswer } from './pipeline-run';

export interface AssistTextSettings {
  /** pipeline id; blank: the one for `language`, else Home Assistant's preferred */
  pipeline?: string;
  language?: string;
  /** the run's limit, seconds */
  timeoutS: number;
}

export interface AssistText {
  connect(): void;
  state(): LinkState | undefined;
  problem(): string | undefined;
  onChange(listener: () => void): void;
  ask(text: string, conversationId: string | undefined, signal: AbortSignal): Promise<TextAnswer>;
  close(): void;
}

/** Home Assistant could not be reached for this text (as opposed to a run it refused or failed). */
export class AssistUnavailable extends Error {
  readonly code = 'unavailable';
}

export function startAssistText(settings: AssistTextSettings, bearer: HomeAssistantBearer): AssistText {
  const ha = bearerLink(bearer);
  return {
    connect: ha.connect,
    state: ha.state,
    problem: ha.problem,
    onChange: ha.onChange,
    close: ha.close,
    async ask(text, conversationId, signal) {
      let link;
      try {
        link = ha.ensure().link;
      } catch (err) {
        throw new AssistUnavailable((err as Error).message);
      }
      const conn = await link.connection().catch((err: Error) => {
        throw new AssistUnavailable(err.message);
      });
      const pipeline = await choosePipeline(conn, settings.pipeline, settings.language);
      return askInText(conn, { text, pipeline, conversationId, timeoutS: settings.timeoutS, signal });
    },
  };
}
