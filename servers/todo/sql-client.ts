// The little the repository needs from a database connection: PostgreSQL (through pg) or embedded
// SQLite. The repository writes PostgreSQL-style placeholders ($1 …) and asks the dialect for the rest.
export interface SqlClient {
  /** A short name for logs: "postgres" or "sqlite <file>"; never includes credentials. */
  readonly description: string;
  /** Which SQL the repository writes for it; PostgreSQL unless said. */
  readonly dialect?: 'postgres' | 'sqlite';
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

/** Raised for anything the database layer fails at; the tools turn it into `database_error`. */
export class DatabaseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseError';
  }
}
