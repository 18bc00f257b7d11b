// Picks the storage from the environment: a PostgreSQL server when DATABASE_URL is set, otherwise
// embedded PGlite in TODO_DATA_DIR (default ~/.node-red-contrib-mcp-gemini/todo), so the server
// runs with no setup at all.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createPgClient } from './pg-client';
import { createPgliteClient } from './pglite-client';
import type { SqlClient } from './sql-client';

export function defaultDataDir(): string {
  return join(homedir(), '.node-red-contrib-mcp-gemini', 'todo');
}

export function sqlClientFromEnv(env: NodeJS.ProcessEnv = process.env): SqlClient {
  if (env.DATABASE_URL) return createPgClient(env.DATABASE_URL);
  return createPgliteClient(resolve(env.TODO_DATA_DIR || defaultDataDir()));
}
