import type { SqlRunner } from '../../list-from-sql.js';
import { queryTimeout } from '../../query-timeout.js';

/**
 * What {@link spannerRunner} needs of an `@google-cloud/spanner` `Database`: `run`, which reads
 * in a single-use read-only snapshot. The library imports no driver; pass yours.
 *
 * @example
 * ```ts
 * import { Spanner } from '@google-cloud/spanner';
 * const db: SpannerDatabase = new Spanner({ projectId: 'p' }).instance('i').database('d');
 * ```
 */
export interface SpannerDatabase {
  run(query: {
    sql: string;
    params: Record<string, string | null>;
    types: Record<string, 'string'>;
    json: true;
    gaxOptions: { timeout: number };
  }): Promise<readonly unknown[]>;
}

/**
 * Options of {@link spannerRunner}.
 *
 * @example
 * ```ts
 * spannerRunner(database, { timeoutMs: 2000 });
 * ```
 */
export interface SpannerRunnerOptions {
  /**
   * The deadline of each page's read in milliseconds (default 5,000, as `listFromSql`'s
   * `statementTimeoutMs`): GoogleSQL has no session setting for it, so the runner gives the
   * call a deadline and reports DEADLINE_EXCEEDED as `query_timeout`.
   */
  timeoutMs?: number;
}

/** gRPC's DEADLINE_EXCEEDED. */
const DEADLINE_EXCEEDED = 4;

/**
 * A {@link SqlRunner} over an `@google-cloud/spanner` `Database` (tables laid out with
 * `dialect: 'spanner'`): each page one statement in a single-use read-only snapshot, every
 * parameter bound as STRING (the planner casts where it compares another type), rows as JSON
 * objects. A read past the deadline throws a `ListkitError` `query_timeout`.
 *
 * @example
 * ```ts
 * import { Spanner } from '@google-cloud/spanner';
 * const database = new Spanner({ projectId: 'p' }).instance('i').database('d');
 * const table = sqlTable(schema, { table: 'rules', dialect: 'spanner' });
 * const page = await listFromSql(request, { table, pageTokens, run: spannerRunner(database) });
 * ```
 */
export function spannerRunner(
  database: SpannerDatabase,
  options: SpannerRunnerOptions = {},
): SqlRunner {
  const timeout = Math.max(1, Math.floor(options.timeoutMs ?? 5000));
  return async (statements) => {
    let rows: Record<string, unknown>[] = [];
    for (const { text, params } of statements) {
      const named: Record<string, string | null> = {};
      const types: Record<string, 'string'> = {};
      for (const [i, value] of params.entries()) {
        named[`p${i + 1}`] = value;
        types[`p${i + 1}`] = 'string';
      }
      try {
        const [result] = await database.run({
          sql: text,
          params: named,
          types,
          json: true,
          gaxOptions: { timeout },
        });
        rows = result as Record<string, unknown>[];
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code !== DEADLINE_EXCEEDED) throw error;
        throw queryTimeout(timeout);
      }
    }
    return rows;
  };
}
