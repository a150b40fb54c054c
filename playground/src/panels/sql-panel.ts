// The SQL panel: the statement `@listkit/query/sql` plans for the current list call in the
// chosen dialect (the link keeps it), over a table named after the resources. Rendered only
// while open.
import type { Actions } from '../actions.js';
import { byId, h } from '../dom.js';
import { isSqlDialect, SQL_DIALECTS } from '../sql-dialects.js';
import { renderSql } from '../sql-view.js';
import type { Store } from '../store.js';

export function mountSqlPanel(store: Store, actions: Actions): void {
  const details = byId<HTMLDetailsElement>('sql-details');
  const container = byId('sql');
  const dialect = byId<HTMLSelectElement>('sql-dialect');
  dialect.replaceChildren(...SQL_DIALECTS.map((d) => h('option', { value: d.name }, d.label)));
  const render = () => {
    dialect.value = store.state.sqlDialect;
    if (!details.open) return;
    const table = store.view.dataset.plural.replaceAll(' ', '_');
    renderSql(container, store.view.evaluation, store.state, store.view.schema, table);
  };
  dialect.addEventListener('change', () => {
    if (isSqlDialect(dialect.value)) actions.setSqlDialect(dialect.value);
  });
  details.addEventListener('toggle', render);
  store.on(['evaluation', 'query', 'data', 'sql-dialect'], render);
}
