// Starts the real todo server as its own process (as a user or Node-RED would) and connects the
// real MCP client to it, over stdio or over Streamable HTTP on a free 127.0.0.1 port.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export const REPO_ROOT = join(__dirname, '..', '..');
export const TODO_MAIN_TS = join(REPO_ROOT, 'servers', 'todo', 'main.ts');
export const TODO_MAIN_DIST = join(REPO_ROOT, 'dist', 'servers', 'todo', 'main.js');

export type TransportKind = 'stdio' | 'http';

/** A new, empty folder for the embedded database (the caller removes it). */
export const emptyTodoFolder = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

/** Storage settings handed to the server process: DATABASE_URL or TODO_DATA_DIR. */
export type StorageEnv = { DATABASE_URL: string } | { TODO_DATA_DIR: string };

export interface RunningTodoServer {
  client: Client;
  /** The server's stderr so far (its log lines). */
  log(): string;
  /** Stops like a user would: the client closes, the process gets to close its database. */
  stop(): Promise<void>;
  /** HTTP only: the endpoint URL. */
  url?: string;
}

function serverEnv(storage: StorageEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && k !== 'DATABASE_URL' && k !== 'TODO_DATA_DIR') env[k] = v;
  }
  return { ...env, ...storage };
}

function commandFor(entry: string): { command: string; args: string[] } {
  return entry.endsWith('.ts') ? { command: process.execPath, args: ['--import', 'tsx', entry] } : { command: process.execPath, args: [entry] };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function processGone(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`todo server process ${pid} did not exit`);
}

async function startStdio(storage: StorageEnv, entry: string, client: Client): Promise<RunningTodoServer> {
  const { command, args } = commandFor(entry);
  const transport = new StdioClientTransport({
    command,
    args: [...args, 'stdio'],
    env: serverEnv(storage),
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await client.connect(transport);
  return {
    client,
    log: () => log,
    // The SDK client closes stdin, waits, then signals: the server closes its database on stdin EOF.
    async stop() {
      const pid = transport.pid;
      await client.close();
      if (pid) await processGone(pid);
    },
  };
}

async function startHttp(storage: StorageEnv, entry: string, client: Client): Promise<RunningTodoServer> {
  const { command, args } = commandFor(entry);
  const child = spawn(command, [...args, 'http', '--port', '0', '--host', '127.0.0.1'], {
    env: serverEnv(storage),
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const found = /listening on (http:\/\/\S+\/mcp)/.exec(log);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`todo server exited (${code}) before listening:\n${log}`)));
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    client,
    url,
    log: () => log,
    async stop() {
      await client.close();
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

export interface StartOptions {
  /** The server's entry point: the TypeScript source (default) or the compiled dist/ file. */
  entry?: string;
  /** The client's protocol era: 'legacy' (initialize, the SDK default) or a pinned modern revision. */
  versionNegotiation?: ClientOptions['versionNegotiation'];
}

export function startTodoServer(kind: TransportKind, storage: StorageEnv, options: StartOptions = {}): Promise<RunningTodoServer> {
  const entry = options.entry ?? TODO_MAIN_TS;
  const client = new Client(
    { name: 'todo-contract-test', version: '1.0.0' },
    options.versionNegotiation ? { versionNegotiation: options.versionNegotiation } : undefined,
  );
  return kind === 'stdio' ? startStdio(storage, entry, client) : startHttp(storage, entry, client);
}

/** The JSON object a todo tool answered with (the structured content, checked against the text). */
export function outcomeOf(result: CallToolResult): Record<string, any> {
  const text = result.content.find((c) => c.type === 'text');
  if (!text || text.type !== 'text') throw new Error(`no text content in ${JSON.stringify(result)}`);
  const parsed = JSON.parse(text.text);
  if (JSON.stringify(parsed) !== JSON.stringify(result.structuredContent)) {
    throw new Error(`text and structuredContent differ: ${text.text} vs ${JSON.stringify(result.structuredContent)}`);
  }
  return parsed;
}
