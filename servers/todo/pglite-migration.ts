// Moving a todo folder an earlier version kept in embedded PGlite to SQLite, once, on the first
// start that finds PGlite's files (PG_VERSION) and no todos.sqlite. PGlite is loaded for this only
// (it costs a few hundred MB while it runs). The todos are copied into a new file beside the
// PGlite files, which are left as they were: delete them once the list looks right.
//
// Two servers starting on one folder may both migrate: each writes its own temporary file and
// links it into place, which fails for the second, so the first copy wins and no todo written
// after it is overwritten.
import { linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SQLITE_SCHEMA } from './todo-repository';

const COLUMNS = ['todo_id', 'title', 'description', 'due_date', 'priority', 'status', 'tags', 'created_at', 'updated_at'] as const;

export async function migratePgliteFolder(dataDir: string, file: string, log: (line: string) => void): Promise<void> {
  log(`copying the todos of the PGlite folder ${dataDir} into ${file} (once)`);
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create(dataDir);
  let rows: Record<string, unknown>[];
  try {
    const exists = await pg.query<{ t: string | null }>(`SELECT to_regclass('public.todos')::text AS t`);
    rows = exists.rows[0]?.t ? (await pg.query<Record<string, unknown>>('SELECT * FROM todos ORDER BY created_at, todo_id')).rows : [];
  } finally {
    await pg.close();
  }
  const { DatabaseSync } = await import('node:sqlite');
  const temporary = join(dataDir, `.todos-${process.pid}-${Date.now()}.sqlite`);
  const db = new DatabaseSync(temporary);
  try {
    db.exec(SQLITE_SCHEMA);
    const insert = db.prepare(`INSERT INTO todos (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`);
    db.exec('BEGIN');
    for (const row of rows) insert.run(...COLUMNS.map((c) => sqliteValue(row[c])));
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  try {
    linkSync(temporary, file);
    log(`copied ${rows.length} todos; the PGlite files in ${dataDir} are no longer used and may be deleted`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(temporary, { force: true });
  }
}

function sqliteValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}
