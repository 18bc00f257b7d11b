// Embedded SQLite (Node's built-in node:sqlite, nothing to install) in TODO_DATA_DIR/todos.sqlite:
// what runs when no DATABASE_URL is given. It replaced embedded PGlite, which took 700-830 MB while
// it started and idled at 300-450 MB; a todo list on a Raspberry Pi needs a few MB.
//
// Several todo servers may use one folder at once (two examples deployed together): SQLite's
// write-ahead log lets each process open the file, and a write waits up to BUSY_MS for another's.
//
// The repository writes PostgreSQL-style placeholders ($1, $2 …). SQLite reads "$1" as a named
// parameter numbered by first appearance, so they become "?1", "?2"; dates are bound as ISO text
// and lists as JSON text, which is how this dialect stores them (todo-repository.ts).
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { migratePgliteFolder } from './pglite-migration';
import type { SqlClient } from './sql-client';

export const SQLITE_FILE = 'todos.sqlite';
const BUSY_MS = 5000;

/**
 * node:sqlite, loaded without its "experimental" warning: Node 22 prints one on every start, and in
 * the log of every todo server it would read as a fault. Every other warning still prints.
 */
function loadSqlite(): typeof import('node:sqlite') {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    // loaded on first use, after the warning filter is in place
    return require('node:sqlite') as typeof import('node:sqlite');
  } catch (err) {
    throw new Error(`the embedded todo database needs Node.js 22 or later (node:sqlite); this is ${process.version}`, { cause: err });
  } finally {
    process.emitWarning = emit;
  }
}

const bind = (value: unknown): SQLInputValue => {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return JSON.stringify(value);
  return value as SQLInputValue;
};

export function createSqliteClient(dataDir: string, log: (line: string) => void = () => undefined): SqlClient {
  const file = join(dataDir, SQLITE_FILE);
  let db: Promise<DatabaseSync> | undefined;
  let closed = false;
  const open = (): Promise<DatabaseSync> => {
    if (closed) return Promise.reject(new Error('the todo database has been closed'));
    if (!db) {
      db = (async () => {
        const { DatabaseSync } = loadSqlite();
        mkdirSync(dataDir, { recursive: true });
        // A folder an earlier version kept in PGlite: its todos come along once.
        if (!existsSync(file) && existsSync(join(dataDir, 'PG_VERSION'))) await migratePgliteFolder(dataDir, file, log);
        if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600)); // the todos are the owner's only
        const opened = new DatabaseSync(file);
        opened.exec(`PRAGMA busy_timeout = ${BUSY_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL`);
        return opened;
      })();
      // A failed open (unwritable folder, a failed migration) is retried on the next call.
      db.catch(() => {
        db = undefined;
      });
    }
    return db;
  };
  return {
    description: `sqlite ${file}`,
    dialect: 'sqlite',
    async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
      const statement = (await open()).prepare(sql.replace(/\$(\d+)/g, '?$1'));
      return statement.all(...params.map(bind)) as Row[];
    },
    async close() {
      closed = true;
      const pending = db;
      db = undefined;
      (await pending?.catch(() => undefined))?.close();
    },
  };
}
