import type { ListPage, ListRequest, PageTokenCodec } from '@listkit/query';
import { listFromSql, type SqlRunner, type SqlTable } from '@listkit/query/sql';
import type {
  SqlBatchSession,
  SqlDatabase,
  SqlSession,
  TransactionSettings,
} from './sql-database.js';
import type { AnalysedTable, TableStatistics } from './table-statistics.js';

/** The default of {@link SqlStoreContextOptions.listTimeoutMs}. */
const DEFAULT_LIST_TIMEOUT_MS = 5_000;

/**
 * Options of {@link sqlStoreContext}.
 *
 * @example
 * ```ts
 * const options: SqlStoreContextOptions = { pageTokens, listTimeoutMs: 2_000 };
 * ```
 */
export interface SqlStoreContextOptions {
  /** Processes sharing a database share the secret, so a token from one opens on another. */
  pageTokens: PageTokenCodec;
  /** Statement timeout of list calls, in ms (default 5,000). */
  listTimeoutMs?: number;
}

/**
 * What every resource's SQL store shares: transactions, writes counted towards the tables'
 * next analysis, and list calls through `listFromSql` under the list statement timeout.
 *
 * @example
 * ```ts
 * const rows = await sql.tx((session) => session.query('SELECT 1 AS one'));
 * ```
 */
export interface SqlStoreContext {
  tx<T>(work: (session: SqlSession) => Promise<T>, settings?: TransactionSettings): Promise<T>;
  /** A write transaction; once it commits, its rows count towards the tables' next analysis. */
  writeTx<T>(
    tables: readonly AnalysedTable[],
    work: (session: SqlSession) => Promise<T>,
  ): Promise<T>;
  /** {@link SqlStoreContext.writeTx} as a batched transaction (`SqlDatabase.batchedTransaction`). */
  batchedWriteTx<T>(
    tables: readonly AnalysedTable[],
    work: (session: SqlBatchSession) => Promise<T>,
  ): Promise<T>;
  /** One statement as its own transaction, in one round trip (no BEGIN and COMMIT around it). */
  statement: SqlSession['query'];
  /** Counts rows written outside {@link SqlStoreContext.writeTx} (bulk deletes). */
  wrote(table: AnalysedTable, rows: number): void;
  /** One page of `table` within `scope`, its page tokens bound to `parent`. */
  list<T extends object>(
    table: SqlTable,
    request: Omit<ListRequest, 'parent'>,
    parent: string,
    scope: Record<string, string>,
    readResource?: (json: string) => T,
  ): Promise<ListPage<T>>;
}

/**
 * The shared part of the SQL stores over one database.
 *
 * @example
 * ```ts
 * const sql = sqlStoreContext(db, await TableStatistics.open(db, ['operations']), { pageTokens });
 * ```
 */
export function sqlStoreContext(
  db: SqlDatabase,
  statistics: TableStatistics,
  options: SqlStoreContextOptions,
): SqlStoreContext {
  const { pageTokens } = options;
  const listTimeoutMs = options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS;
  const tx: SqlStoreContext['tx'] = (work, settings) => db.transaction(work, settings);
  // The settings and the page as one simple query: one round trip, not BEGIN, settings, page
  // and COMMIT (the settings last until the text's implicit transaction ends).
  const run: SqlRunner = async (statements) =>
    (await db.batch(statements, { statementTimeoutMs: listTimeoutMs })).at(-1) ?? [];
  return {
    tx,
    writeTx: async (tables, work) => {
      const result = await tx(work);
      for (const table of tables) statistics.wrote(table);
      return result;
    },
    batchedWriteTx: async (tables, work) => {
      const result = await db.batchedTransaction(work);
      for (const table of tables) statistics.wrote(table);
      return result;
    },
    statement: (text, params) => db.statement(text, params),
    wrote: (table, rows) => statistics.wrote(table, rows),
    list: <T extends object>(
      ...[table, request, parent, scope, readResource]: Parameters<SqlStoreContext['list']>
    ) =>
      // `parent` is the collection bound into page tokens; the rows are scoped by `scope`.
      listFromSql<T>(
        { ...request, context: { ...request.context, collection: parent } },
        {
          table,
          pageTokens,
          run,
          scope,
          statementTimeoutMs: listTimeoutMs,
          ...(readResource ? { readResource } : {}),
        },
      ),
  };
}
