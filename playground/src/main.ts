// The playground page: one state (store.ts), the actions that change it (actions.ts), and one
// module per panel (panels/), each rendering from the state and sending changes through the
// actions. A new panel is a new file mounted here.
import './styles.css';
import { createActions } from './actions.js';
import { byId } from './dom.js';
import { mountLayout } from './layout.js';
import { mountDataPanel } from './panels/data-panel.js';
import { mountEmulatorPanel } from './panels/emulator-panel.js';
import { mountExplainPanel } from './panels/explain-panel.js';
import { mountFilterPanel } from './panels/filter-panel.js';
import { mountHistoryPanel } from './panels/history-panel.js';
import { mountListCallPanel } from './panels/list-call-panel.js';
import { mountResultsPanel } from './panels/results-panel.js';
import { mountSchemaPanel } from './panels/schema-panel.js';
import { mountSharePanel } from './panels/share-panel.js';
import { mountSqlPanel } from './panels/sql-panel.js';
import { mountTestsPanel } from './panels/tests-panel.js';
import { mountWhyPanel } from './panels/why-panel.js';
import { Store } from './store.js';
import { initThemeToggle } from './theme.js';

const store = new Store();
const actions = createActions(store);
initThemeToggle(byId<HTMLSelectElement>('theme'));
mountLayout();

const editor = mountFilterPanel(store, actions);
mountExplainPanel(store, editor);
mountResultsPanel(store, actions);
mountListCallPanel(store);
mountWhyPanel(store, actions, editor);
mountTestsPanel(store, actions);
mountHistoryPanel(store, actions);
mountDataPanel(store, actions);
mountSchemaPanel(store, actions);
mountSqlPanel(store, actions);
mountEmulatorPanel(store);
mountSharePanel(store);

window.addEventListener('hashchange', () => void actions.loadHash(location.hash, false));
// The skip link focuses the editor (following its href would change the hash, which holds the state).
document.querySelector('.skip-link')?.addEventListener('click', (event) => {
  event.preventDefault();
  editor.focus();
});

actions.loadHistory();
actions
  .loadHash(location.hash, true)
  .catch((error: unknown) => {
    console.error('the playground failed to start:', error);
  })
  .finally(() => {
    for (const part of document.querySelectorAll('[inert]')) part.removeAttribute('inert');
    byId('loading').remove();
    document.body.dataset.ready = 'true';
  });
