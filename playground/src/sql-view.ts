// The SQL panel: the statement and parameters `@listkit/query/sql` plans for the current list
// call's first page in the chosen dialect, over the table layout it derives from the same schema,
// and what that dialect leaves to the residual (decided in memory on the rows returned).
import { parseOrderBy, type ResourceSchema } from '@listkit/query';
import {
  planListQuery,
  type SqlDialectName,
  type SqlListPlan,
  type SqlTable,
  sqlTable,
} from '@listkit/query/sql';
import { h } from './dom.js';
import type { Evaluation } from './engine.js';
import { sqlDialectLabel } from './sql-dialects.js';
import type { PlaygroundState } from './url-state.js';

let cached:
  | { schema: ResourceSchema; name: string; dialect: SqlDialectName; table: SqlTable }
  | undefined;

/** The table layout for a schema; `creationTimestamp`, where there is one, is required. */
function tableFor(schema: ResourceSchema, name: string, dialect: SqlDialectName): SqlTable {
  if (cached?.schema !== schema || cached.name !== name || cached.dialect !== dialect) {
    const required = Object.hasOwn(schema.fields, 'creationTimestamp') ? ['creationTimestamp'] : [];
    const table = sqlTable(schema, { table: name, required, dialect });
    cached = { schema, name, dialect, table };
  }
  return cached.table;
}

export function renderSql(
  container: HTMLElement,
  evaluation: Evaluation | undefined,
  state: PlaygroundState,
  schema: ResourceSchema,
  tableName = 'forwarding_rules',
): void {
  if (!evaluation?.compiled) {
    container.replaceChildren(h('p', { class: 'hint' }, 'Fix the filter to see its SQL.'));
    return;
  }
  let table: SqlTable;
  try {
    table = tableFor(schema, tableName, state.sqlDialect);
  } catch (error) {
    container.replaceChildren(
      h('p', { class: 'error-text' }, `No table for this schema: ${(error as Error).message}`),
    );
    return;
  }
  let plan: ReturnType<typeof planListQuery>;
  try {
    plan = planListQuery(table, {
      filter: evaluation.compiled,
      order: parseOrderBy(state.orderBy, schema),
      pageSize: state.pageSize,
    });
  } catch (error) {
    container.replaceChildren(
      h('p', { class: 'error-text' }, `No plan: ${(error as Error).message}`),
    );
    return;
  }
  container.replaceChildren(
    h('pre', { class: 'sql-text' }, h('code', {}, plan.text)),
    parametersLine(plan),
    h(
      'p',
      { class: 'hint' },
      plan.exact
        ? `The WHERE clause is the whole filter; LIMIT ${plan.limit} is the page size plus one, to see whether a next page exists.`
        : `Part of the filter is checked on the returned rows (${sqlDialectLabel(state.sqlDialect)} cannot decide it exactly): up to ${plan.limit} rows are read for one page.`,
    ),
    inexactList(plan, state.sqlDialect),
  );
}

/**
 * The parameters as the statement numbers them: `$1` in PostgreSQL, `@p1` in Spanner; where the
 * engine writes a bare `?` (SQLite), the n-th `?`, written `?n` as SQLite would number it.
 */
function parametersLine(plan: SqlListPlan): HTMLElement {
  // A plan's first parameter is always in its text (PostgreSQL's and SQLite's LIMIT at least).
  const marker = plan.text.includes('$1') ? '$' : plan.text.includes('@p1') ? '@p' : '?';
  return h(
    'p',
    {},
    plan.params.length === 0 ? 'No parameters.' : 'Parameters: ',
    ...plan.params.map((p, i) =>
      h(
        'code',
        { class: 'sql-param' },
        `${marker}${i + 1} = ${p === null ? 'NULL' : JSON.stringify(p)}`,
      ),
    ),
  );
}

/** What the plan leaves to the residual or keeps exact another way, per field (`plan.inexact`). */
function inexactList(plan: SqlListPlan, dialect: SqlDialectName): HTMLElement | string {
  if (plan.inexact.length === 0) return '';
  return h(
    'div',
    { class: 'sql-inexact' },
    h('p', {}, `Not decided by ${sqlDialectLabel(dialect)} alone:`),
    h(
      'ul',
      {},
      plan.inexact.map((c) => h('li', {}, h('code', {}, c.path), ` — ${c.reason}`)),
    ),
  );
}
