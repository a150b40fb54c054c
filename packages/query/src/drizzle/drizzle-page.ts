// A planned page as Drizzle `SQL` objects (the @listkit/query/drizzle entry).
import { type SQL, sql } from 'drizzle-orm';
import { placeholderPieces } from '../sql/placeholder-pieces.js';
import type { SqlListPlan } from '../sql/plan.js';

/**
 * SQL text with `$n` placeholders and their values as one Drizzle `SQL` object: each
 * placeholder becomes a Drizzle parameter (written by Drizzle's dialect: `$1`, `?`), the text
 * around it stays raw. Placeholders inside quoted literals or identifiers are left alone.
 *
 * @example
 * ```ts
 * const settings = listStatementSettings(2000);
 * await tx.execute(drizzleSql(settings.text, settings.params));
 * ```
 */
export function drizzleSql<T = unknown>(text: string, params: readonly (string | null)[]): SQL<T> {
  const { texts, values } = placeholderPieces(text, params);
  // The pieces as one tagged-template call, as `sql\`a ${x} b\`` is: a flat SQL of text and
  // values. Joining a `sql.raw` and a `sql\`${value}\`` per piece nests an SQL per piece, which
  // Drizzle's compiler walks one by one (11-20 µs for a keyset WHERE of three values, 3 flat).
  const strings = Object.assign([...texts], { raw: texts }) as TemplateStringsArray;
  return sql<T>(strings, ...values);
}

/**
 * A planned page's clauses as Drizzle `SQL` objects.
 *
 * @example
 * ```ts
 * const page: DrizzlePage = drizzlePage(plan);
 * const rows = await db.select(page.columns).from(books).where(page.where).orderBy(page.orderBy).limit(page.limit);
 * ```
 */
export interface DrizzlePage {
  /**
   * The columns the rows must hold, by alias: each mapped column as canonical text under its
   * name (a table of your own, for `readRow`), or the document as `resource`.
   */
  readonly columns: Record<string, SQL<unknown>>;
  /** The filter's pushed-down part, the scope and the keyset condition (undefined when none). */
  readonly where: SQL<unknown> | undefined;
  /** The ordering, the key last, with the NULLS clauses the in-memory order needs. */
  readonly orderBy: SQL<unknown>;
  /** Rows to fetch: pageSize + 1, or the scan budget when a residual remains. */
  readonly limit: number;
}

/**
 * Turns a plan from `planListQuery` (or the one `listFromSql` passes its runner) into Drizzle
 * `SQL` objects. Add them to your own `db.select(page.columns).from(table)` and return the rows
 * from a `SqlRunner`: `listFromSql` applies the residual and seals the page token.
 *
 * @example
 * ```ts
 * const run: SqlRunner = (statements, plan) =>
 *   db.transaction(async (tx) => {
 *     for (const s of statements.slice(0, -1)) await tx.execute(drizzleSql(s.text, s.params));
 *     const page = drizzlePage(plan!);
 *     return tx.select(page.columns).from(books).where(page.where)
 *       .orderBy(page.orderBy).limit(page.limit);
 *   });
 * await listFromSql({ filter: 'genre = POETRY', pageSize: 20 }, { table, pageTokens, run });
 * ```
 */
export function drizzlePage(plan: SqlListPlan<unknown>): DrizzlePage {
  const { parts } = plan;
  const columns: Record<string, SQL<unknown>> = {};
  for (const [expression, alias] of parts.columns) columns[alias] = sql.raw(expression);
  return {
    columns,
    where: parts.where === undefined ? undefined : drizzleSql(parts.where, parts.params),
    orderBy: drizzleSql(parts.orderBy, parts.params),
    limit: plan.limit,
  };
}
