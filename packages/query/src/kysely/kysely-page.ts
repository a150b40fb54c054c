// A planned page as Kysely `sql` fragments, so a Kysely user adds the filter, the ordering and
// the keyset condition to their own `selectFrom(…)`. Only this folder imports kysely (an
// optional peer dependency), and only the `@listkit/query/kysely` entry imports this folder.
import { type AliasedRawBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import { placeholderPieces } from '../sql/placeholder-pieces.js';
import type { SqlListPlan } from '../sql/plan.js';

/**
 * SQL text with `$n` placeholders and their values as one Kysely fragment: each placeholder
 * becomes a Kysely parameter (numbered by Kysely in the final statement), the text around it
 * stays raw. Placeholders inside quoted literals or identifiers are left alone.
 *
 * @example
 * ```ts
 * const settings = listStatementSettings(2000);
 * await sql`${kyselySql(settings.text, settings.params)}`.execute(tx);
 * ```
 */
export function kyselySql<T = unknown>(
  text: string,
  params: readonly (string | null)[],
): RawBuilder<T> {
  const { texts, values } = placeholderPieces(text, params);
  const pieces: RawBuilder<unknown>[] = [sql.raw(texts[0]!)];
  values.forEach((value, i) => {
    pieces.push(sql`${value}`, sql.raw(texts[i + 1]!));
  });
  return sql.join(pieces, sql.raw('')) as RawBuilder<T>;
}

/**
 * A planned page's clauses as Kysely fragments.
 *
 * @example
 * ```ts
 * const page: KyselyPage = kyselyPage(plan);
 * const rows = await db.selectFrom('books').select(page.columns).where(page.where).orderBy(page.orderBy).limit(page.limit).execute();
 * ```
 */
export interface KyselyPage {
  /**
   * The columns the rows must hold for `readRow` (a table of your own: each column as
   * canonical text under its name) or `readResource` (the document as text, `resource`).
   */
  readonly columns: AliasedRawBuilder<unknown, string>[];
  /** The filter's pushed-down part, the scope and the keyset condition (`TRUE` when none). */
  readonly where: RawBuilder<SqlBool>;
  /** The ordering, the key last, with the NULLS clauses the in-memory order needs. */
  readonly orderBy: RawBuilder<unknown>;
  /** Rows to fetch: pageSize + 1, or the scan budget when a residual remains. */
  readonly limit: number;
}

/**
 * Turns a plan from `planListQuery` (or the one `listFromSql` passes its runner) into Kysely
 * fragments. Add them to your own `selectFrom(table)` and read the rows with
 * `readPlannedPage(plan, rows.map(table.readRow))`, or return them from a `SqlRunner` and let
 * `listFromSql` read them and seal the page token.
 *
 * @example
 * ```ts
 * const run: SqlRunner = (statements, plan) =>
 *   db.transaction().execute(async (tx) => {
 *     const settings = statements[0]!;
 *     await sql`${kyselySql(settings.text, settings.params)}`.execute(tx);
 *     const page = kyselyPage(plan!);
 *     return tx.selectFrom('books').select(page.columns).where(page.where)
 *       .orderBy(page.orderBy).limit(page.limit).execute();
 *   });
 * await listFromSql({ filter: 'genre = POETRY', pageSize: 20 }, { table: books, pageTokens, run });
 * ```
 */
export function kyselyPage(plan: SqlListPlan<unknown>): KyselyPage {
  const { parts } = plan;
  const { params } = parts;
  return {
    columns: parts.columns.map(([expression, alias]) => sql.raw(expression).as(alias)),
    where: parts.where === undefined ? sql<SqlBool>`TRUE` : kyselySql<SqlBool>(parts.where, params),
    orderBy: kyselySql(parts.orderBy, params),
    limit: plan.limit,
  };
}
