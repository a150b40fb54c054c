// The History panel: the filters evaluated lately (kept in localStorage), each restorable.
import type { Actions } from '../actions.js';
import { byId, h, truncate } from '../dom.js';
import { clearHistory } from '../history.js';
import type { Store } from '../store.js';
import { announce } from '../ui.js';

export function mountHistoryPanel(store: Store, actions: Actions): void {
  const list = byId('history-list');
  const clear = byId<HTMLButtonElement>('history-clear');
  clear.addEventListener('click', () => {
    clearHistory();
    actions.loadHistory();
    announce('History cleared');
  });
  store.on('history', () => {
    const entries = store.view.history;
    clear.disabled = entries.length === 0;
    if (entries.length === 0) {
      list.replaceChildren(h('li', { class: 'hint' }, 'The filters you evaluate appear here.'));
      return;
    }
    list.replaceChildren(
      ...entries.map((entry) => {
        const restore = h(
          'button',
          { type: 'button', class: 'history-restore', title: entry.filter },
          h('code', {}, truncate(entry.filter, 100)),
        );
        restore.addEventListener('click', () => {
          actions.replaceFilter(entry.filter, entry.orderBy);
          announce('Filter restored');
        });
        const when = new Date(entry.at).toLocaleTimeString();
        return h('li', {}, restore, h('span', { class: 'hint' }, ` ${entry.dataset} · ${when}`));
      }),
    );
  });
}
