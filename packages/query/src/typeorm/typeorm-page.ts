// A planned page added to a TypeORM `SelectQueryBuilder` (the @listkit/query/typeorm entry).
import type { ObjectLiteral, OrderByCondition, SelectQueryBuilder } from 'typeorm';
import { placeholderPieces } from '../sql/placeholder-pieces.js';
import type { SqlListPlan } from '../sql/plan.js';

// TypeORM merges the parameters of a query builder (and of its subqueries) by name, and scans
// the whole statement for `:name`: each page's names are new, so they never meet a parameter of
// the caller's own or of another page, nor a PostgreSQL cast (`::text`).
let pages = 0;

/**
 * A planned clause in TypeORM's words: its `$n` placeholders as `:listkit_<page>_<n>`
 * parameters, uniquely named per call.
 *
 * @example
 * ```ts
 * const [text, params] = typeormSql('"id" > $1::bigint', ['5']);
 * qb.andWhere(text, params); // "id" > :listkit_1_1::bigint, { listkit_1_1: '5' }
 * ```
 */
export function typeormSql(
  text: string,
  params: readonly (string | null)[],
): [text: string, parameters: Record<string, string | null>] {
  const page = ++pages;
  const { texts, values } = placeholderPieces(text, params);
  const parameters: Record<string, string | null> = {};
  let written = texts[0]!;
  values.forEach((value, i) => {
    const name = `listkit_${page}_${i + 1}`;
    parameters[name] = value;
    written += `:${name}${texts[i + 1]!}`;
  });
  return [written, parameters];
}

/**
 * Adds a planned page to a TypeORM query builder and returns it: selects the columns the rows
 * must hold (replacing the builder's selection), adds the filter, scope and keyset condition
 * with `andWhere` (the builder's own conditions stay), orders by the plan (replacing any
 * ordering) and limits. Read the rows with `getRawMany()` and return them from a `SqlRunner`:
 * `listFromSql` applies the residual and seals the page token. The builder must read the table
 * under its own name (`.from('books', 'books')`): the ordering names columns with it.
 *
 * @example
 * ```ts
 * const run: SqlRunner = (statements, plan) =>
 *   dataSource.transaction(async (manager) => {
 *     for (const s of statements.slice(0, -1)) await manager.query(s.text, [...s.params]);
 *     return typeormPage(manager.createQueryBuilder().from('books', 'books'), plan!).getRawMany();
 *   });
 * await listFromSql({ filter: 'genre = POETRY', pageSize: 20 }, { table, pageTokens, run });
 * ```
 */
export function typeormPage<Q extends SelectQueryBuilder<ObjectLiteral>>(
  qb: Q,
  plan: SqlListPlan<unknown>,
): Q {
  const { parts } = plan;
  parts.columns.forEach(([expression, alias], i) => {
    if (i === 0) qb.select(expression, alias);
    else qb.addSelect(expression, alias);
  });
  if (parts.where !== undefined) qb.andWhere(...typeormSql(parts.where, parts.params));
  const [orderBy, parameters] = typeormSql(parts.orderBy, parts.params);
  qb.setParameters(parameters);
  qb.orderBy(orderCondition(orderBy));
  qb.limit(plan.limit);
  return qb;
}

/** An ORDER BY list as TypeORM's condition: one entry per term, in order. */
function orderCondition(orderBy: string): OrderByCondition {
  const condition: OrderByCondition = {};
  for (const term of topLevelTerms(orderBy)) {
    const [, expression, desc, nulls] = /^([\s\S]*?)( DESC)?( NULLS (?:FIRST|LAST))?$/.exec(term)!;
    const order = desc ? 'DESC' : 'ASC';
    condition[expression!] = nulls
      ? { order, nulls: nulls.trim() as 'NULLS FIRST' | 'NULLS LAST' }
      : order;
  }
  return condition;
}

/** The comma-separated terms of a list, commas inside parentheses or quotes not counted. */
function topLevelTerms(list: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === "'" || c === '"' || c === '`') {
      const end = list.indexOf(c, i + 1);
      i = end < 0 ? list.length : end; // a doubled quote inside is two adjacent spans
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      terms.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  terms.push(list.slice(start).trim());
  return terms;
}
