import { type CompileOptions, compileFilter } from '../filter/compile.js';
import type { ListPage, ListRequest } from '../list/collection.js';
import { checkPageSize } from '../list/page-size.js';
import { parseOrderBy } from '../order-by/order-by.js';
import { boundQuery } from '../page-token/bound-query.js';
import type { PageTokenCodec } from '../page-token/page-token-codec.js';
import {
  planListQuery,
  readPlannedPage,
  type SqlListPlan,
  type SqlPlanOptions,
  type SqlStatement,
} from './plan.js';
import { queryTimeout } from './query-timeout.js';
import type { SqlTable } from './table.js';

/**
 * Runs statements in order in ONE transaction on one connection and returns the rows of the
 * last. The settings statement uses `set_config(…, true)`, which lasts until the transaction ends.
 *
 * @example
 * ```ts
 * const run: SqlRunner = async (statements) => {
 *   let rows: Record<string, unknown>[] = [];
 *   for (const s of statements) rows = (await client.query(s.text, [...s.params])).rows;
 *   return rows;
 * };
 * ```
 */
export type SqlRunner = (
  statements: readonly SqlStatement[],
  /**
   * The planned page (the last statement), which `listFromSql` passes: a query builder may
   * assemble it from its parts (`@listkit/query/kysely`).
   */
  plan?: SqlListPlan,
) => Promise<readonly Record<string, unknown>[]>;

/**
 * Options of {@link listFromSql}.
 *
 * @example
 * ```ts
 * const options: SqlListOptions = { table, pageTokens, run, statementTimeoutMs: 2000 };
 * await listFromSql({ filter: 'name = web-*', pageSize: 50 }, options);
 * ```
 */
export interface SqlListOptions<T = unknown> extends CompileOptions, SqlPlanOptions {
  /** The table; its schema's item type is the type of the page's items. */
  table: SqlTable<T>;
  /** Seals and opens page tokens: the same codec as a Collection's gives interchangeable tokens. */
  pageTokens: PageTokenCodec;
  run: SqlRunner;
  /** Statement timeout in milliseconds (default 5,000); exceeding it throws `query_timeout`. */
  statementTimeoutMs?: number;
  /**
   * Turns a row's resource (the document column's JSON text) into the resource (default
   * `JSON.parse`). A server that writes pages as bytes can keep the text it parsed, so the page
   * reuses it instead of serialising each resource again.
   */
  readResource?: (json: string) => object;
  /**
   * For a table of your own (`document: false`): turns a row into the resource. The row holds
   * the mapped columns as text in the engine's canonical form, keyed by column name (int64 and
   * doubles as decimal text, booleans as `true`/`false`, enums as labels, timestamps as RFC 3339
   * UTC with six fractional digits, maps and lists as JSON text); NULL is "unset". Defaults to
   * {@link SqlTable.readRow}, which sets each field from its column; give your own to add what
   * the columns do not hold (a `name` built from the id, say). The in-memory side must read
   * the same rows the same way for pages to be equal.
   */
  readRow?: (row: Readonly<Record<string, unknown>>) => object;
}

/**
 * Answers one list call from PostgreSQL exactly as {@link Collection.list} answers it from
 * memory (same pages, same token bindings): plans the statement, runs it through `run`, applies
 * the residual and seals the next page token.
 *
 * @example
 * ```ts
 * const run: SqlRunner = async (statements) => {
 *   const client = await pool.connect();
 *   try {
 *     await client.query('BEGIN');
 *     let rows: Record<string, unknown>[] = [];
 *     for (const s of statements) rows = (await client.query(s.text, [...s.params])).rows;
 *     await client.query('COMMIT');
 *     return rows;
 *   } catch (e) {
 *     await client.query('ROLLBACK');
 *     throw e;
 *   } finally {
 *     client.release();
 *   }
 * };
 * const page = await listFromSql({ filter: 'name = web-*', pageSize: 500 }, { table, pageTokens, run });
 * ```
 */
export async function listFromSql<T extends object>(
  request: ListRequest,
  options: SqlListOptions<T>,
): Promise<ListPage<T>> {
  const { pageSize } = request;
  checkPageSize(pageSize);
  const { table } = options;
  const order = parseOrderBy<T>(request.orderBy ?? '', table.schema);
  const filter = compileFilter<T>(request.filter ?? '', table.schema, options);
  try {
    const query = boundQuery(options.pageTokens, {
      parent: request.parent,
      filter: filter.canonical,
      orderBy: order.canonical,
      context: request.context,
    });
    const cursor = request.pageToken
      ? await options.pageTokens.open(request.pageToken, await query())
      : undefined;
    const plan = planListQuery(
      table,
      { filter, order, cursor, pageSize, parent: request.parent },
      options,
    );
    const timeout = options.statementTimeoutMs ?? 5000;
    let rows: readonly Record<string, unknown>[];
    try {
      // PostgreSQL's settings statement first; engines without one run the page alone, with
      // its time limit written into it where the engine limits single statements (MySQL).
      const { dialect } = table;
      const settings = dialect.settings(timeout);
      const statement = dialect.timeLimited?.(plan, timeout) ?? plan;
      rows = await options.run(settings ? [settings, statement] : [statement], plan as SqlListPlan);
    } catch (error) {
      if (
        (error as { code?: unknown } | null)?.code === '57014' ||
        table.dialect.isTimeout?.(error)
      ) {
        throw queryTimeout(timeout);
      }
      throw error;
    }
    const read = options.readResource ?? JSON.parse;
    const readRow = options.readRow ?? table.readRow;
    const resources =
      table.document === undefined
        ? rows.map((row) => readRow(row) as T)
        : rows.map((row) => {
            const value = row.resource;
            return (typeof value === 'string' ? read(value) : value) as T;
          });
    const page = readPlannedPage(plan, resources);
    if (!page.next) return { items: page.items };
    return {
      items: page.items,
      nextPageToken: await options.pageTokens.seal(page.next, await query()),
    };
  } finally {
    filter.dispose();
  }
}
