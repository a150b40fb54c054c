/**
 * One statement's access to a transaction: rows come back with int8/numeric/timestamps as text.
 *
 * @example
 * ```ts
 * await db.transaction(async (tx: SqlSession) => tx.query('SELECT name FROM rules WHERE project = $1', ['p']));
 * ```
 */
export interface SqlSession {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: readonly (string | number | boolean | null)[],
  ): Promise<R[]>;
}

/**
 * A PostgreSQL database as the SQL store uses it: transactions on one connection each, whether
 * it is PGlite in this process or a server through `pg`.
 *
 * @example
 * ```ts
 * const count = await db.transaction(async (tx) => (await tx.query('SELECT 1 AS one'))[0]?.one);
 * ```
 */
export interface SqlDatabase {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(work: (tx: SqlSession) => Promise<T>, settings?: TransactionSettings): Promise<T>;
  /** Runs one statement outside any transaction: maintenance such as VACUUM, which refuses one. */
  outsideTransaction(text: string): Promise<void>;
  /**
   * Runs one statement as its own transaction (autocommit: atomic, committed when it resolves),
   * in one round trip instead of BEGIN, the statement and COMMIT.
   */
  statement: SqlSession['query'];
  close(): Promise<void>;
}

/**
 * How one transaction runs.
 *
 * @example
 * ```ts
 * await db.transaction((tx) => tx.query(listStatement), { statementTimeoutMs: 5_000 });
 * ```
 */
export interface TransactionSettings {
  /**
   * The longest each statement may run. PGlite enforces it from outside its thread (a statement
   * past it fails with SQLSTATE 57014); a server is told with `statement_timeout` by the
   * statements themselves (listStatementSettings), so the PostgreSQL database ignores it.
   */
  statementTimeoutMs?: number;
}
