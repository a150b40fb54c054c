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
  /**
   * Runs statements as ONE simple-query text (parameters inlined as escaped constants, see
   * `batchText`), its own transaction, in one round trip; each statement's rows, in order. A
   * statement may change settings for the ones after it (`set_config(…, true)`). PGlite stops
   * the text past `statementTimeoutMs` as it stops a statement; a server is told by the text.
   */
  batch(
    statements: readonly SqlBatchStatement[],
    settings?: TransactionSettings,
  ): Promise<SqlRows[]>;
  /**
   * Runs `work` in one transaction whose statements travel as simple-query texts: BEGIN goes
   * with the first `send`, COMMIT with the one marked `commit` (or alone when `work` resolves
   * without it), ROLLBACK after a failure. A write that reads, decides in this process and then
   * writes costs two round trips, not one per statement plus BEGIN and COMMIT.
   */
  batchedTransaction<T>(
    work: (tx: SqlBatchSession) => Promise<T>,
    settings?: TransactionSettings,
  ): Promise<T>;
  close(): Promise<void>;
}

/**
 * The rows one statement returned, as `SqlSession.query` returns them.
 *
 * @example
 * ```ts
 * const [lockRows, pageRows]: SqlRows[] = await db.batch([lock, page]);
 * ```
 */
export type SqlRows = Record<string, unknown>[];

/**
 * A parameter's value; numbers and booleans are sent as their text.
 *
 * @example
 * ```ts
 * const params: SqlValue[] = ['projects/p/regions/r', 7, true, null];
 * ```
 */
export type SqlValue = string | number | boolean | null;

/**
 * One statement of a batch: text with `$n` placeholders and their values.
 *
 * @example
 * ```ts
 * const lock: SqlBatchStatement = { text: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', params: [parent] };
 * ```
 */
export interface SqlBatchStatement {
  readonly text: string;
  readonly params?: readonly SqlValue[];
}

/**
 * A transaction of {@link SqlDatabase.batchedTransaction}: each `send` is one round trip.
 *
 * @example
 * ```ts
 * await db.batchedTransaction(async (tx) => {
 *   const [, [row]] = await tx.send([lock, read]); // BEGIN; lock; read
 *   await tx.send([write(row)], { commit: true }); // write; COMMIT
 * });
 * ```
 */
export interface SqlBatchSession {
  /** Each statement's rows, in order; with `commit`, the transaction is committed after them. */
  send(
    statements: readonly SqlBatchStatement[],
    options?: { readonly commit?: boolean },
  ): Promise<SqlRows[]>;
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
