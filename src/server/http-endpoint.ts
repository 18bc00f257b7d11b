// Streamable HTTP for one endpoint, as a plain (req, res) handler for Node-RED's httpNode router.
// A POST is routed by era: 2026-07-28 requests go to the SDK's stateless handler, 2025 requests to
// a session map (a transport per Mcp-Session-Id, as the SDK's legacy-routing example does); GET
// and DELETE belong to 2025 sessions. Auth and DNS-rebinding checks come first.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  ProtocolErrorCode,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import { bearerCheck, isLocalNetworkAddress, rebindingCheck } from './access';
import type { McpEndpoint } from './endpoint';
import { sendWebResponse, toWebRequest } from './web-bridge';

export interface HttpServingOptions {
  /** Accepted bearer tokens. */
  tokens: string[];
  /** With no tokens: serve everyone (true) or refuse everyone (false). */
  anonymous: boolean;
  /** Host names accepted in Host/Origin (DNS-rebinding protection). */
  allowedHosts: string[];
  onError?: (err: Error) => void;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
}

const jsonError = (status: number, code: number, message: string) => Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

export class HttpServing {
  private readonly modern: McpHttpHandler;
  private readonly sessions = new Map<string, Session>();
  private readonly checkBearer: ReturnType<typeof bearerCheck>;
  private readonly stopListening: () => void;
  private closed = false;

  constructor(
    private readonly endpoint: McpEndpoint,
    private readonly options: HttpServingOptions,
  ) {
    this.modern = createMcpHandler(() => endpoint.createServer(), { legacy: 'reject', onerror: options.onError });
    this.checkBearer = bearerCheck(options.tokens, options.anonymous);
    this.stopListening = endpoint.tools.onChange(() => this.announceToolsChanged());
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** The Express-style route handler; never rejects (failures answer 500 and go to onError). */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    this.serve(req, controller.signal)
      .then((response) => sendWebResponse(response, res))
      .catch((err: Error) => {
        this.options.onError?.(err);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: ProtocolErrorCode.InternalError, message: 'Internal error' }, id: null }));
      });
  };

  private async serve(req: IncomingMessage, signal: AbortSignal): Promise<Response> {
    if (this.closed) return jsonError(503, -32000, 'This endpoint is being redeployed; retry.');
    if (!this.checkBearer && !isLocalNetworkAddress(req.socket.remoteAddress)) {
      return jsonError(403, -32000, 'This anonymous MCP endpoint serves the local network only; configure a token to serve other clients.');
    }
    const request = await toWebRequest(req, { signal });
    const refused = rebindingCheck(request, this.options.allowedHosts, !this.checkBearer);
    if (refused) return refused;
    let authInfo: AuthInfo | undefined;
    if (this.checkBearer) {
      const checked = await this.checkBearer(request);
      if (checked instanceof Response) return checked;
      authInfo = checked;
    }
    const sessionId = request.headers.get('mcp-session-id');
    if (request.method === 'POST') {
      const body = await parseBody(request);
      if (body === INVALID) return jsonError(400, ProtocolErrorCode.ParseError, 'Parse error: the body is not JSON.');
      if (!sessionId && !(await isLegacyRequest(request, body))) return this.modern.fetch(request, { authInfo, parsedBody: body });
      return this.serveLegacy(request, sessionId, body, authInfo);
    }
    if ((request.method === 'GET' || request.method === 'DELETE') && sessionId) {
      const session = this.sessions.get(sessionId);
      if (!session) return jsonError(404, -32001, 'Session not found: initialize a new session.');
      return session.transport.handleRequest(request, { authInfo });
    }
    return new Response(null, { status: 405, headers: { allow: 'POST' } });
  }

  private async serveLegacy(request: Request, sessionId: string | null, body: unknown, authInfo?: AuthInfo): Promise<Response> {
    if (sessionId) {
      const session = this.sessions.get(sessionId);
      if (!session) return jsonError(404, -32001, 'Session not found: initialize a new session.');
      return session.transport.handleRequest(request, { parsedBody: body, authInfo });
    }
    if (!isInitializeRequest(body)) return jsonError(400, -32000, 'Bad Request: no Mcp-Session-Id; send initialize first.');
    const server = this.endpoint.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, { transport, server }),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body, authInfo });
  }

  private announceToolsChanged(): void {
    this.modern.notify.toolsChanged();
    for (const { server } of this.sessions.values()) {
      server.sendToolListChanged().catch(() => undefined); // a session without a GET stream has nowhere to hear it
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopListening();
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled([this.modern.close(), ...sessions.map((s) => s.transport.close())]);
  }
}

const INVALID = Symbol('invalid');

async function parseBody(request: Request): Promise<unknown> {
  try {
    return await request.clone().json();
  } catch {
    return INVALID;
  }
}
