// A stand-in for Home Assistant's `mcp_server` Streamable HTTP endpoint, built on plain node:http
// because what matters is HA's exact wire behaviour (reference home-assistant-mcp.md §0–§3 and
// fixtures/tools-call-examples.json "http"), which an SDK server would not reproduce:
// stateless (no Mcp-Session-Id), one JSON body per POST and never SSE, bearer auth answered with
// aiohttp's "401: Unauthorized", 400 when Accept lacks application/json, 405 for GET, 202 for
// notifications, -32601 for unknown methods. Every request is recorded so a test can prove, for
// example, that a call rejected by our client never reached the server.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { haFixtures, type HaFixtureSet, type HaGeneration, type HaTool, type JsonRpcRequestLike } from './fixtures';
import { pythonJsonDumps } from './python-json';
import { toolCallAnswerer } from './tool-calls';
import { createAssistStandIn, type AssistStandIn } from './assist';

export const DEFAULT_HA_TOKEN = 'ha-stand-in-long-lived-access-token';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, when it was JSON. */
  json?: unknown;
  /** The JSON-RPC method, when the body was a JSON-RPC message with one. */
  rpcMethod?: string;
  /** HTTP status the stand-in answered with. */
  status?: number;
}

export interface HomeAssistantOptions {
  /** Which Home Assistant to be (./fixtures.ts): before 2026.9 (default) or 2026.10 and later. */
  generation?: HaGeneration;
  /**
   * Several LLM APIs selected on the entry ("all LLM APIs"): HA's MergedAPI serves every tool of
   * every API as `<api>__<tool>` (helpers/llm.py NamespacedTool), e.g. `assist__intent__HassTurnOn`.
   */
  apis?: string[];
  /** 2026.10's "Require an administrator account": this token is a valid user's, but not an admin's (401). */
  nonAdminToken?: string;
  /** The long-lived access token to accept (default DEFAULT_HA_TOKEN). */
  token?: string;
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** Also serve Assist pipelines: the WebSocket API and the TTS proxy (./assist.ts). */
  assist?: boolean;
  /**
   * The LLM APIs registered besides Assist's: each is served at /api/mcp/<id> (administrators only,
   * like every id but "assist") and listed by the WebSocket API's `llm/api/list` (which this turns on).
   */
  llmApis?: Array<{ id: string; name: string }>;
  /** HA's OAuth/IndieAuth sign-in (test/peers/oauth/ha-indieauth.ts): its routes, and its tokens accepted. */
  auth?: {
    route(req: IncomingMessage, res: ServerResponse, body: string, origin: string): boolean;
    accepts(authorization: string | undefined): boolean;
  };
}

export interface HomeAssistantStandIn {
  /** http://127.0.0.1:PORT/api/mcp */
  url: string;
  generation: HaGeneration;
  /** The tools this generation serves, in its order. */
  tools: readonly HaTool[];
  token: string;
  requests: RecordedRequest[];
  /** with `assist: true`: the pipeline side */
  assist?: AssistStandIn;
  close(): Promise<void>;
}

const SUPPORTED_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const LATEST_VERSION = '2025-11-25';
const KNOWN_METHODS = new Set([
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);
const EXPOSED_ENTITIES_URI = 'homeassistant://assist/exposed-entities';
const CONTEXT_SNAPSHOT_URI = 'homeassistant://assist/context-snapshot';

type Answer = (request: JsonRpcRequestLike) => RpcOutcome;

export async function startHomeAssistant(opts: HomeAssistantOptions = {}): Promise<HomeAssistantStandIn> {
  const token = opts.token ?? DEFAULT_HA_TOKEN;
  const fixtures = merged(haFixtures(opts.generation), opts.apis);
  const answer = answererFor(fixtures);
  const requests: RecordedRequest[] = [];
  let origin = '';
  const llmApis = opts.llmApis ? [{ id: 'assist', name: 'Assist' }, ...opts.llmApis] : undefined;
  const assist = opts.assist || llmApis ? createAssistStandIn(() => token, { nonAdminToken: opts.nonAdminToken, llmApis }) : undefined;

  const server = createServer((req, res) => {
    if (assist?.route(req, res)) return;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const record: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(record);
      res.on('finish', () => (record.status = res.statusCode));
      if (opts.auth?.route(req, res, record.body, origin)) return;
      // A non-admin user's token is a valid token, but 2026.10 entries require an administrator:
      // HA answers exactly as for a wrong token (mcp_server/http.py _validate_admin).
      const nonAdmin = !!opts.nonAdminToken && req.headers.authorization === `Bearer ${opts.nonAdminToken}`;
      const admin = req.headers.authorization === `Bearer ${token}` || !!opts.auth?.accepts(req.headers.authorization);
      // /api/mcp/assist is open to every user; any other API id, and a 2026.10 entry, to administrators.
      const assistApi = /^\/api\/mcp\/assist\/?$/.test((req.url ?? '').split('?')[0]);
      const accepted = admin || (nonAdmin && assistApi && !!llmApis);
      handle(req, res, record, accepted, origin, answer, llmApis?.map((a) => a.id) ?? ['assist']);
    });
  });
  server.on('upgrade', (req, socket, head) => (assist ? assist.upgrade(req, socket, head) : socket.destroy()));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: `${origin}/api/mcp`,
    generation: fixtures.generation,
    tools: fixtures.tools,
    token,
    requests,
    assist,
    close: () =>
      new Promise<void>((resolve) => {
        assist?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function handle(
  req: IncomingMessage,
  res: ServerResponse,
  record: RecordedRequest,
  authorized: boolean,
  origin: string,
  answer: Answer,
  apiIds: string[],
): void {
  const path = (req.url ?? '/').split('?')[0];

  if (path === '/.well-known/oauth-protected-resource' && req.method === 'GET') {
    // RFC 9728 document HA serves since 2026.4 (core PR #166213); no auth needed.
    const doc = { resource: origin, authorization_servers: [origin], resource_documentation: 'https://www.home-assistant.io/integrations/mcp_server/' };
    sendJson(res, 200, doc);
    return;
  }
  const apiMatch = /^\/api\/mcp(?:\/([^/]+))?$/.exec(path);
  if (!apiMatch) {
    sendText(res, 404, '404: Not Found');
    return;
  }
  // Newest HA registers only a POST handler, so aiohttp's router answers every other method with
  // 405 before auth is looked at.
  if (req.method !== 'POST') {
    sendText(res, 405, '405: Method Not Allowed', { Allow: 'POST' });
    return;
  }
  if (!authorized) {
    sendText(res, 401, '401: Unauthorized', {
      'WWW-Authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource"`,
    });
    return;
  }
  const apiId = apiMatch[1];
  if (apiId !== undefined && !apiIds.includes(decodeURIComponent(apiId))) {
    sendText(res, 404, `Unknown LLM API '${decodeURIComponent(apiId)}'`);
    return;
  }
  if (!(req.headers.accept ?? '').includes('application/json')) {
    sendText(res, 400, 'Client must accept application/json');
    return;
  }
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    sendText(res, 400, 'Content-Type must be application/json');
    return;
  }

  const message = parseJsonRpc(record);
  if (!message) {
    sendText(res, 400, 'Request must be a JSON-RPC message');
    return;
  }
  if (!('method' in message) || message.id === undefined) {
    // Notifications and responses: accepted, nothing to say.
    res.writeHead(202, { 'Content-Length': '0' });
    res.end();
    return;
  }
  sendJson(res, 200, { jsonrpc: '2.0', id: message.id, ...answer(message) });
}

type RpcOutcome = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/** The fixture set as a MergedAPI of `apis` serves it: every tool once per API, namespaced, calls routed back. */
function merged(fixtures: HaFixtureSet, apis: string[] | undefined): HaFixtureSet {
  if (!apis?.length) return fixtures;
  const tools = apis.flatMap((api) => fixtures.tools.map((t) => ({ ...t, name: `${api}__${t.name}` })));
  const callExamples = apis.flatMap((api) =>
    fixtures.callExamples.map((e) => ({ ...e, request: { ...e.request, params: { ...e.request.params, name: `${api}__${e.request.params.name}` } } })),
  );
  return { ...fixtures, tools, callExamples };
}

function answererFor(fixtures: HaFixtureSet): Answer {
  const answerToolCall = toolCallAnswerer(fixtures);
  return (request) => {
    const params = request.params ?? {};
    if (!KNOWN_METHODS.has(request.method)) {
      return { error: { code: -32601, message: 'Method not found', data: request.method } };
    }
    switch (request.method) {
      case 'initialize': {
        const asked = params.protocolVersion;
        const protocolVersion = typeof asked === 'string' && SUPPORTED_VERSIONS.includes(asked) ? asked : LATEST_VERSION;
        return { result: { ...fixtures.initializeResult, protocolVersion } };
      }
      case 'ping':
        return { result: {} };
      case 'tools/list':
        return { result: { tools: fixtures.tools } };
      case 'tools/call': {
        const { name, arguments: args } = params;
        const argsOk = args === undefined || args === null || (typeof args === 'object' && !Array.isArray(args));
        if (typeof name !== 'string' || !argsOk) return invalidParams();
        return { result: answerToolCall(name, (args ?? {}) as Record<string, unknown>) };
      }
      case 'prompts/list':
        return { result: fixtures.promptsListResult };
      case 'prompts/get':
        if (params.name === 'Assist') return { result: fixtures.assistPromptResult };
        return { error: { code: 0, message: `Unknown prompt: ${String(params.name)}` } };
      case 'resources/list':
        return { result: fixtures.resourcesListResult };
      case 'resources/templates/list':
        return { result: { resourceTemplates: [] } };
      case 'resources/read': {
        const read = fixtures.resourceReads.get(String(params.uri));
        if (read) return { result: read };
        // HA serves the context snapshot since core PR #167396 (2026.5); the older fixture lists only
        // the exposed-entities resource of an unmerged branch, so the snapshot is answered from the
        // 2026.10 fixture's read, whose text is the same GetLiveContext output.
        if (fixtures.generation === 'pre-2026.9' && params.uri === CONTEXT_SNAPSHOT_URI) {
          return { result: haFixtures('2026.10').resourceReads.get(CONTEXT_SNAPSHOT_URI)! };
        }
        if (fixtures.generation === 'pre-2026.9' && params.uri === EXPOSED_ENTITIES_URI) {
          const text =
            "assistant: conversation\nentities:\n- entity_id: light.kitchen\n  names: Kitchen Light\n  domain: light\n  state: 'off'\n  areas: Kitchen\n";
          return { result: { contents: [{ uri: EXPOSED_ENTITIES_URI, mimeType: 'text/yaml', text }] } };
        }
        return { error: { code: 0, message: `Unknown resource: ${String(params.uri)}` } };
      }
      default:
        return invalidParams();
    }
  };
}

function invalidParams(): RpcOutcome {
  return { error: { code: -32602, message: 'Invalid request parameters', data: '' } };
}

/** One JSON-RPC message (request, notification or response); batches and junk are refused. */
function parseJsonRpc(record: RecordedRequest): (JsonRpcRequestLike | { jsonrpc: '2.0'; id: string | number }) | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(record.body);
  } catch {
    return undefined;
  }
  record.json = parsed;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const msg = parsed as Record<string, unknown>;
  if (msg.jsonrpc !== '2.0') return undefined;
  const idOk = msg.id === undefined || typeof msg.id === 'string' || typeof msg.id === 'number';
  if (!idOk) return undefined;
  if (typeof msg.method === 'string') {
    record.rpcMethod = msg.method;
    const paramsOk = msg.params === undefined || (typeof msg.params === 'object' && msg.params !== null);
    return paramsOk ? (msg as unknown as JsonRpcRequestLike) : undefined;
  }
  if (msg.id !== undefined && ('result' in msg || 'error' in msg)) return msg as { jsonrpc: '2.0'; id: string | number };
  return undefined;
}

function sendText(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  // aiohttp's web.json_response uses json.dumps defaults: ", "/": " separators, non-ASCII escaped.
  const body = pythonJsonDumps(value, { ensureAscii: true });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
