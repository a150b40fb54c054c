import type { Span } from '../errors.js';
import type { CheckedNode } from '../filter/checked.js';
import type { CompiledFilter } from '../filter/compile.js';
import { re2jsEngine } from '../filter/regex/re2js-engine.js';
import type { RegexEngine } from '../filter/regex/regex-engine.js';
import type { OrderBy, SortKey } from '../order-by/order-by.js';
import { postgresDialect } from './dialects/postgres/dialect.js';
import { translateFilter } from './filter-translation.js';
import { keysetCondition, orderByClause, orderColumns } from './keyset.js';
import { parentConditions } from './parent-condition.js';
import type { SqlStatement } from './sql-statement.js';
import { inlineParameters, Parameters } from './sql-text.js';
import { pastLimit } from './statement-limits.js';
import type { SqlColumn, SqlInexactColumn, SqlTable } from './table.js';

export type { SqlStatement } from './sql-statement.js';

/**
 * What a page is planned from: a compiled filter, a parsed orderBy and an opened cursor.
 *
 * @example
 * ```ts
 * const query: SqlListQuery<Rule> = {
 *   filter: compileFilter('labels.env = prod', schema),
 *   order: parseOrderBy('name', schema),
 *   pageSize: 50,
 * };
 * planListQuery(table, query);
 * ```
 */
export interface SqlListQuery<T = unknown> {
  filter: CompiledFilter<T>;
  order: OrderBy<T>;
  /** The cursor from an opened page token: the sort key of the last item returned. */
  cursor?: SortKey;
  pageSize: number;
  /** Only the items under this parent (`ListRequest.parent`; see {@link SqlPlanOptions.parentColumn}). */
  parent?: string;
}

/**
 * Options of {@link planListQuery}.
 *
 * @example
 * ```ts
 * planListQuery(table, query, { scanBudget: 10_000, scope: { project: 'p' } });
 * ```
 */
export interface SqlPlanOptions {
  /**
   * The most rows one statement returns when a residual predicate filters them (default 5,000,
   * and never under pageSize + 1): a page may come back short, with a token (AIP-158).
   */
  scanBudget?: number;
  /** The engine that evaluates regex patterns against enum and bool values at plan time. */
  regexEngine?: RegexEngine;
  /**
   * Equality conditions on columns outside the schema that every row of the page must meet,
   * such as the parent of a table holding many collections (`{ parent: 'projects/p/regions/r' }`).
   * Column names come from the caller's code, never from a request; values travel as parameters.
   */
  scope?: Readonly<Record<string, string>>;
  /**
   * The column holding each row's parent, for {@link SqlListQuery.parent}, when the key is not
   * a full resource name. Without it a parent is found in the key (`shelves/1/books/b` is under
   * `shelves/1`), and the key's index seeks the parent's rows.
   */
  parentColumn?: string;
}

/**
 * A planned page: the statement, and what the caller does with the rows it returns.
 *
 * @example
 * ```ts
 * const plan: SqlListPlan<Rule> = planListQuery(table, query);
 * if (!plan.exact) console.log('some of the filter runs in this process');
 * ```
 */
export interface SqlListPlan<T = unknown> extends SqlStatement {
  /** The most rows the statement returns (its LIMIT). */
  readonly limit: number;
  readonly pageSize: number;
  /** True when the WHERE clause is the whole filter: no residual. */
  readonly exact: boolean;
  /**
   * The columns this statement reads whose PostgreSQL type differs from the engine's values (a
   * table of your own: microsecond timestamps, collations, enum orders), and how the plan keeps
   * the pages exact; and what the dialect could not push down at all (SQLite: regex terms),
   * which the residual decides. Empty for listkit's own layout in PostgreSQL.
   */
  readonly inexact: readonly SqlInexactColumn[];
  /**
   * The statement's clauses, for query builders that assemble their own statement (the
   * `@listkit/query/kysely` adapter): `columns` as `[expression, alias]` pairs, `where` (if
   * any) and `orderBy` as SQL text whose `$n` placeholders are `params`' values.
   */
  readonly parts: {
    readonly columns: readonly (readonly [expression: string, alias: string])[];
    readonly where?: string;
    readonly orderBy: string;
    /**
     * The values the parts' `$n` number, as the engine stores them. The same as {@link params}
     * where the engine writes `$n` (PostgreSQL); where it writes `?` (SQLite) {@link params}
     * follow the placeholders of the finished text instead, repeats included.
     */
    readonly params: readonly (string | null)[];
  };
  /** What the database could not decide, tested on each returned resource. */
  readonly residual?: (resource: T) => boolean;
  readonly order: OrderBy<T>;
}

/**
 * The default {@link SqlPlanOptions.scanBudget}: rows one statement may return for a residual.
 *
 * @example
 * ```ts
 * planListQuery(table, query, { scanBudget: 4 * DEFAULT_SCAN_BUDGET }); // a patient caller
 * ```
 */
export const DEFAULT_SCAN_BUDGET = 5000;

/**
 * Plans one page of a list call in PostgreSQL: the filter's WHERE (values as `$n` parameters,
 * identifiers from the table layout only), the keyset condition after the cursor, ORDER BY with
 * the unique key last, and LIMIT pageSize + 1 (or the scan budget when a residual remains).
 * Pure: no I/O, so it runs in browsers too. Read the rows with {@link readPlannedPage}.
 *
 * @example
 * ```ts
 * const filter = compileFilter('labels.env = "prod" AND NOT name = "web-*"', schema);
 * const order = parseOrderBy('creationTimestamp desc', schema);
 * const plan = planListQuery(table, { filter, order, pageSize: 500 });
 * const { rows } = await client.query(plan.text, [...plan.params]);
 * const page = readPlannedPage(plan, rows.map((r) => JSON.parse(r.resource)));
 * ```
 */
export function planListQuery<T>(
  table: SqlTable,
  query: SqlListQuery<T>,
  options: SqlPlanOptions = {},
): SqlListPlan<T> {
  const whole = planWith(table, query, options, query.filter.checked, true);
  const limits = table.dialect.capabilities.limits;
  const past = limits && pastLimit(whole, limits);
  if (!limits || !past) return whole;
  // Past the engine's limits: push down the top-level conjuncts that fit, in order, and let the
  // residual decide the whole filter (never a statement the engine refuses).
  const node = query.filter.checked;
  const conjuncts = node.type === 'and' ? node.operands : [node];
  const kept: CheckedNode[] = [];
  let best = planWith(table, query, options, { type: 'all' }, false);
  // Each trial plans the statement again: a bounded number of them keeps planning linear.
  for (const conjunct of conjuncts.slice(0, MAX_CONJUNCT_TRIALS)) {
    const operands = [...kept, conjunct];
    const trial = planWith(
      table,
      query,
      options,
      operands.length === 1
        ? conjunct
        : { type: 'and', operands, span: (node as { span: Span }).span },
      false,
    );
    if (pastLimit(trial, limits)) continue;
    kept.push(conjunct);
    best = trial;
  }
  const reason = `past the engine's limits, ${past}: ${kept.length} of ${conjuncts.length} top-level terms pushed down, the filter decided in memory`;
  return {
    ...best,
    inexact: [...best.inexact, { path: '', column: '', reason }],
  };
}

/** How many top-level terms a statement past the engine's limits tries to keep. */
const MAX_CONJUNCT_TRIALS = 32;

/**
 * {@link planListQuery} for one filter tree; `exactAllowed: false` keeps the residual (the tree
 * is a part of the filter).
 */
function planWith<T>(
  table: SqlTable,
  query: SqlListQuery<T>,
  options: SqlPlanOptions,
  node: CheckedNode,
  exactAllowed: boolean,
): SqlListPlan<T> {
  const { dialect } = table;
  const params = new Parameters(dialect);
  const used = new Set<SqlColumn>();
  const leftToResidual: SqlInexactColumn[] = [];
  const translated = translateFilter(node, {
    leftToResidual,
    table,
    params,
    regexEngine: options.regexEngine ?? re2jsEngine,
    aliases: { count: 0 },
    used,
  });
  const filter = { sql: translated.sql, exact: translated.exact && exactAllowed };
  for (const { column } of orderColumns(table, query.order)) used.add(column);
  const conditions = Object.entries(options.scope ?? {}).map(
    ([column, value]) => `${dialect.quoteIdentifier(column)} = ${params.add(value, 'text')}`,
  );
  conditions.push(...parentConditions(table, query.parent, params, options.parentColumn));
  if (filter.sql !== 'TRUE') conditions.push(`(${filter.sql})`);
  if (query.cursor)
    conditions.push(`(${keysetCondition(table, query.order, query.cursor, params)})`);
  const limit = filter.exact
    ? query.pageSize + 1
    : Math.max(query.pageSize + 1, options.scanBudget ?? DEFAULT_SCAN_BUDGET);
  // As text: node-postgres took 6.2 ms to hand over 501 resources as jsonb, 2.5 ms as text
  // plus 1.1 ms for JSON.parse (10^6 rows, test/bench/sql.mjs); every driver returns text alike.
  // From a json document (documentType: 'json') `::text` converts nothing: the stored text.
  // A table of your own: each column as canonical text (drivers would read timestamptz as a
  // Date, in milliseconds, and bigint as a lossy number).
  const columns: (readonly [string, string])[] =
    table.document === undefined
      ? table.columns.map((c) => [c.select ?? c.name, c.name.slice(1, -1).replaceAll('""', '"')])
      : [[dialect.documentText(table.document, table.documentType ?? 'jsonb'), 'resource']];
  const where = conditions.length > 0 ? conditions.join(' AND ') : undefined;
  const orderBy = orderByClause(table, query.order);
  const text = [
    `SELECT ${columns.map(([e, alias]) => `${e} AS ${dialect.quoteIdentifier(alias)}`).join(', ')} FROM ${table.name}`,
    ...(where === undefined ? [] : [`WHERE ${where}`]),
    `ORDER BY ${orderBy}`,
    `LIMIT ${params.add(String(limit), 'bigint')}`,
  ].join('\n');
  // The engine's own placeholders (PostgreSQL: as written); `parts` keep the `$n` form.
  const finished = dialect.finish({ text, params: params.values });
  return {
    text: finished.text,
    params: finished.params,
    limit,
    pageSize: query.pageSize,
    exact: filter.exact,
    parts: { columns, where, orderBy, params: params.values },
    inexact: [
      ...table.inexact.filter((c) => [...used].some((u) => u.name === c.column)),
      ...leftToResidual,
    ],
    residual: filter.exact ? undefined : (resource: T) => query.filter.matches(resource),
    order: query.order,
  };
}

/**
 * Turns the resources a planned statement returned (in order) into a page: the residual
 * applied, at most pageSize items, and the cursor of the next page when there may be one
 * (after the last item, or after the last row scanned when the scan budget ran out).
 *
 * @example
 * ```ts
 * const page = readPlannedPage(plan, rows.map((r) => JSON.parse(r.resource)));
 * if (page.next) nextPageToken = await codec.seal(page.next, binding);
 * ```
 */
export function readPlannedPage<T>(
  plan: SqlListPlan<T>,
  resources: readonly T[],
): { items: T[]; next?: SortKey } {
  const { pageSize, order } = plan;
  const keep = plan.residual;
  if (!keep) {
    const items = resources.slice(0, pageSize);
    const last = items[items.length - 1];
    return resources.length > pageSize && last ? { items, next: order.sortKey(last) } : { items };
  }
  const items: T[] = [];
  for (const resource of resources) {
    if (!keep(resource)) continue;
    if (items.length === pageSize) return { items, next: order.sortKey(items[pageSize - 1]!) };
    items.push(resource);
  }
  const scanned = resources[resources.length - 1];
  // A full budget means rows may remain: continue after the last row scanned.
  return resources.length >= plan.limit && scanned
    ? { items, next: order.sortKey(scanned) }
    : { items };
}

/**
 * Session settings for a list statement, to run first in the same transaction:
 * `plan_cache_mode = force_custom_plan` (a generic plan once took 1 s on a no-match query) and
 * a statement timeout.
 *
 * @example
 * ```ts
 * const s = listStatementSettings(2000);
 * await client.query(s.text, [...s.params]); // inside BEGIN … COMMIT
 * ```
 */
export function listStatementSettings(timeoutMs: number): SqlStatement {
  return postgresDialect.settings(timeoutMs)!;
}

/**
 * The statements as ONE simple-query text, for a runner that sends it as one message: each
 * `$n` written as an escaped string constant (`E'…'`, with its cast), the statements joined by
 * `;`. PostgreSQL runs a multi-statement simple query as one implicit transaction, so the
 * settings' `set_config(…, true)` last until it ends and the runner needs no `BEGIN` and
 * `COMMIT`: one round trip per page instead of four (about 0.3 ms of a 3 ms page on a Unix
 * socket, test/bench/sql.mjs). The driver returns the result of every statement; the page's
 * rows are the last one's. Values are escaped, never trusted: a value holding U+0000 (which
 * the planner never sends) throws.
 *
 * @example
 * ```ts
 * // node-postgres: a text without parameters goes as one simple query
 * const run: SqlRunner = async (statements) => {
 *   const results = await pool.query(simpleQueryText(statements));
 *   return (results as unknown as pg.QueryResult[]).at(-1)!.rows;
 * };
 * ```
 */
export function simpleQueryText(statements: readonly SqlStatement[]): string {
  return statements.map((s) => inlineParameters(s.text, s.params)).join(';\n');
}
