import type { ListPage, ListRequest, PageTokenCodec } from '@listkit/query';
import { listFromSql, type SqlRunner, type SqlTable } from '@listkit/query/sql';
import type {
  SqlBatchSession,
  SqlDatabase,
  SqlSession,
  TransactionSettings,
} from './sql-database.js';
import type { AnalysedTable, TableStatistics } from './table-statistics.js';

/**
 * Every write transaction takes this advisory lock shared, first; a restore takes it exclusive
 * (`RESTORE_LOCK`), so it waits for the writes in flight and holds new ones back until it
 * commits: a write lands wholly before a restore or wholly after it, never decided on the old
 * state and written into the new. Two int4 keys: a space of its own, apart from the regions'
 * one-key locks.
 */
const WRITE_LOCK = 'SELECT pg_advisory_xact_lock_shared(1819504491, 1)';

/**
 * The statement a restore's transaction starts with (see {@link SqlStoreContext.writeTx}).
 *
 * @example
 * ```ts
 * await session.query(RESTORE_LOCK);
 * ```
 */
export const RESTORE_LOCK = 'SELECT pg_advisory_xact_lock(1819504491, 1)';

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
  /**
   * A write transaction; once it commits, its rows count towards the tables' next analysis. It
   * starts by taking the restore lock shared (`RESTORE_LOCK`), as does every batched one.
   */
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
  /** Statements as one transaction in one round trip (`SqlDatabase.batch`). */
  batch: SqlDatabase['batch'];
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
      const result = await tx(async (session) => {
        await session.query(WRITE_LOCK);
        return work(session);
      });
      for (const table of tables) statistics.wrote(table);
      return result;
    },
    batchedWriteTx: async (tables, work) => {
      const result = await db.batchedTransaction((session) => work(lockingFirst(session)));
      for (const table of tables) statistics.wrote(table);
      return result;
    },
    statement: (text, params) => db.statement(text, params),
    batch: (statements, settings) => db.batch(statements, settings),
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

/**
 * The session with the shared write lock sent ahead of its first statements, in the same round
 * trip; the lock's own rows are not returned.
 */
function lockingFirst(session: SqlBatchSession): SqlBatchSession {
  let locked = false;
  return {
    send: async (statements, options) => {
      if (locked) return session.send(statements, options);
      locked = true;
      const rows = await session.send([{ text: WRITE_LOCK }, ...statements], options);
      return rows.slice(1);
    },
  };
}
