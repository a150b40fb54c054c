// The SQL panel: the statement `@listkit/query/sql` plans for the current list call in the
// chosen dialect (the link keeps it), over a table named after the resources. Rendered only
// while open; the planner and its dialects load when the panel first opens, so a page that never
// shows SQL never downloads them.
import type { Actions } from '../actions.js';
import { byId, h } from '../dom.js';
import { isSqlDialect, SQL_DIALECTS } from '../sql-dialects.js';
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
    void loadSqlView().then(({ renderSql }) => {
      // The panel may have closed, or the state moved on, while the module loaded: draw now.
      if (details.open)
        renderSql(container, store.view.evaluation, store.state, store.view.schema, table);
    });
  };
  dialect.addEventListener('change', () => {
    if (isSqlDialect(dialect.value)) actions.setSqlDialect(dialect.value);
  });
  details.addEventListener('toggle', render);
  store.on(['evaluation', 'query', 'data', 'sql-dialect'], render);
}

let sqlView: Promise<typeof import('../sql-view.js')> | undefined;

/** The SQL view module, fetched once. */
function loadSqlView(): Promise<typeof import('../sql-view.js')> {
  sqlView ??= import('../sql-view.js');
  return sqlView;
}
