// The SQL panel: the PostgreSQL statement and parameters `@listkit/query/sql` plans for the
// current list call's first page, over the table layout it derives from the same schema.
import { parseOrderBy, type ResourceSchema } from '@listkit/query';
import { planListQuery, type SqlTable, sqlTable } from '@listkit/query/sql';
import { h } from './dom.js';
import type { Evaluation } from './engine.js';
import type { PlaygroundState } from './url-state.js';

let cached: { schema: ResourceSchema; name: string; table: SqlTable } | undefined;

/** The table layout for a schema; `creationTimestamp`, where there is one, is required. */
function tableFor(schema: ResourceSchema, name: string): SqlTable {
  if (cached?.schema !== schema || cached.name !== name) {
    const required = Object.hasOwn(schema.fields, 'creationTimestamp') ? ['creationTimestamp'] : [];
    cached = { schema, name, table: sqlTable(schema, { table: name, required }) };
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
    table = tableFor(schema, tableName);
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
    h(
      'p',
      {},
      plan.params.length === 0 ? 'No parameters.' : 'Parameters: ',
      ...plan.params.map((p, i) =>
        h('code', { class: 'sql-param' }, `$${i + 1} = ${p === null ? 'NULL' : JSON.stringify(p)}`),
      ),
    ),
    h(
      'p',
      { class: 'hint' },
      plan.exact
        ? `The WHERE clause is the whole filter; LIMIT ${plan.limit} is the page size plus one, to see whether a next page exists.`
        : `Part of the filter is checked on the returned rows (it has no SQL form): up to ${plan.limit} rows are read for one page.`,
    ),
  );
}
