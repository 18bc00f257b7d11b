// stdio MCP transport whose child runs in its own process group. The SDK's StdioClientTransport
// signals only the direct child, so servers started through `npx`, `uvx` or `sh -c` leave their
// real server orphaned (typescript-sdk#2023). Here close() ends stdin, then signals the whole
// group (SIGTERM, then SIGKILL), so nothing the node started outlives it.
// Reading is bounded: a stdout line (one message) may be at most `maxLineBytes`, collected in
// pieces and joined once when it ends (the SDK's ReadBuffer joins on every chunk, which a line that
// never ends turns quadratic); past the limit the server is stopped with ReplyTooLargeError. An
// stderr line is cut at 64 KB.
import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '../protocol/sdk';
import { childEnvironment, describeChildEnvironment } from './child-environment';
import { shorten } from '../../text';
import { DEFAULT_MAX_REPLY_MB, ReplyTooLargeError, bytesOfMB } from './reply-limit';

export interface ProcessGroupStdioOptions {
  command: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Pass Node-RED's whole environment, less its secrets (./child-environment.ts); else the SDK's short list. */
  inheritEnv?: boolean;
  /** Each stderr line of the child (servers log there). */
  onStderrLine?: (line: string) => void;
  /** How long to wait after closing stdin before signalling, and between SIGTERM and SIGKILL. */
  graceMs?: number;
  /** The longest stdout line (one JSON-RPC message) read; default the reply limit's default. */
  maxLineBytes?: number;
}

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private readonly readBuffer = new ReadBuffer();
  /** The stdout line still unfinished, in pieces. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Why this transport stopped its server itself (a reply past the limit). */
  private stoppedBecause?: string;
  private exited?: Promise<void>;
  private closing = false;
  private exit?: { code: number | null; signal: NodeJS.Signals | null; askedTo: boolean };
  /** The last stderr lines: what a server that dies says about why. */
  private readonly recentStderr: string[] = [];

  /** What the child was started with (names are reported in errors, values never). */
  private readonly childEnv: Record<string, string>;

  constructor(private readonly options: ProcessGroupStdioOptions) {
    this.childEnv = childEnvironment(options.env, options.inheritEnv === true);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupStdioTransport already started');
    return new Promise((resolve, reject) => {
      const { command, args = [], cwd } = this.options;
      const child = spawn(command, args, {
        cwd,
        env: this.childEnv,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32', // own process group: -pid reaches grandchildren
        windowsHide: true,
      });
      this.child = child;
      this.exited = new Promise((r) =>
        child.once('exit', (code, signal) => {
          this.exit = { code, signal, askedTo: this.closing };
          r();
        }),
      );
      child.once('error', (err: NodeJS.ErrnoException) => {
        const e: NodeJS.ErrnoException = new Error(`cannot start "${command}": ${err.code ?? err.message} (${this.environmentNote()})`, { cause: err });
        e.code = err.code;
        reject(e);
        this.onerror?.(e);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdout!.on('data', (chunk: Buffer) => this.fromStdout(chunk));
      child.stdout!.on('error', (err) => this.onerror?.(err));
      child.stdin!.on('error', (err) => {
        if (!this.closing) this.onerror?.(err);
      });
      let pending = '';
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (text: string) => {
        pending += text;
        if (pending.length > MAX_STDERR_LINE && !pending.includes('\n')) pending = pending.slice(0, MAX_STDERR_LINE) + '\n';
        let i: number;
        while ((i = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, i).replace(/\r$/, '');
          pending = pending.slice(i + 1);
          if (!line) continue;
          this.recentStderr.push(shorten(line, MAX_LINE));
          if (this.recentStderr.length > KEPT_LINES) this.recentStderr.shift();
          this.options.onStderrLine?.(line);
        }
      });
    });
  }

  /**
   * Why the server is gone, when it went by itself: `exited with code 1: Error: Cannot find module …`
   * (its last stderr lines), or undefined while it runs or after we closed it.
   */
  exitDescription(): string | undefined {
    if (this.stoppedBecause) return this.stoppedBecause;
    if (!this.exit || this.exit.askedTo) return undefined;
    const how = this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`;
    // Node and Python print a stack, code frames and a version footer around the one line that matters.
    const said = this.recentStderr.filter((l) => !/^\s+(at |File ")|^\s*[\^{}]?\s*$|^Node\.js v\d|^\s+\w+: .*,?$/.test(l));
    const errors = said.filter((l) => /error|exception|fatal|cannot|not found|denied|refused/i.test(l));
    const chosen = (errors.length ? errors : said).slice(-2);
    return chosen.length ? `${how}: ${chosen.join(' | ')} (${this.environmentNote()})` : `${how} (it wrote nothing on stderr; ${this.environmentNote()})`;
  }

  private environmentNote(): string {
    return describeChildEnvironment(this.childEnv, this.options.inheritEnv === true);
  }

  private fromStdout(chunk: Buffer): void {
    if (this.closing) return;
    const end = chunk.lastIndexOf(10);
    if (end === -1) {
      this.partialBytes += chunk.length;
      this.partial.push(chunk);
      if (this.partialBytes > (this.options.maxLineBytes ?? bytesOfMB(DEFAULT_MAX_REPLY_MB))) this.lineTooLong();
      return;
    }
    const lines = this.partial.length ? Buffer.concat([...this.partial, chunk.subarray(0, end + 1)]) : chunk.subarray(0, end + 1);
    const rest = chunk.subarray(end + 1);
    this.partial = rest.length ? [rest] : [];
    this.partialBytes = rest.length;
    this.readBuffer.append(lines);
    this.drain();
  }

  private lineTooLong(): void {
    this.partial = [];
    this.partialBytes = 0;
    const limit = this.options.maxLineBytes ?? bytesOfMB(DEFAULT_MAX_REPLY_MB);
    const error = new ReplyTooLargeError([this.options.command, ...(this.options.args ?? [])].join(' '), limit, 'reply');
    this.stoppedBecause = `was stopped: ${error.message.slice(error.message.indexOf(': ') + 2)}`;
    this.onerror?.(error);
    void this.close();
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (err) {
        this.onerror?.(err as Error); // a non-JSON stdout line: report and keep reading
        continue;
      }
      if (!message) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('stdio server is not running'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child || child.pid === undefined) return;
    const pid = child.pid;
    const grace = this.options.graceMs ?? 2000;
    child.stdin?.end();
    await Promise.race([this.exited, delay(Math.min(grace, 500))]);
    // Even when the direct child exited on EOF, members of its group (grandchildren) may remain.
    signalGroup(pid, 'SIGTERM');
    if (!(await waitGroupGone(pid, grace))) signalGroup(pid, 'SIGKILL');
    await waitGroupGone(pid, grace);
    this.readBuffer.clear();
  }
}

const KEPT_LINES = 20;
const MAX_LINE = 300;
const MAX_STDERR_LINE = 64 * 1024;

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    /* ESRCH: the group is already gone */
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGroupGone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!groupAlive(pid)) return true;
    await delay(25);
  }
  return !groupAlive(pid);
}

// Ref'd on purpose: an unref'd wait lets a process with nothing else to do exit mid-close, before the SIGKILL.
const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
