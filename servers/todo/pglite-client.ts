// Embedded PostgreSQL (PGlite, WebAssembly) persisted in a directory: what runs when no
// DATABASE_URL is given, so the server works on a fresh machine with nothing installed.
// PGlite is a single-connection database; it queues queries itself, and one directory must be
// opened by one process at a time.
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { SqlClient } from './sql-client';

export function createPgliteClient(dataDir: string): SqlClient {
  let db: Promise<PGlite> | undefined;
  let closed = false;
  const open = (): Promise<PGlite> => {
    if (closed) return Promise.reject(new Error('the todo database has been closed'));
    if (!db) {
      db = (async () => {
        mkdirSync(dataDir, { recursive: true });
        return PGlite.create(dataDir);
      })();
      // A failed open (unwritable or corrupt directory) is retried on the next call.
      db.catch(() => {
        db = undefined;
      });
    }
    return db;
  };
  return {
    description: `pglite ${dataDir}`,
    async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
      const result = await (await open()).query<Row>(sql, params);
      return result.rows;
    },
    async close() {
      closed = true;
      const pending = db;
      db = undefined;
      if (pending) await (await pending.catch(() => undefined))?.close();
    },
  };
}
