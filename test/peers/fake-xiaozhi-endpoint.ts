// A stand-in for xiaozhi's cloud MCP endpoint (wss://api.xiaozhi.me/mcp/?token=…): it accepts the
// WebSocket our endpoint dials, checks the token in the URL (HTTP 401 otherwise), and then acts as
// the MCP *client*, one JSON-RPC message per text frame, with request ids rewritten to strings as
// the relay does. It checks every answer's id is the same string it sent (not a number).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface FakeXiaozhiEndpoint {
  url(token: string): string;
  /** Resolves with the next connection our side opens. */
  nextConnection(): Promise<XiaozhiConnection>;
  connections: number;
  refusedTokens: number;
  close(): Promise<void>;
}

export interface XiaozhiConnection {
  request(method: string, params?: Record<string, unknown>): Promise<any>;
  notify(method: string, params?: Record<string, unknown>): void;
  /** Every frame our side sent that was not an answer to a request (notifications). */
  notifications: any[];
  drop(): void;
  closed: Promise<void>;
}

export async function startFakeXiaozhiEndpoint(validToken: string): Promise<FakeXiaozhiEndpoint> {
  const waiting: Array<(c: XiaozhiConnection) => void> = [];
  const ready: XiaozhiConnection[] = [];
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: (info, cb) => {
      const token = new URL(info.req.url ?? '/', 'http://x').searchParams.get('token');
      if (token === validToken) return cb(true);
      fake.refusedTokens++;
      cb(false, 401, 'Unauthorized');
    },
  });
  await once(wss, 'listening');
  let nextId = 1;
  const fake: FakeXiaozhiEndpoint = {
    url: (token) => `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/mcp/?token=${encodeURIComponent(token)}`,
    nextConnection: () => new Promise((resolve) => (ready.length ? resolve(ready.shift()!) : waiting.push(resolve))),
    connections: 0,
    refusedTokens: 0,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise((resolve) => wss.close(resolve));
    },
  };
  wss.on('connection', (socket: WebSocket) => {
    fake.connections++;
    const pending = new Map<string, { resolve: (v: any) => void; reject: (e: Error) => void }>();
    const connection: XiaozhiConnection = {
      notifications: [],
      request(method, params = {}) {
        const id = String(nextId++ * 1000 + 7); // a string id, as the relay forwards them
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
        return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
      },
      notify(method, params = {}) {
        socket.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
      },
      drop: () => socket.terminate(),
      closed: once(socket, 'close').then(() => undefined),
    };
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (!('id' in message) || message.method) return void connection.notifications.push(message);
      const waiter = pending.get(message.id);
      if (typeof message.id !== 'string' || !waiter) throw new Error(`answer id ${JSON.stringify(message.id)} is not one of the string ids sent`);
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
    const w = waiting.shift();
    if (w) w(connection);
    else ready.push(connection);
  });
  return fake;
}
