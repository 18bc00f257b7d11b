// Streamable HTTP for one endpoint, as a plain (req, res) handler for Node-RED's httpNode router.
// A POST is routed by era: 2026-07-28 requests go to the SDK's stateless handler, 2025 requests to
// a session map (a transport per Mcp-Session-Id, as the SDK's legacy-routing example does); GET
// and DELETE belong to 2025 sessions. Auth and DNS-rebinding checks come first, on the headers
// alone: no body byte is read for a caller who is refused, and a body is read up to a limit only.
// 2025 sessions are bounded so that no client can push another out: each client (its token, or its
// address on an anonymous endpoint) keeps at most `sessionsPerClient` (its own least recently used
// goes first), the endpoint at most `maxSessions` (a new one past that gets 429 + Retry-After, never
// someone else's live session), and none lives idle for longer than `sessionIdleMs`. Behind a load balancer, `instance` starts every session
// id (`<instance>.<uuid>`) so the balancer can send a session's requests back to the process that
// holds it (docs/scaling.md); 2026-07-28 requests need no such thing.
import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
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
import { bearerCheck, isLocalNetworkAddress, rebindingCheck, type OAuthGate } from './http/access';
import type { McpEndpoint } from './endpoint';
import { tokenDigest } from './calls/token-digest';
import { requestOrigin } from './http/request-origin';
import {
  bodyErrorResponse,
  DEFAULT_MAX_BODY_BYTES,
  jsonDepthExceeds,
  MAX_JSON_DEPTH,
  readBody,
  RequestBodyError,
  requestHead,
  sendWebResponse,
} from './http/web-bridge';

export interface HttpServingOptions {
  /** Accepted bearer tokens. */
  tokens: string[];
  /** Sign-in (OAuth) for clients that cannot send a fixed token; their access tokens are accepted beside the endpoint's tokens. */
  signIn?: OAuthGate;
  /** Variables the tokens come from that are not set (named in the 401). */
  unsetTokenVariables?: string[];
  /** With no tokens: serve everyone (true) or refuse everyone (false). */
  anonymous: boolean;
  /** Host names accepted in Host/Origin (DNS-rebinding protection). */
  allowedHosts: string[];
  onError?: (err: Error) => void;
  /** The largest request body read (default: the SDK's 4 MiB). */
  maxBodyBytes?: number;
  /** 2025-revision sessions kept at once (default 100); past it a new client gets 429. */
  maxSessions?: number;
  /** 2025-revision sessions one client keeps (default 50); its own least recently used goes first. */
  sessionsPerClient?: number;
  /** A 2025-revision session unused for this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
  /** This process's name behind a balancer: the prefix of its session ids. */
  instance?: string;
}

export const DEFAULT_MAX_SESSIONS = 100;
export const DEFAULT_SESSIONS_PER_CLIENT = 50;
/**
 * JSON-RPC batches (2025-03-26 only; later revisions dropped them) are bounded: a batch of 100
 * tools/list requests cost 4.8 KB to send and answered 71 times that. Clients batch a few messages
 * (a response and a notification), never dozens.
 */
export const MAX_BATCH = 10;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** How long a session that has not made its first call yet is kept from eviction (its client is setting it up). */
export const YOUNG_SESSION_MS = 30_000;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
  /** A digest of the bearer token that created it: the session answers that token only. */
  owner?: string;
  /** Whose share of the sessions it counts against: the owner, or the address on an anonymous endpoint. */
  client: string;
  /** It has carried a request after initialize: before that, and while young, it is never evicted. */
  used?: boolean;
  createdAt: number;
}

/** Whose session: a digest of the bearer token (no token kept in memory), none on an anonymous endpoint. */
function ownerOf(authInfo: AuthInfo | undefined): string | undefined {
  return authInfo?.token ? tokenDigest(authInfo.token) : undefined;
}

const jsonError = (status: number, code: number, message: string, headers?: Record<string, string>) =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });

export class HttpServing {
  private readonly modern: McpHttpHandler;
  private readonly sessions = new Map<string, Session>();
  private readonly checkBearer: ReturnType<typeof bearerCheck>;
  private readonly stopListening: () => void;
  private closed = false;
  /** Large requests are worked on two at a time (see LARGE_BODY_BYTES). */
  private readonly heavy = pLimit(2);

  constructor(
    private readonly endpoint: McpEndpoint,
    private readonly options: HttpServingOptions,
  ) {
    this.modern = createMcpHandler(() => endpoint.createServer('modern'), { legacy: 'reject', onerror: options.onError });
    this.checkBearer = bearerCheck(options.tokens, options.anonymous, options.signIn, options.unsetTokenVariables);
    const stops = [
      endpoint.tools.onChange(() => this.announceToolsChanged()),
      endpoint.prompts.onChange(() =>
        this.announce(
          () => this.modern.notify.promptsChanged(),
          (s) => s.sendPromptListChanged(),
        ),
      ),
      // A skill's files are resources: a changed skill is a changed resource list, and a deploy that
      // changed both says so once (the endpoint flushes one registry after the other).
      ...[endpoint.resources, endpoint.skills].map((registry) => registry.onChange(() => this.announceResourcesChanged())),
      // 2025 sessions hear updates through their own subscriptions (prompts-resources-serving.ts).
      endpoint.onResourceUpdated((uri) => this.modern.notify.resourceUpdated(uri)),
    ];
    this.stopListening = () => stops.forEach((stop) => stop());
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** The Express-style route handler; never rejects (failures answer 500 and go to onError). */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    const controller = new AbortController();
    // Only a client that left before its answer aborts the work: aborting after every answer cost a
    // DOMException and an abort event through every signal that follows this one, per request.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const work = () => this.serve(req, controller.signal).then((response) => sendWebResponse(response, res));
    (Number(req.headers['content-length'] ?? 0) > LARGE_BODY_BYTES ? this.heavy(work) : work()).catch((err: Error) => {
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
    // One Request for the checks and for the SDK, without a body: POST bodies are read here, up to the
    // limit, parsed once and handed over as `parsedBody`, so nothing reads the Request's own body
    // (a second Request with a body stream cost a web stream per call).
    // With sign-in the request keeps the origin the client used: tokens are issued per origin.
    const request = requestHead(req, { signal, origin: this.options.signIn ? requestOrigin(req) : undefined });
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
      let bytes: Uint8Array;
      try {
        bytes = await readBody(req, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      } catch (err) {
        if (err instanceof RequestBodyError) return bodyErrorResponse(err);
        throw err;
      }
      const large = bytes.length > LARGE_BODY_BYTES;
      if (large) await yieldToIo();
      const body = parseBody(bytes);
      if (large) await yieldToIo();
      if (body === INVALID) return jsonError(400, ProtocolErrorCode.ParseError, 'Parse error: the body is not JSON.');
      if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) return jsonError(400, -32600, `Invalid request: the message nests deeper than ${MAX_JSON_DEPTH} levels.`);
      if (Array.isArray(body) && body.length > MAX_BATCH)
        return jsonError(400, -32600, `Invalid request: a batch of ${body.length} messages; this endpoint takes at most ${MAX_BATCH} at once.`);
      if (!sessionId && !(await isLegacyRequest(request, body))) return this.modern.fetch(request, { authInfo, parsedBody: body });
      return this.serveLegacy(request, sessionId, body, authInfo, req.socket.remoteAddress);
    }
    if ((request.method === 'GET' || request.method === 'DELETE') && sessionId) {
      const session = this.session(sessionId, authInfo);
      if (!session) return jsonError(404, -32001, 'Session not found: initialize a new session.');
      return session.transport.handleRequest(request, { authInfo });
    }
    return new Response(null, { status: 405, headers: { allow: 'POST' } });
  }

  private async serveLegacy(
    request: Request,
    sessionId: string | null,
    body: unknown,
    authInfo: AuthInfo | undefined,
    address: string | undefined,
  ): Promise<Response> {
    if (sessionId) {
      const session = this.session(sessionId, authInfo);
      if (!session) return jsonError(404, -32001, 'Session not found: initialize a new session.');
      if (!session.used && carriesRequest(body)) session.used = true;
      return session.transport.handleRequest(request, { parsedBody: body, authInfo });
    }
    if (!isInitializeRequest(body)) return jsonError(400, -32000, 'Bad Request: no Mcp-Session-Id; send initialize first.');
    const owner = ownerOf(authInfo);
    const client = owner ?? `address:${address ?? ''}`;
    const full = this.makeRoomForSession(client);
    if (full) return full;
    const server = this.endpoint.createServer('legacy', client);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => (this.options.instance ? `${this.options.instance}.${randomUUID()}` : randomUUID()),
      onsessioninitialized: (id) => void this.sessions.set(id, { transport, server, lastUsed: Date.now(), createdAt: Date.now(), owner, client }),
      onsessionclosed: (id) => void this.sessions.delete(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body, authInfo });
  }

  /**
   * The live session with this id, marked as used now; an idle-expired one is closed instead. A
   * session answers only the token that created it: to any other it does not exist (404, as for an
   * unknown id, so a token learns nothing about other clients' sessions).
   */
  private session(id: string, authInfo: AuthInfo | undefined): Session | undefined {
    const session = this.sessions.get(id);
    if (!session || session.owner !== ownerOf(authInfo)) return undefined;
    if (Date.now() - session.lastUsed > (this.options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS)) {
      this.endSession(id, session);
      return undefined;
    }
    session.lastUsed = Date.now();
    // Map order is use order: the first entry is always the least recently used.
    this.sessions.delete(id);
    this.sessions.set(id, session);
    return session;
  }

  /**
   * Before a new session for `client`: close the idle-expired ones, then the client's own least
   * recently used past its share (a client that never DELETEs only pushes itself out), but never
   * one younger than its first request (made less than 30 s ago and not used yet): many clients
   * sharing one token start together, and a session made a moment ago must live to make its call. If the share is still full of such
   * young sessions, or the endpoint is full, the newcomer is refused with 429 and a Retry-After:
   * nobody else's live session is closed.
   */
  private makeRoomForSession(client: string): Response | undefined {
    const now = Date.now();
    const idleMs = this.options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
    const own: Array<[string, Session]> = [];
    for (const [id, session] of this.sessions) {
      if (now - session.lastUsed > idleMs) this.endSession(id, session);
      else if (session.client === client) own.push([id, session]);
    }
    const share = this.options.sessionsPerClient ?? DEFAULT_SESSIONS_PER_CLIENT;
    let over = own.length - share + 1;
    for (const [id, session] of own) {
      if (over <= 0) break;
      if (!session.used && now - session.createdAt < YOUNG_SESSION_MS) continue;
      this.endSession(id, session);
      over--;
    }
    if (over > 0) {
      return jsonError(
        429,
        -32000,
        `This client holds its share of sessions (${share}), all of them new; retry in 1 s, or close sessions you no longer use (DELETE).`,
        { 'retry-after': '1' },
      );
    }
    if (this.sessions.size < (this.options.maxSessions ?? DEFAULT_MAX_SESSIONS)) return undefined;
    const oldest = this.sessions.values().next().value as Session;
    const retryAfter = Math.min(60, Math.max(1, Math.ceil((oldest.lastUsed + idleMs - now) / 1000)));
    return jsonError(
      429,
      -32000,
      `This endpoint holds its most sessions (${this.sessions.size}); retry in ${retryAfter} s, or close sessions you no longer use (DELETE).`,
      {
        'retry-after': String(retryAfter),
      },
    );
  }

  private endSession(id: string, session: Session): void {
    this.sessions.delete(id);
    session.transport.close().catch(() => undefined);
  }

  private announceToolsChanged(): void {
    this.announce(
      () => this.modern.notify.toolsChanged(),
      (server) => server.sendToolListChanged(),
    );
  }

  private resourcesAnnounced = false;

  private announceResourcesChanged(): void {
    if (this.resourcesAnnounced) return;
    this.resourcesAnnounced = true;
    queueMicrotask(() => {
      this.resourcesAnnounced = false;
      this.announce(
        () => this.modern.notify.resourcesChanged(),
        (s) => s.sendResourceListChanged(),
      );
    });
  }

  /** To 2026-07-28 listeners through the handler's bus, and to every 2025 session. */
  private announce(modern: () => void, session: (server: Server) => Promise<void>): void {
    modern();
    for (const { server } of this.sessions.values()) {
      session(server).catch(() => undefined); // a session without a GET stream has nowhere to hear it
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

/**
 * Requests past this size are worked on two at a time, and parsed between turns of the event loop.
 * A 4 MiB call costs about 200 ms of CPU (parse, validate, the answer's JSON and its encoding):
 * twenty arriving together otherwise kept the editor and every other client waiting for 2.4–3 s.
 * The queued ones wait with their body unread, so they hold no memory either.
 */
const LARGE_BODY_BYTES = 256 * 1024;
const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

function parseBody(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return INVALID;
  }
}

/** A JSON-RPC request (an id and a method), or a batch holding one: a session's real use, not a notification. */
function carriesRequest(body: unknown): boolean {
  const one = (m: unknown) => !!m && typeof m === 'object' && 'method' in m && 'id' in m;
  return Array.isArray(body) ? body.some(one) : one(body);
}
