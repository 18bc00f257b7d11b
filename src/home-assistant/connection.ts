// One WebSocket connection to Home Assistant's API, through Home Assistant's own client library
// (home-assistant-js-websocket, the one HA's frontend uses): it numbers commands, matches results,
// delivers subscription events and reconnects. Node has no WebSocket global before 22, so the socket
// is ws's, handed to the library through its createSocket hook with HA's auth handshake
// (auth_required → auth → auth_ok / auth_invalid). The link keeps a state a status can show, retries
// while Home Assistant is away, and is asked for the connection when a turn needs it.
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { createConnection, ERR_CANNOT_CONNECT, ERR_INVALID_AUTH, type Connection, type HaWebSocket } from 'home-assistant-js-websocket';

export interface HomeAssistantAccess {
  websocketUrl: string;
  /** The bearer: a long-lived access token, the add-on's token or an OAuth access token. */
  token(): Promise<string | undefined>;
}

export type LinkState = { kind: 'connecting' } | { kind: 'ready'; version: string } | { kind: 'failed'; reason: string; auth: boolean };

export class HomeAssistantUnavailable extends Error {
  constructor(
    message: string,
    readonly auth = false,
  ) {
    super(message);
    this.name = 'HomeAssistantUnavailable';
  }
}

const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000];
const CONNECT_TIMEOUT_MS = 5000;

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- typed events
export interface HomeAssistantLink {
  on(event: 'state', listener: (state: LinkState) => void): this;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see above
export class HomeAssistantLink extends EventEmitter {
  private conn: Connection | undefined;
  private connecting: Promise<Connection> | undefined;
  private current: LinkState = { kind: 'connecting' };
  private retryTimer: NodeJS.Timeout | undefined;
  private attempts = 0;
  private closed = false;

  constructor(private readonly access: HomeAssistantAccess) {
    super();
  }

  get state(): LinkState {
    return this.current;
  }

  /** Connects now and keeps retrying in the background until it is connected or closed. */
  start(): void {
    void this.connection().catch(() => undefined);
  }

  /** The open connection, connecting first when there is none (a turn waits for at most one try). */
  connection(): Promise<Connection> {
    if (this.closed) return Promise.reject(new HomeAssistantUnavailable('closed'));
    if (this.conn?.connected) return Promise.resolve(this.conn);
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.conn?.close();
    this.conn = undefined;
    this.removeAllListeners();
  }

  private async open(): Promise<Connection> {
    clearTimeout(this.retryTimer);
    if (this.current.kind !== 'failed') this.setState({ kind: 'connecting' });
    try {
      if (!(await this.access.token())) throw new HomeAssistantUnavailable('no access token: set the token of the Home Assistant mcp-server', true);
      const conn = await createConnection({ createSocket: () => this.socket(), setupRetry: 0 });
      if (this.closed) {
        conn.close();
        throw new HomeAssistantUnavailable('closed');
      }
      this.conn = conn;
      this.attempts = 0;
      conn.addEventListener('ready', () => this.setState({ kind: 'ready', version: conn.haVersion }));
      conn.addEventListener('disconnected', () => this.setState({ kind: 'failed', reason: 'connection lost, reconnecting', auth: false }));
      conn.addEventListener('reconnect-error', (_c, err) => {
        // The library stops retrying after an auth failure: a new token needs a new link.
        if (err === ERR_INVALID_AUTH) this.setState({ kind: 'failed', reason: 'the token was refused', auth: true });
      });
      this.setState({ kind: 'ready', version: conn.haVersion });
      return conn;
    } catch (err) {
      const failure = err instanceof HomeAssistantUnavailable ? err : describe(err, this.access.websocketUrl);
      if (!this.closed) {
        this.setState({ kind: 'failed', reason: failure.message, auth: failure.auth });
        // Home Assistant restarting or not up yet: try again, less often as it stays away.
        const wait = RETRY_MS[Math.min(this.attempts++, RETRY_MS.length - 1)];
        this.retryTimer = setTimeout(() => this.start(), wait);
        this.retryTimer.unref?.();
      }
      throw failure;
    }
  }

  /** ws's WebSocket through HA's auth phase, as the library's createSocket does with a browser's. */
  private async socket(): Promise<HaWebSocket> {
    const token = (await this.access.token()) ?? '';
    return new Promise<HaWebSocket>((resolve, reject) => {
      const ws = new WebSocket(this.access.websocketUrl, { handshakeTimeout: CONNECT_TIMEOUT_MS });
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        ws.removeAllListeners();
        ws.on('error', () => undefined);
        ws.terminate();
        reject(error);
      };
      ws.on('error', (err) => fail(err));
      ws.on('close', () => fail(new HomeAssistantUnavailable('Home Assistant closed the connection during sign-in')));
      ws.on('message', (data, isBinary) => {
        if (isBinary) return;
        let message: { type?: string; ha_version?: string; message?: string };
        try {
          message = JSON.parse(data.toString());
        } catch {
          return fail(new HomeAssistantUnavailable('Home Assistant answered with something that is not JSON: is this its address?'));
        }
        if (message.type === 'auth_required') ws.send(JSON.stringify({ type: 'auth', access_token: token }));
        else if (message.type === 'auth_invalid') fail(new HomeAssistantUnavailable(`the token was refused (${message.message ?? 'auth_invalid'})`, true));
        else if (message.type === 'auth_ok') {
          settled = true;
          ws.removeAllListeners();
          const socket = ws as unknown as HaWebSocket;
          socket.haVersion = String(message.ha_version ?? '');
          resolve(socket);
        }
      });
    }).catch((err) => {
      // The library tells "wrong token" (stop retrying) from the rest (retry) by its code alone.
      if (err instanceof HomeAssistantUnavailable && err.auth) throw ERR_INVALID_AUTH;
      throw describe(err, this.access.websocketUrl);
    });
  }

  private setState(state: LinkState): void {
    const same = JSON.stringify(state) === JSON.stringify(this.current);
    this.current = state;
    if (!same) this.emit('state', state);
  }
}

/** A connection failure in words a user can act on. */
function describe(err: unknown, url: string): HomeAssistantUnavailable {
  if (err instanceof HomeAssistantUnavailable) return err;
  if (err === ERR_INVALID_AUTH) return new HomeAssistantUnavailable('the token was refused', true);
  if (err === ERR_CANNOT_CONNECT) return new HomeAssistantUnavailable(`cannot reach ${url}`);
  const code = (err as { code?: string })?.code;
  const where = new URL(url).host;
  if (code === 'ECONNREFUSED') return new HomeAssistantUnavailable(`connection refused by ${where}: is Home Assistant running?`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new HomeAssistantUnavailable(`host not found: ${where}`);
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(String((err as Error)?.message))) return new HomeAssistantUnavailable(`no answer from ${where}`);
  const status = /Unexpected server response: (\d+)/.exec(String((err as Error)?.message))?.[1];
  if (status === '401' || status === '403') return new HomeAssistantUnavailable(`the token was refused (HTTP ${status})`, true);
  if (status) return new HomeAssistantUnavailable(`${where} answered HTTP ${status} at ${new URL(url).pathname}: is this Home Assistant?`);
  return new HomeAssistantUnavailable(`cannot reach ${where}: ${(err as Error)?.message ?? String(err)}`);
}
