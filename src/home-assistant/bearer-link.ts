// Home Assistant reached from an mcp-server's MCP URL and bearer: the listener's "assist" voice and
// the ha-assist node both need the WebSocket link made lazily (the bearer may name a server that is
// not deployed yet), its state for a status, and the URLs beside it. The link is made on the first
// `ensure()`; a bearer that cannot be had (no server, no URL) is the problem until it can.
import { HomeAssistantLink, type LinkState } from './connection';
import { homeAssistantUrls, type HomeAssistantUrls } from './urls';

/** Home Assistant's MCP URL (…/api/mcp) and the bearer to send; throws HomeAssistantUnavailable saying why there is none. */
export type HomeAssistantBearer = () => { url: string; token(): Promise<string | undefined> };

export interface BearerLink {
  /** The link and URLs, made on first use; throws (and problem() says) when the bearer cannot be had. */
  ensure(): { link: HomeAssistantLink; urls: HomeAssistantUrls; token(): Promise<string | undefined> };
  /** Connects now, so the status says at once whether Home Assistant answers. */
  connect(): void;
  state(): LinkState | undefined;
  /** what is wrong with Home Assistant now, for the status; undefined when all is well */
  problem(): string | undefined;
  onChange(listener: () => void): void;
  close(): void;
}

export function bearerLink(bearer: HomeAssistantBearer): BearerLink {
  let made: ReturnType<BearerLink['ensure']> | undefined;
  let setupProblem: string | undefined;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((l) => l());
  const ensure = () => {
    if (made) return made;
    let given: ReturnType<HomeAssistantBearer>;
    let urls: HomeAssistantUrls;
    try {
      given = bearer();
      urls = homeAssistantUrls(given.url);
      setupProblem = undefined;
    } catch (err) {
      setupProblem = (err as Error).message;
      changed();
      throw err;
    }
    const link = new HomeAssistantLink({ websocketUrl: urls.websocket, token: given.token });
    link.on('state', changed);
    link.start();
    made = { link, urls, token: given.token };
    return made;
  };
  return {
    ensure,
    connect() {
      try {
        ensure();
      } catch {
        /* problem() says why */
      }
    },
    state: () => made?.link.state,
    problem() {
      if (setupProblem) return setupProblem;
      const s = made?.link.state;
      return s?.kind === 'failed' ? s.reason : undefined;
    },
    onChange(listener) {
      listeners.add(listener);
    },
    close() {
      listeners.clear();
      made?.link.close();
    },
  };
}
