// Todos in one table, through whichever SqlClient the server was started with: PostgreSQL (a server,
// through pg) or embedded SQLite. The statements are shared; where the two dialects differ (the
// schema, the clock, how a list of tags is stored and matched) the client's dialect decides. Every
// database failure leaves here as a DatabaseError so the tools can answer `database_error`.
import { randomBytes } from 'node:crypto';
import type { Priority, Status, TodoView } from './contract';
import { DatabaseError, type SqlClient } from './sql-client';

const POSTGRES_SCHEMA = `
CREATE TABLE IF NOT EXISTS todos (
  todo_id     text PRIMARY KEY,
  title       text NOT NULL,
  description text,
  due_date    timestamptz,
  priority    text NOT NULL DEFAULT 'medium' CHECK (priority IN ('low', 'medium', 'high')),
  status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed')),
  tags        text[] NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
)`;

/** The todos table in SQLite's dialect: dates as ISO text (they sort as they read), tags as a JSON list. */
export const SQLITE_SCHEMA = `
CREATE TABLE IF NOT EXISTS todos (
  todo_id     text PRIMARY KEY,
  title       text NOT NULL,
  description text,
  due_date    text,
  priority    text NOT NULL DEFAULT 'medium' CHECK (priority IN ('low', 'medium', 'high')),
  status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed')),
  tags        text NOT NULL DEFAULT '[]',
  created_at  text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at  text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
)`;

/** What differs between the dialects, as SQL. */
const DIALECTS = {
  postgres: { schema: POSTGRES_SCHEMA, now: 'now()', hasTags: (p: string) => `tags @> ${p}::text[]` },
  sqlite: {
    schema: SQLITE_SCHEMA,
    now: `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    // every wanted tag is among the todo's (both JSON lists)
    hasTags: (p: string) => `NOT EXISTS (SELECT 1 FROM json_each(${p}) AS wanted WHERE wanted.value NOT IN (SELECT value FROM json_each(todos.tags)))`,
  },
};

interface TodoRow {
  todo_id: string;
  title: string;
  description: string | null;
  due_date: Date | string | null;
  priority: Priority;
  status: Status;
  /** A list (PostgreSQL) or its JSON text (SQLite). */
  tags: string[] | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface NewTodo {
  title: string;
  description?: string;
  due_date?: Date;
  priority: Priority;
  tags: string[];
}

/** Fields update_todo may change, in the contract's order (which is the order of updated_fields). */
export const UPDATABLE_FIELDS = ['title', 'description', 'due_date', 'priority', 'status', 'tags'] as const;
export type TodoChanges = Partial<{
  title: string;
  description: string;
  due_date: Date;
  priority: Priority;
  status: Status;
  tags: string[];
}>;

export interface TodoFilter {
  status: Status | 'all';
  priority?: Priority;
  dueFrom?: Date;
  dueBefore?: Date;
  tags?: string[];
  limit: number;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

function toView(row: TodoRow): TodoView {
  return {
    todo_id: row.todo_id,
    title: row.title,
    description: row.description,
    due_date: iso(row.due_date),
    priority: row.priority,
    status: row.status,
    tags: typeof row.tags === 'string' ? (JSON.parse(row.tags) as string[]) : (row.tags ?? []),
    created_at: iso(row.created_at) as string,
    updated_at: iso(row.updated_at) as string,
  };
}

export class TodoRepository {
  private schemaReady: Promise<void> | undefined;

  private readonly dialect: (typeof DIALECTS)['postgres'];

  constructor(private readonly sql: SqlClient) {
    this.dialect = DIALECTS[sql.dialect ?? 'postgres'];
  }

  get description(): string {
    return this.sql.description;
  }

  async create(todo: NewTodo): Promise<TodoView> {
    const id = `todo_${randomBytes(6).toString('hex')}`;
    const rows = await this.run<TodoRow>(
      `INSERT INTO todos (todo_id, title, description, due_date, priority, tags)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [id, todo.title, todo.description ?? null, todo.due_date ?? null, todo.priority, todo.tags],
    );
    return toView(rows[0]);
  }

  async list(filter: TodoFilter): Promise<TodoView[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (filter.status !== 'all') where.push(`status = ${param(filter.status)}`);
    if (filter.priority) where.push(`priority = ${param(filter.priority)}`);
    if (filter.dueFrom) where.push(`due_date >= ${param(filter.dueFrom)}`);
    if (filter.dueBefore) where.push(`due_date < ${param(filter.dueBefore)}`);
    if (filter.tags && filter.tags.length > 0) where.push(this.dialect.hasTags(param(filter.tags)));
    const rows = await this.run<TodoRow>(
      `SELECT * FROM todos ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY due_date ASC NULLS LAST, created_at ASC, todo_id ASC LIMIT ${param(filter.limit)}`,
      params,
    );
    return rows.map(toView);
  }

  /** Returns the updated todo, or undefined when no todo has that id. */
  async update(id: string, changes: TodoChanges): Promise<TodoView | undefined> {
    const params: unknown[] = [id];
    const sets = UPDATABLE_FIELDS.filter((field) => changes[field] !== undefined).map((field) => `${field} = $${params.push(changes[field])}`);
    sets.push(`updated_at = ${this.dialect.now}`);
    const rows = await this.run<TodoRow>(`UPDATE todos SET ${sets.join(', ')} WHERE todo_id = $1 RETURNING *`, params);
    return rows[0] ? toView(rows[0]) : undefined;
  }

  /** Returns whether a todo with that id existed. */
  async delete(id: string): Promise<boolean> {
    const rows = await this.run<{ todo_id: string }>('DELETE FROM todos WHERE todo_id = $1 RETURNING todo_id', [id]);
    return rows.length > 0;
  }

  /** Opens the database and creates the table now rather than on the first call; throws DatabaseError. */
  async warmUp(): Promise<void> {
    await this.run('SELECT 1', []);
  }

  close(): Promise<void> {
    return this.sql.close();
  }

  private async run<Row>(statement: string, params: unknown[]): Promise<Row[]> {
    try {
      await this.ensureSchema();
      return await this.sql.query<Row>(statement, params);
    } catch (err) {
      if (err instanceof DatabaseError) throw err;
      // Some connection failures (AggregateError) carry an empty message: fall back to the code.
      const reason = (err as Error).message || (err as { code?: string }).code || String(err);
      throw new DatabaseError(`Database query failed: ${reason}`, { cause: err });
    }
  }

  // Created on first use rather than at start-up, so a server whose database is still down starts
  // anyway and recovers by itself once the database is back.
  private ensureSchema(): Promise<void> {
    if (!this.schemaReady) {
      this.schemaReady = this.sql.query(this.dialect.schema).then(() => undefined);
      this.schemaReady.catch(() => {
        this.schemaReady = undefined;
      });
    }
    return this.schemaReady;
  }
}
