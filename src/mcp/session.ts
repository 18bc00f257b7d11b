// One long-lived, self-healing MCP client session per server (stdio, Streamable HTTP, legacy SSE),
// shared by every node that points at the same mcp-server config node.
// - connects lazily on first use; concurrent first uses share one connect
// - Streamable HTTP falls back to HTTP+SSE when the first POST gets 400/404/405 (spec back-compat)
// - an expired session (404, or 400 naming the session) is re-initialized once and the request retried
// - after the server goes away it reconnects in the background, 1 s doubling to 30 s
// - the tool list is cached per session and refreshed on tools/list_changed and on reconnect
// - while nodes watch it, a probe (ping; server/discover on 2026-07-28) shows a dead server, but
//   never beside requests under way: they say it themselves, and a drop would cut them off
import { McpNodeError, errorMessage, rootCause } from '../errors';
import { connectionError, httpStatusOf, isConnectionLost, isSessionExpired, isTimeout, type ErrorContext } from './connection-errors';
import { listAllTools } from './lenient/list-all-tools';
import { formatWarning, type ListWarning } from './lenient/lenient-list';
import { recordLeniency } from './lenient/lenient-result';
import { schemaProblems } from './call/argument-validator';
import { readResponsesLeniently, takeWireFindings } from './lenient/lenient-wire';
import { Client, ProtocolError, SdkErrorCode, SUPPORTED_PROTOCOL_VERSIONS, type Implementation, type Tool } from './protocol/sdk';
import { describeEndpoint, type McpServerSettings } from './settings/settings';
import type { CallToolOptions, CallToolResult, ListToolsOptions, ListToolsResult, ProviderState, ServerIdentity, ToolProvider } from './call/tool-provider';
import { createTransport } from './transport-factory';
import { ProcessGroupStdioTransport } from './transport/process-group-stdio-transport';
import { watchStart } from './transport/package-runner';
import { CLIENT_INFO } from './settings/client-info';
import type { PromptsAndResources } from './prompts-resources';
import { SessionSkills, type SkillsReader } from './session-skills';
import { SessionFeatures } from './session-features';
import { InputRouter } from './call/input-requests';
import { CallClock } from './call/call-clock';
import { ToolCall } from './call/tool-call';
import { TASKS_EXTENSION } from '../task-words';
import { shorten } from '../text';

export interface SessionLogger {
  debug(message: string): void;
  warn(message: string): void;
  /** A stdio server's stderr lines: its own log, worth seeing in Node-RED's log by default. */
  info?(message: string): void;
}

const silentLogger: SessionLogger = { debug() {}, warn() {} };
const MIN_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30000;
/**
 * While nodes use a remote server, its state is probed this often (one `ping`, or a reconnect
 * attempt when it is down), and reconnects back off no further: a server that dies or comes back
 * shows on every node within seconds, at one request per interval per server.
 */
const PROBE_MS = 10_000;
/** Distinct lenient-reading warnings remembered so each is logged once per session. */
const MAX_REMEMBERED_WARNINGS = 1000;

interface ListedTools {
  tools: Tool[];
  pages: number;
  warnings: ListWarning[];
}

interface Connection {
  client: Client;
  /** Set for stdio: says how the child ended when it ends by itself. */
  process?: ProcessGroupStdioTransport;
  kind: 'http' | 'sse' | 'stdio';
  protocolVersion?: string;
  serverInfo?: Implementation;
  /** Requests under way on it: while any runs, they say whether it is alive, not a ping. */
  busy: number;
  /** Why we closed it while requests were under way (their "Connection closed" is ours, not the server's). */
  droppedBecause?: 'expired' | 'silent';
}

/** Test timing; nodes use the defaults. */
export interface SessionTiming {
  probeMs?: number;
}

export class McpSession implements ToolProvider {
  /** Prompts and resources on this session (src/mcp/session-features.ts). */
  readonly features: SessionFeatures;
  private readonly skills: SessionSkills;
  readonly where: string;
  private conn?: Connection;
  private connecting?: Promise<Connection>;
  private cached?: ListedTools;
  private listing?: Promise<ListedTools>;
  private readonly loggedWarnings = new Set<string>();
  /** Input requests (elicitation) go to the call that caused them (input-requests.ts). */
  private readonly inputs = new InputRouter();
  private current: ProviderState = { kind: 'idle' };
  private readonly listeners = new Set<(s: ProviderState) => void>();
  private closed = false;
  private disconnecting?: Promise<void>;
  private used = false;
  private backoffMs = MIN_BACKOFF_MS;
  private reconnectTimer?: NodeJS.Timeout;
  /** The transport of a start under way. */
  private opening?: { close(): Promise<void> };
  private refreshTimer?: NodeJS.Timeout;
  /** How the last stdio child ended by itself, for the errors of the calls it took with it. */
  private lastExit?: string;
  private lastFailure?: string;
  /** How many callers asked for the state to be kept fresh (watch()), and the probe's timer. */
  private watchers = 0;
  private probeTimer?: NodeJS.Timeout;
  /** A connection attempt the probe made: its failure shows on the status and goes to the debug log only. */
  private probing = false;

  private get probeMs(): number {
    return this.timing.probeMs ?? PROBE_MS;
  }

  constructor(
    readonly settings: McpServerSettings,
    private readonly log: SessionLogger = silentLogger,
    private readonly timing: SessionTiming = {},
  ) {
    this.where = describeEndpoint(settings);
    this.features = new SessionFeatures(this.where, (what, op, timeout) => this.run(what, op, timeout), settings.timeoutMs, {
      debug: (m) => log.debug(m),
      warnings: (w) => this.logWarnings(w),
    });
    this.skills = new SessionSkills((what, op, timeout) => this.run(what, op, timeout), settings.timeoutMs);
  }

  listSkills: SkillsReader['listSkills'] = (o) => this.skills.listSkills(o);
  readSkill: SkillsReader['readSkill'] = (skill, o) => this.skills.readSkill(skill, o);
  listPrompts: PromptsAndResources['listPrompts'] = (o) => this.features.listPrompts(o);
  getPrompt: PromptsAndResources['getPrompt'] = (name, args, o) => this.features.getPrompt(name, args, o);
  listResources: PromptsAndResources['listResources'] = (o) => this.features.listResources(o);
  listResourceTemplates: PromptsAndResources['listResourceTemplates'] = (o) => this.features.listResourceTemplates(o);
  readResource: PromptsAndResources['readResource'] = (uri, o) => this.features.readResource(uri, o);
  subscribeResource: PromptsAndResources['subscribeResource'] = (uri, onUpdate, o) => this.features.subscribeResource(uri, onUpdate, o);

  /** One request on the live session, with the reconnect and error rules of tools/call. */
  private async run<T>(what: string, op: (client: Client) => Promise<T>, timeoutMs: number): Promise<T> {
    try {
      return await this.withConnection((c) => op(c.client));
    } catch (err) {
      throw this.requestError(what, err, timeoutMs);
    }
  }

  identity(): ServerIdentity {
    const info = this.conn?.serverInfo;
    return {
      id: this.settings.id,
      name: this.settings.name || info?.name || this.where,
      protocolVersion: this.conn?.protocolVersion,
      serverInfo: info ? { name: info.name, version: info.version, title: (info as { title?: string }).title } : undefined,
    };
  }

  state(): ProviderState {
    return this.current;
  }

  onStateChange(listener: (s: ProviderState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The transport actually in use ("sse" after a Streamable HTTP fallback). */
  get activeTransport(): string | undefined {
    return this.conn?.kind;
  }

  async listTools(options: ListToolsOptions = {}): Promise<ListToolsResult> {
    const listed = !options.refresh && this.cached && this.conn ? this.cached : await this.refreshTools(options.timeoutMs);
    return { tools: [...listed.tools], pages: listed.pages, warnings: [...listed.warnings], server: this.identity() };
  }

  async findTool(name: string): Promise<Tool | undefined> {
    // Every call looks its tool up: read the cache itself rather than listTools()'s defensive copies.
    const listed = this.cached && this.conn ? this.cached : await this.refreshTools();
    return listed.tools.find((t) => t.name === name);
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<CallToolResult> {
    const timeout = options.timeoutMs ?? this.settings.timeoutMs;
    const call = new ToolCall(name, args, options, timeout, {
      listed: this.cached?.tools.find((t) => t.name === name),
      relist: async () => {
        this.cached = undefined;
        return (await this.refreshTools(timeout)).tools.find((t) => t.name === name);
      },
      inputs: this.inputs,
    });
    try {
      const { result, warnings, raw } = await this.withConnection((c) => call.on(c.client));
      warnings.push(...this.outputSchemaWarnings(name, result));
      // A result the SDK's schema would have rejected was repaired on the wire; keep the raw answer.
      recordLeniency(result, { raw, warnings });
      this.logWarnings(warnings);
      return result;
    } catch (err) {
      // The caller's controller is also ended by the call's clock (a timeout, reported as one below).
      if (options.signal?.aborted && !CallClock.ranOut(options.signal))
        throw new McpNodeError(`${this.where}: call to "${name}" cancelled`, 'cancelled', 'CANCELLED');
      throw this.requestError(`tools/call "${name}"`, err, timeout);
    } finally {
      call.end();
    }
  }

  /**
   * The SDK checks structuredContent against the tool's outputSchema only for tools it cached from
   * its own aggregate listTools(), which this session never uses (it pages itself), and would then
   * throw the whole result away. A mismatch is worth knowing, not worth losing the answer over.
   */
  private outputSchemaWarnings(name: string, result: CallToolResult): ListWarning[] {
    const outputSchema = this.cached?.tools.find((t) => t.name === name)?.outputSchema;
    if (!outputSchema || result.isError || result.structuredContent === undefined) return [];
    const problem = schemaProblems(outputSchema, result.structuredContent);
    return problem ? [{ tool: name, path: 'structuredContent', message: `does not match the tool's outputSchema (${problem}); delivered as sent` }] : [];
  }

  /** Every repair or omission of the lenient readers, once per session in the log. */
  private logWarnings(warnings: ListWarning[]): void {
    for (const w of warnings) {
      const line = formatWarning(w);
      if (this.loggedWarnings.has(line)) continue;
      if (this.loggedWarnings.size >= MAX_REMEMBERED_WARNINGS) this.loggedWarnings.clear();
      this.loggedWarnings.add(line);
      this.log.warn(`${this.where}: ${line}`);
    }
  }

  /**
   * Back to idle without closing for good: the connection (and a stdio child) ends, nothing
   * reconnects, and the next request opens a new session. Used when the last user node leaves,
   * as core's mqtt-broker disconnects when its last user deregisters.
   */
  /**
   * Keeps the state fresh while the returned function is not called: connects now (so nodes show
   * the server's state from deploy on, not from their first call), then every PROBE_MS pings a
   * live connection or lets the reconnect run. Only for servers over the network: a stdio server
   * starts at its first use, and its exit shows at once.
   */
  watch(): () => void {
    if (this.settings.transport !== 'http' && this.settings.transport !== 'sse') return () => undefined;
    if (++this.watchers === 1) this.probe();
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      if (--this.watchers === 0) clearTimeout(this.probeTimer);
    };
  }

  private probe(): void {
    clearTimeout(this.probeTimer);
    if (this.closed || this.watchers === 0) return;
    const next = () => {
      this.probeTimer = setTimeout(() => this.probe(), this.probeMs);
      this.probeTimer.unref?.();
    };
    const conn = this.conn;
    if (!conn) {
      if (this.connecting || this.reconnectTimer) return next();
      this.used = true;
      this.probing = true;
      this.refreshTools()
        .catch(() => undefined) // the state says it; the reconnect is scheduled
        .finally(() => {
          this.probing = false;
          next();
        });
      return;
    }
    // Requests under way prove the connection (or fail with its cause) themselves; a ping beside
    // them only adds a second verdict, and dropping the connection on it would cut them off.
    if (conn.busy > 0) return next();
    // The 2026-07-28 revision has no ping (the SDK refuses to send one); server/discover is its
    // cheapest request, and answers the same question.
    const options = { timeout: Math.min(5000, this.settings.timeoutMs) };
    const modern = (conn.protocolVersion ?? '') >= '2026';
    (modern ? conn.client.discover(options) : conn.client.ping(options))
      .catch((err: unknown) => {
        // An error answer is still an answer: only silence or a broken connection means it is gone.
        if (err instanceof ProtocolError || conn !== this.conn || conn.busy > 0) return;
        this.log.debug(`${this.where}: ping failed: ${errorMessage(err)}`);
        this.drop(conn, 'silent');
        this.setState({ kind: 'error', reason: connectionError(this.where, err, this.settings.timeoutMs, this.errorContext()).status });
        this.scheduleReconnect();
      })
      .finally(next);
  }

  async disconnect(): Promise<void> {
    if (this.closed) return;
    this.used = false;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    clearTimeout(this.refreshTimer);
    const ending = (async () => {
      const conn = this.conn ?? (await this.connecting?.catch(() => undefined));
      this.conn = undefined;
      this.cached = undefined;
      if (conn) await closeQuietly(conn);
      this.setState({ kind: 'idle' });
    })();
    this.disconnecting = ending.finally(() => {
      if (this.disconnecting === ending) this.disconnecting = undefined;
    });
    return ending;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.probeTimer);
    // A server still starting (a runner downloading it) is stopped now: Node-RED gives a node 15 s to close.
    await this.opening?.close().catch(() => undefined);
    await this.disconnecting; // a disconnect still killing its stdio group finishes first
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.refreshTimer);
    const conn = this.conn ?? (await this.connecting?.catch(() => undefined));
    this.conn = undefined;
    if (conn) await closeQuietly(conn);
    this.setState({ kind: 'idle' });
  }

  // ---- connection management -------------------------------------------------------------

  private async refreshTools(timeoutMs?: number): Promise<ListedTools> {
    if (!this.listing) {
      const timeout = timeoutMs ?? this.settings.timeoutMs;
      this.listing = this.withConnection((c) =>
        listAllTools(async (cursor) => {
          // Each page was read leniently on the wire (lenient-wire.ts) before the SDK validated it.
          const page = (await c.client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, { timeout })) as {
            tools: Tool[];
            nextCursor?: string;
          };
          return { items: page.tools, nextCursor: page.nextCursor, warnings: takeWireFindings(page).warnings };
        }, this.where),
      )
        .then((listed) => {
          this.logWarnings(listed.warnings);
          this.cached = listed;
          this.setState({ kind: 'ready', toolCount: listed.tools.length });
          return listed;
        })
        .catch((err) => {
          const e = this.requestError('tools/list', err, timeout);
          this.setState({ kind: 'error', reason: e.status });
          throw e;
        })
        .finally(() => {
          this.listing = undefined;
        });
    }
    return this.listing;
  }

  /** Runs `op` on the live connection; an expired or refused session is re-opened once and retried. */
  private async withConnection<T>(op: (c: Connection) => Promise<T>): Promise<T> {
    const conn = await this.connection();
    try {
      return await counted(conn, op);
    } catch (err) {
      if (!this.worthReconnecting(conn, err)) throw err;
      // Concurrent requests on the same expired session each land here; only the first one logs.
      if (conn === this.conn) this.log.debug(`${this.where}: session lost (${errorMessage(err)}); re-initializing once`);
      this.drop(conn, 'expired');
      return counted(await this.connection(), op);
    }
  }

  /** Retry only where the request cannot have run: expired session, refused connection, no transport. */
  private worthReconnecting(conn: Connection, err: unknown): boolean {
    if (this.closed) return false;
    if (conn.kind !== 'stdio' && isSessionExpired(err)) return true;
    // Another request found the session expired and closed it under this one: that request was
    // sent on a session the server no longer had, so it cannot have run either.
    if (conn.droppedBecause === 'expired' && (err as { code?: unknown })?.code === SdkErrorCode.ConnectionClosed) return true;
    if (rootCause(err) === 'ECONNREFUSED') return true;
    return (err as { code?: unknown })?.code === SdkErrorCode.NotConnected;
  }

  private connection(): Promise<Connection> {
    if (this.closed) return Promise.reject(new McpNodeError(`${this.where}: the server config node was closed`, 'closed', 'CLOSED'));
    if (this.conn) return Promise.resolve(this.conn);
    if (!this.connecting) {
      this.used = true;
      this.setState({ kind: 'connecting' });
      this.connecting = this.open()
        .then(async (conn) => {
          if (this.closed) {
            await closeQuietly(conn);
            throw new McpNodeError(`${this.where}: the server config node was closed`, 'closed', 'CLOSED');
          }
          this.conn = conn;
          this.backoffMs = MIN_BACKOFF_MS;
          this.lastFailure = undefined;
          this.lastExit = undefined;
          this.cached = undefined;
          await this.features.resubscribe(conn.client);
          this.setState({ kind: 'connecting' });
          return conn;
        })
        .catch((err) => {
          const e = connectionError(this.where, err, this.settings.timeoutMs, this.errorContext());
          this.setState({ kind: 'error', reason: e.status });
          const wait = this.scheduleReconnect();
          // One line per failed attempt at most, and only when the reason changed: a server that
          // stays down for a day must not fill the log.
          if (wait !== undefined) {
            const line = `${e.message}; retrying in ${Math.round(wait / 1000)} s`;
            if (e.message !== this.lastFailure && !this.probing) this.log.warn(line);
            else this.log.debug(line);
          }
          this.lastFailure = e.message;
          throw e;
        })
        .finally(() => {
          this.connecting = undefined;
        });
    }
    return this.connecting;
  }

  private async open(): Promise<Connection> {
    const kind = this.settings.transport;
    if (kind === 'esp32') throw new Error('esp32 servers are served by the esp32-mcp-in node, not by McpSession');
    if (kind !== 'http') return this.openWith(kind);
    try {
      return await this.openWith('http');
    } catch (err) {
      const status = httpStatusOf(err);
      if (status !== 400 && status !== 404 && status !== 405) throw err;
      this.log.debug(`${this.where}: Streamable HTTP answered ${status}; trying legacy HTTP+SSE`);
      try {
        return await this.openWith('sse');
      } catch {
        throw err; // the Streamable HTTP failure says more than the fallback's
      }
    }
  }

  private async openWith(kind: 'http' | 'sse' | 'stdio'): Promise<Connection> {
    // stderr is held back until the server speaks MCP: a server that dies at start prints a stack
    // every retry, and its gist goes into the one error line instead (exitDescription).
    let held: string[] | undefined = [];
    const logStderr = (line: string) => (this.log.info ?? this.log.debug)(`[${this.settings.name || this.settings.command}] ${line}`);
    const transport = createTransport(this.settings, kind, {
      onStderrLine: (line) => {
        if (!held) logStderr(line);
        else if (held.length < 50) held.push(line);
      },
    });
    // Elicitation is offered in both modes: a call's node turns a request into a message and waits
    // for the flow's answer; a request no call can answer is declined (input-requests.ts).
    const client = new Client(CLIENT_INFO, {
      capabilities: CLIENT_CAPABILITIES,
      ...versionOptions(this.settings.protocolVersion),
    });
    client.setRequestHandler('elicitation/create', async (request) => ({ ...(await this.inputs.answer(request.params)) }));
    readResponsesLeniently(transport, {
      modernEra: () => (client.getNegotiatedProtocolVersion() ?? '') >= '2026',
    });
    const conn: Connection = { client, kind, busy: 0, process: transport instanceof ProcessGroupStdioTransport ? transport : undefined };
    client.setNotificationHandler('notifications/tools/list_changed', () => this.onToolsChanged(conn));
    client.setNotificationHandler('notifications/resources/updated', (n) => this.features.dispatch(n.params));
    client.onerror = (err) => this.log.debug(`${this.where}: ${errorMessage(err)}`);
    client.onclose = () => this.onClosed(conn);
    // A package runner's first start may download the server for minutes (./transport/package-runner.ts).
    const start = watchStart(kind === 'stdio' ? this.settings.command : undefined, this.settings.args, this.settings.timeoutMs, (runner) => {
      this.setState({ kind: 'connecting', note: `${runner} may be downloading the server` });
      (this.log.info ?? this.log.warn)(
        `${this.where}: ${runner} has not started the server after 5 s; a first start downloads it, which may take minutes: waiting up to 5 min`,
      );
    });
    this.opening = transport; // close() ends a start still under way at once
    try {
      await client.connect(transport, { timeout: start.timeoutMs });
      start.started();
    } catch (err) {
      const exit = conn.process?.exitDescription();
      await client.close().catch(() => undefined);
      if (this.closed) throw new McpNodeError(`${this.where}: the server config node was closed while the server was starting`, 'closed', 'CLOSED');
      if (exit) throw new McpNodeError(`${this.where}: ${exit}`, exitStatus(exit), 'SERVER_EXITED');
      if (start.runner && isTimeout(err))
        throw new McpNodeError(`${this.where}: ${start.runner} did not start the server within ${start.timeoutMs / 60_000} min`, 'start timed out', 'TIMEOUT');
      throw err;
    } finally {
      start.stop();
      this.opening = undefined;
    }
    for (const line of held) logStderr(line);
    held = undefined;
    conn.protocolVersion = client.getNegotiatedProtocolVersion();
    conn.serverInfo = client.getServerVersion();
    return conn;
  }

  private onToolsChanged(conn: Connection): void {
    if (conn !== this.conn) return;
    this.cached = undefined;
    // Servers often send a burst (server-everything: several at startup); refresh once after it.
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTools().catch((err) => this.log.debug(`${this.where}: tool refresh failed: ${errorMessage(err)}`));
    }, 100);
    this.refreshTimer.unref?.();
  }

  private onClosed(conn: Connection): void {
    if (conn !== this.conn) return;
    this.conn = undefined;
    this.cached = undefined;
    if (this.closed) return;
    this.lastExit = conn.process?.exitDescription();
    this.log.warn(`${this.where}: ${this.lastExit ?? 'connection closed'}; reconnecting`);
    this.setState({ kind: 'error', reason: 'disconnected' });
    this.scheduleReconnect();
  }

  private drop(conn: Connection, why: 'expired' | 'silent'): void {
    if (conn.droppedBecause) return;
    conn.droppedBecause = why;
    if (this.conn === conn) this.conn = undefined;
    this.cached = undefined;
    void closeQuietly(conn);
  }

  /** The wait before the next attempt, or undefined when none was scheduled now. */
  private scheduleReconnect(): number | undefined {
    if (this.closed || !this.used || this.reconnectTimer) return undefined;
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.watchers > 0 ? this.probeMs : MAX_BACKOFF_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed || this.conn) return;
      this.refreshTools().catch(() => undefined); // connection() reschedules on failure
    }, wait);
    this.reconnectTimer.unref?.();
    return wait;
  }

  private requestError(what: string, err: unknown, timeoutMs: number): McpNodeError {
    if (err instanceof McpNodeError) return err;
    if (this.lastExit && !this.conn && isConnectionLost(err)) {
      return new McpNodeError(`${this.where}: ${what} failed: the server ${this.lastExit}`, exitStatus(this.lastExit), 'SERVER_EXITED');
    }
    if (err instanceof ProtocolError) {
      return new McpNodeError(`${this.where}: ${what} failed: ${errorMessage(err)}`, shortReason(errorMessage(err)), 'PROTOCOL_ERROR', {
        code: (err as { code?: unknown }).code,
      });
    }
    return connectionError(this.where, err, timeoutMs, this.errorContext());
  }

  private errorContext(): ErrorContext {
    return { transport: this.settings.transport, command: this.settings.command, cwd: this.settings.cwd };
  }

  private setState(s: ProviderState): void {
    this.current = s;
    for (const l of this.listeners) l(s);
  }
}

/** "auto" probes server/discover and falls back to initialize; a pinned 2025-era revision is offered alone. */
function versionOptions(pinned: string): Record<string, unknown> {
  if (!pinned || pinned === 'auto') return { versionNegotiation: { mode: 'auto' } };
  if ((SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(pinned) && pinned < '2026') {
    return { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [pinned] };
  }
  return { versionNegotiation: { mode: { pin: pinned } } };
}

/**
 * What every session offers a server. Elicitation, in both modes: a call's node turns a request into a
 * message and waits for the flow's answer. The tasks extension (2026-07-28): a server may then answer
 * a long call with a task, which tool-call.ts follows. On 2026-07-28 these travel with every request.
 */
export const CLIENT_CAPABILITIES = { elicitation: { form: {}, url: {} }, extensions: { [TASKS_EXTENSION]: {} } };

async function counted<T>(conn: Connection, op: (c: Connection) => Promise<T>): Promise<T> {
  conn.busy++;
  try {
    return await op(conn);
  } finally {
    conn.busy--;
  }
}

async function closeQuietly(conn: Connection): Promise<void> {
  try {
    await conn.client.close();
  } catch {
    /* already gone */
  }
}

/** The red ring's text: "exited with code 1: Error: Cannot find module '/x…", clipped to fit a status. */
function exitStatus(exit: string): string {
  const short = exit.replace(/^was /, '').replace(/ \(it wrote nothing on stderr\)$/, '');
  return shorten(short, 64);
}

function shortReason(s: string): string {
  const m = s.replace(/^MCP error -?\d+:\s*/, '');
  return shorten(m, 32);
}
