/** PostgreSQL's SQLSTATE for a statement cancelled by `statement_timeout` (query_canceled). */
const QUERY_CANCELED = '57014';

/**
 * A statement that ran past its time limit and was stopped. It carries PostgreSQL's own SQLSTATE,
 * so a caller that handles a server's `statement_timeout` (listFromSql turns it into a 504)
 * handles a PGlite statement stopped from outside the same way.
 *
 * @example
 * ```ts
 * throw new StatementTimeoutError(5_000); // code '57014'
 * ```
 */
export class StatementTimeoutError extends Error {
  override readonly name = 'StatementTimeoutError';
  readonly code = QUERY_CANCELED;
  constructor(readonly timeoutMs: number) {
    super(
      `canceling statement due to statement timeout: it ran longer than ${timeoutMs} ms, so the PGlite thread was stopped and the database is reopened (committed data is kept, the statement's transaction is rolled back)`,
    );
  }
}

/**
 * Whether a database error is a statement stopped for time, from a PostgreSQL server's
 * `statement_timeout` or from the PGlite thread's limit.
 *
 * @example
 * ```ts
 * if (isStatementTimeout(error)) return new ApiError(503, 'backendError', 'The database did not answer in time.');
 * ```
 */
export function isStatementTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === QUERY_CANCELED;
}
