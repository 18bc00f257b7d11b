// Picks the storage from the environment: a PostgreSQL server when DATABASE_URL is set, otherwise
// embedded PGlite in TODO_DATA_DIR, so the server runs with no setup at all. The default folder is
// under Node-RED's user dir (NODE_RED_USER_DIR, set by mcp-server for every stdio child), which the
// Home Assistant add-on persists in /config; run by hand it falls back to ~/.node-red-contrib-mcp-gemini.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createPgClient } from './pg-client';
import { createPgliteClient } from './pglite-client';
import type { SqlClient } from './sql-client';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NODE_RED_USER_DIR) return join(env.NODE_RED_USER_DIR, 'mcp-gemini', 'todo');
  return join(homedir(), '.node-red-contrib-mcp-gemini', 'todo');
}

export function sqlClientFromEnv(env: NodeJS.ProcessEnv = process.env): SqlClient {
  if (env.DATABASE_URL) return createPgClient(env.DATABASE_URL);
  return createPgliteClient(resolve(env.TODO_DATA_DIR || defaultDataDir(env)));
}
