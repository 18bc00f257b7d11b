// Command line entry of the todo MCP server:
//   main.ts stdio                                  MCP over stdin/stdout
//   main.ts http [--port 3000] [--host 127.0.0.1]  Streamable HTTP at http://HOST:PORT/mcp
// Storage: DATABASE_URL (PostgreSQL) or TODO_DATA_DIR (embedded SQLite); see database.ts.
// Logs go to stderr only: on stdio, stdout carries the protocol.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { sqlClientFromEnv } from './database';
import { serveHttp } from './http-transport';
import { createTodoServer } from './server';
import { TodoRepository } from './todo-repository';

const USAGE = 'usage: main stdio | main http [--port N] [--host ADDRESS]';

function log(line: string): void {
  process.stderr.write(`todo server: ${line}\n`);
}

function option(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] !== undefined ? args[at + 1] : fallback;
}

async function main(argv: string[]): Promise<void> {
  const [mode, ...rest] = argv;
  if (mode !== 'stdio' && mode !== 'http') {
    log(USAGE);
    process.exit(2);
  }
  const repo = new TodoRepository(sqlClientFromEnv(process.env, log));
  const factory = () => createTodoServer(repo);
  let stopTransport: () => Promise<void> = async () => undefined;
  let stopping = false;
  // Closing the database cleanly ends SQLite's write-ahead log and pg's pool before the process goes.
  const shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`stopping (${why})`);
    await stopTransport().catch(() => undefined);
    await repo.close().catch((err: Error) => log(`closing the database failed: ${err.message}`));
    process.exit(0);
  };
  // Open the database now (and move a folder an earlier version kept in PGlite, which takes seconds)
  // so the first tool call does not wait for it. A failure is only logged; calls retry and answer database_error.
  repo.warmUp().then(
    () => log('database ready'),
    (err: Error) => log(`database not available yet: ${err.message}`),
  );
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (mode === 'stdio') {
    const handle = serveStdio(factory, { onerror: (err) => log(err.message) });
    stopTransport = () => handle.close();
    // The client closing our stdin is the stdio way of saying goodbye (MCP lifecycle, shutdown).
    process.stdin.on('end', () => void shutdown('stdin closed'));
    log(`serving MCP on stdio, storage: ${repo.description}`);
  } else {
    const port = Number(option(rest, '--port', '3000'));
    const host = option(rest, '--host', '127.0.0.1');
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      log(`invalid --port; ${USAGE}`);
      process.exit(2);
    }
    const endpoint = await serveHttp(factory, port, host);
    stopTransport = () => endpoint.close();
    // Tests and scripts read this line to learn the port when started with --port 0.
    log(`listening on ${endpoint.url}, storage: ${repo.description}`);
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  log(`failed to start: ${err.message}`);
  process.exit(1);
});
