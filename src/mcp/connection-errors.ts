// Turns what the SDK, fetch and spawn throw into errors that name the server and the cause
// ("ECONNREFUSED", "401 Unauthorized", "spawn ENOENT"), and recognises an expired session.
import { McpNodeError, errorMessage, rootCause } from '../errors';
import { SdkError, SdkErrorCode, SdkHttpError } from './protocol/sdk';
import { isAbsolute, resolve } from 'node:path';
import { shorten } from '../text';

export function httpStatusOf(err: unknown): number | undefined {
  if (err instanceof SdkHttpError) return err.status;
  const e = err as { status?: unknown; code?: unknown; data?: { status?: unknown } };
  if (typeof e?.data?.status === 'number') return e.data.status;
  if (typeof e?.status === 'number') return e.status;
  // The SSE transport's GET failure carries the status only in its text.
  const sse = /SSE error: Non-200 status code \((\d{3})\)/.exec(errorMessage(err));
  return sse ? Number(sse[1]) : undefined;
}

/**
 * An expired session: the spec says 404; server-everything and others answer 400 naming the
 * session ("Bad Request: No valid session ID provided"). Only meaningful when a session id was sent.
 */
export function isSessionExpired(err: unknown): boolean {
  const status = httpStatusOf(err);
  if (status === 404) return true;
  if (status === 400 && /session/i.test(errorMessage(err))) return true;
  return false;
}

const LOST_CONNECTION_CODES: ReadonlySet<SdkErrorCode> = new Set([SdkErrorCode.ConnectionClosed, SdkErrorCode.NotConnected, SdkErrorCode.SendFailed]);

/** The server vanished under us (connection refused/reset, transport closed). */
export function isConnectionLost(err: unknown): boolean {
  const cause = rootCause(err);
  if (/^E(CONNREFUSED|CONNRESET|PIPE|HOSTUNREACH|NETUNREACH|AI_AGAIN|NOTFOUND)$/.test(cause)) return true;
  if (err instanceof SdkError && LOST_CONNECTION_CODES.has(err.code)) return true;
  return /fetch failed|socket hang up|other side closed|terminated/i.test(errorMessage(err));
}

export function isTimeout(err: unknown): boolean {
  return (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) || /timed out/i.test(errorMessage(err));
}

/** Describe a failure to reach or talk to `where` in one sentence a person can act on. */
/** What the error is about: the transport, and for stdio the command and the folder it starts in. */
export interface ErrorContext {
  transport?: string;
  command?: string;
  cwd?: string;
}

export function connectionError(where: string, err: unknown, timeoutMs: number, context: ErrorContext = {}): McpNodeError {
  const { transport } = context;
  if (err instanceof McpNodeError) return err;
  const status = httpStatusOf(err);
  if (status === 401 || status === 403) {
    const text = status === 401 ? '401 Unauthorized' : '403 Forbidden';
    const advice = status === 401 && HOME_ASSISTANT_MCP.test(where) ? HOME_ASSISTANT_401 : 'check the access token';
    return new McpNodeError(`${where}: ${text} (${advice})`, text, 'UNAUTHORIZED', { status });
  }
  if (status !== undefined) {
    const advice = httpAdvice(where, status, transport);
    const said = withoutHtml(errorMessage(err));
    return new McpNodeError(`${where}: HTTP ${status}${advice ? ` (${advice})` : ''}${said ? `: ${shorten(said, 300)}` : ''}`, `HTTP ${status}`, 'HTTP_ERROR', {
      status,
    });
  }
  if (isTimeout(err)) {
    return new McpNodeError(`${where}: no answer within ${+(timeoutMs / 1000).toFixed(3)} s (request timed out)`, 'timeout', 'TIMEOUT');
  }
  const cause = rootCause(err);
  const code = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(cause) ? cause : undefined;
  if (code === 'ENOENT') return new McpNodeError(`${where}: spawn ENOENT (${commandNotFound(context)})`, 'spawn ENOENT', code);
  if ((code === 'ENOTFOUND' || code === 'EAI_AGAIN') && ADDON_URL.test(where) && !process.env.SUPERVISOR_TOKEN) {
    return new McpNodeError(`${where}: ${NOT_THE_ADDON}`, 'not the add-on', code, { cause: code });
  }
  if (WRONG_TLS.test(`${cause} ${causeMessage(err)}`)) {
    return new McpNodeError(`${where}: ${PLAIN_HTTP}`, 'https to an http server', 'TLS_MISMATCH', { cause });
  }
  if (code) {
    // What the code means and what to do, once. The SDK's and fetch's own wording ("Version
    // negotiation probe failed: fetch failed") says nothing more to a person, so it is left out
    // where the code is one we can explain; for others it is kept as the only detail there is.
    if (ADVICE[code]) return new McpNodeError(`${where}: ${code}: ${ADVICE[code]}`, STATUS[code] ?? code, code, { cause: code });
    const said = [errorMessage(err), causeMessage(err)].filter((m) => m && m !== code && !m.includes(code)).join(': ');
    return new McpNodeError(`${where}: ${code}${said ? ` (${said})` : ''}`, code, code, { cause: code });
  }
  return new McpNodeError(`${where}: ${errorMessage(err)}`, shorten(errorMessage(err), 32), 'CONNECTION_ERROR');
}

// Home Assistant answers a non-administrator's valid token exactly as a wrong one (401, same body):
// entries of its MCP Server integration made since 2026.10 have "Require an administrator account"
// on. Both causes are named, since the answer cannot tell them apart.
const HOME_ASSISTANT_MCP = /\/api\/mcp(?:\/[A-Za-z0-9_-]+)?\/?(?:[?#]|$)/;
const HOME_ASSISTANT_401 =
  "check the access token; since Home Assistant 2026.10 a new Model Context Protocol Server entry also needs an administrator's token " +
  "(or its option 'Require an administrator account' turned off)";

// The add-on preset's address exists only inside the Home Assistant add-on, where the Supervisor
// also sets SUPERVISOR_TOKEN: without it, "host not found" is the wrong advice.
const ADDON_URL = /^https?:\/\/supervisor\//;
const NOT_THE_ADDON =
  'Node-RED is not running as the Home Assistant add-on (there is no SUPERVISOR_TOKEN), so the add-on address http://supervisor/… does not exist here: use the "Home Assistant URL" preset with your Home Assistant\'s address and a long-lived access token';
// https:// to a server that speaks plain HTTP: OpenSSL reads the HTTP answer as a TLS record.
const WRONG_TLS = /WRONG_VERSION_NUMBER|wrong version number|EPROTO|packet length too long/i;
const PLAIN_HTTP = 'the server answered in plain HTTP, not HTTPS: use http:// in the URL (or the https port of a proxy in front of it)';

/** Where a command that was not found was looked for. */
function commandNotFound({ command, cwd }: ErrorContext): string {
  if (!command) return 'command not found';
  if (isAbsolute(command)) return `${command} does not exist`;
  if (/[\\/]/.test(command)) {
    const base = cwd || process.cwd();
    return `command not found: ${command} was looked up relative to ${base} (${cwd ? 'the Working dir' : "Node-RED's own folder, as Working dir is blank"}), that is ${resolve(base, command)}: give an absolute path or set Working dir`;
  }
  return `command not found: "${command}" is in none of the folders of the PATH the server gets; give its absolute path, or add its folder to PATH under Environment`;
}

/** What a status means for this server, in a few words a person can act on. */
function httpAdvice(where: string, status: number, transport?: string): string | undefined {
  // Since 2026.8 Home Assistant serves one LLM API at /api/mcp/<API id> and answers 404 for an id it has not.
  const api = /\/api\/mcp\/([A-Za-z0-9_-]+)\/?(?:[?#]|$)/.exec(where)?.[1];
  if (status === 404 && api)
    return `Home Assistant has no LLM API "${api}" (or no Model Context Protocol Server integration): /api/mcp/<API id> serves one LLM API ("assist" is Assist's id; other APIs need an administrator's token), and /api/mcp serves the APIs chosen in the integration's options`;
  if (status === 404 && HOME_ASSISTANT_MCP.test(where))
    return 'Home Assistant serves no MCP here: add the "Model Context Protocol Server" integration (Settings → Devices & services), and check that the URL ends in /api/mcp';
  if ((status === 404 || status === 405) && transport === 'sse')
    return 'no HTTP+SSE endpoint at this URL: if the server speaks Streamable HTTP (most do today), choose the Streamable HTTP transport';
  if (status === 404) return "nothing at this path: check the URL's path";
  return undefined;
}

/** A server's error page is HTML: a person needs its title or first words, not the markup. */
function withoutHtml(text: string): string {
  if (!/<(!doctype|html|head|body|title|h1|pre)\b/i.test(text)) return text;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1] ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(text)?.[1];
  if (/plain HTTP request was sent to HTTPS port/i.test(text)) return 'the server expects HTTPS: use https:// in the URL';
  return (title ?? text.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}

/** The red ring's few words for each code (the message has the whole sentence). */
const STATUS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNRESET: 'connection cut',
  EPIPE: 'connection cut',
  UND_ERR_SOCKET: 'connection cut',
  UND_ERR_CLOSED: 'connection cut',
  ETIMEDOUT: 'host unreachable',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'host unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'host unreachable',
};

const REACH = 'the host cannot be reached: check the network and the URL';
const CUT = "the server closed the connection during the request: check the server's log (the session reconnects by itself)";
const ADVICE: Record<string, string> = {
  ECONNREFUSED: 'nothing listens at that address: start the server or correct the URL',
  ENOTFOUND: "the host name does not resolve: check the URL's host name and DNS",
  EAI_AGAIN: "the host name does not resolve right now (DNS): check the URL's host name and DNS",
  ECONNRESET: CUT,
  EPIPE: CUT,
  UND_ERR_SOCKET: CUT,
  UND_ERR_CLOSED: CUT,
  ETIMEDOUT: REACH,
  EHOSTUNREACH: REACH,
  ENETUNREACH: REACH,
  UND_ERR_CONNECT_TIMEOUT: REACH,
};

/** The innermost cause's own text ("other side closed", "getaddrinfo ENOTFOUND x.invalid"). */
function causeMessage(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 5 && (e as { cause?: unknown } | undefined)?.cause; i++) e = (e as { cause: unknown }).cause;
  return e && e !== err ? errorMessage(e) : '';
}
