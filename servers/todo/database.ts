// Picks the storage from the environment: a PostgreSQL server when DATABASE_URL is set, otherwise
// embedded SQLite in TODO_DATA_DIR, so the server runs with no setup at all. The default folder is
// under Node-RED's user dir (NODE_RED_USER_DIR, set by mcp-server for every stdio child), which the
// Home Assistant add-on persists in /config; run by hand it falls back to ~/.node-red-contrib-mcp-gemini.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSqliteClient } from './sqlite-client';
import type { SqlClient } from './sql-client';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NODE_RED_USER_DIR) return join(env.NODE_RED_USER_DIR, 'mcp-gemini', 'todo');
  return join(homedir(), '.node-red-contrib-mcp-gemini', 'todo');
}

/** The embedded database is a file in the folder; several todo servers may use it at once (sqlite-client.ts). */
export function sqlClientFromEnv(env: NodeJS.ProcessEnv = process.env, log?: (line: string) => void): SqlClient {
  if (env.DATABASE_URL) {
    // pg is loaded only for a PostgreSQL server: the embedded default does without its memory.
    const { createPgClient } = require('./pg-client') as typeof import('./pg-client');
    return createPgClient(env.DATABASE_URL);
  }
  return createSqliteClient(resolve(env.TODO_DATA_DIR || defaultDataDir(env)), log);
}
