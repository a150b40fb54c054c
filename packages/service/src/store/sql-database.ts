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
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
