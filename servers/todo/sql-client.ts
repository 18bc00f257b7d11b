// The little the repository needs from a PostgreSQL connection. Both backends speak the same SQL
// dialect (PGlite is PostgreSQL compiled to WebAssembly), so one repository serves both.
export interface SqlClient {
  /** A short name for logs: "postgres" or "pglite <dir>"; never includes credentials. */
  readonly description: string;
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
