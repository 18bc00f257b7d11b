// xiaozhi's cloud "MCP endpoint": we dial OUT to the WebSocket URL the xiaozhi console gives (its
// token is in the URL) and act as the MCP server on that socket, so the endpoint's tools become
// tools of every device on the user's account. One JSON-RPC message per text frame. The relay
// may rewrite request ids to strings: the SDK server answers with the id exactly as received.
// Lost connections are retried with exponential backoff; the URL (a secret) is never logged.
import WebSocket from 'ws';
import type { JSONRPCMessage, Server, Transport } from '@modelcontextprotocol/server';

export interface XiaozhiLinkOptions {
  /** First retry delay, doubled per failure up to maxDelayMs; reset once a connection opens. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  onState?: (state: 'connecting' | 'connected' | 'disconnected', detail?: string) => void;
  onRetry?: (delayMs: number) => void;
}

/** An MCP Transport over one open WebSocket. */
class WebSocketServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      let message: JSONRPCMessage;
      try {
        message = JSON.parse(data.toString('utf8')) as JSONRPCMessage;
      } catch {
        this.onerror?.(new Error('xiaozhi endpoint sent a frame that is not JSON'));
        return;
      }
      this.onmessage?.(message);
    });
    socket.on('close', () => this.onclose?.());
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.socket.readyState !== WebSocket.OPEN) throw new Error('xiaozhi endpoint connection is closed');
    await new Promise<void>((resolve, reject) => this.socket.send(JSON.stringify(message), (err) => (err ? reject(err) : resolve())));
  }

  async close(): Promise<void> {
    this.socket.close();
  }
}

/** Where the link goes, safe to show: scheme, host and path, never the query (the token). */
function describeEndpointUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'an invalid URL';
  }
}

export class XiaozhiLink {
  private socket: WebSocket | undefined;
  private server: Server | undefined;
  private timer: NodeJS.Timeout | undefined;
  private delay: number;
  private stopped = false;
  private readonly initialDelay: number;
  private readonly maxDelay: number;

  constructor(
    private readonly url: string,
    private readonly createServer: () => Server,
    private readonly options: XiaozhiLinkOptions = {},
  ) {
    this.initialDelay = options.initialDelayMs ?? 1000;
    this.maxDelay = options.maxDelayMs ?? 60000;
    this.delay = this.initialDelay;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  private connect(): void {
    if (this.stopped) return;
    this.options.onState?.('connecting');
    const socket = new WebSocket(this.url, { handshakeTimeout: 15000 });
    this.socket = socket;
    let failure = '';
    socket.on('unexpected-response', (_req, res) => {
      failure = `HTTP ${res.statusCode}${res.statusCode === 401 || res.statusCode === 403 ? ': check the token in the xiaozhi endpoint URL' : ''}`;
      socket.terminate();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      failure ||= err.code ?? err.message.replace(this.url, describeEndpointUrl(this.url));
    });
    socket.on('open', () => {
      this.delay = this.initialDelay;
      const server = this.createServer();
      this.server = server;
      server.connect(new WebSocketServerTransport(socket)).catch(() => socket.terminate());
      this.options.onState?.('connected', describeEndpointUrl(this.url));
    });
    socket.on('close', () => {
      const server = this.server;
      this.server = undefined;
      void server?.close().catch(() => undefined);
      if (this.socket !== socket || this.stopped) return;
      this.options.onState?.('disconnected', failure || 'connection closed');
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    const delay = this.delay;
    this.delay = Math.min(this.delay * 2, this.maxDelay);
    this.options.onRetry?.(delay);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = undefined;
    if (socket && socket.readyState !== WebSocket.CLOSED) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.terminate();
      });
    }
  }
}
