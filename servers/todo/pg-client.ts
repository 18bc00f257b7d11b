// A real PostgreSQL server reached through `pg`, used whenever DATABASE_URL is set. The pool
// connects lazily, so the todo server starts even while the database is down and answers
// `database_error` until it is reachable again.
import { Pool } from 'pg';
import type { SqlClient } from './sql-client';

export function createPgClient(connectionString: string): SqlClient {
  const pool = new Pool({ connectionString, max: 4, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server (restart, network) emits here; without a listener the
  // whole process would die on an 'error' event nobody handles.
  pool.on('error', (err) => process.stderr.write(`todo server: idle PostgreSQL connection lost: ${err.message}\n`));
  return {
    description: 'postgres',
    async query<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
      const result = await pool.query(sql, params);
      return result.rows as Row[];
    },
    close: () => pool.end(),
  };
}
