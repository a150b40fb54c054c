// The SQL panel: the PostgreSQL statement `@listkit/query/sql` plans for the current list call,
// over a table named after the resources. Rendered only while open.
import { byId } from '../dom.js';
import { renderSql } from '../sql-view.js';
import type { Store } from '../store.js';

export function mountSqlPanel(store: Store): void {
  const details = byId<HTMLDetailsElement>('sql-details');
  const container = byId('sql');
  const render = () => {
    if (!details.open) return;
    const table = store.view.dataset.plural.replaceAll(' ', '_');
    renderSql(container, store.view.evaluation, store.state, store.view.schema, table);
  };
  details.addEventListener('toggle', render);
  store.on(['evaluation', 'query', 'data'], render);
}
