// The Matches panel: match count, orderBy and page size, the pager walking real page tokens
// (a Collection and an AES-GCM PageTokenCodec, as on a server) and the results table, whose
// columns are the key and the fields the filter and orderBy use.
import { checkedFieldsOf, ListkitError, parseOrderBy } from '@listkit/query';
import type { Actions } from '../actions.js';
import { byId, debounce, formatMs, h, showError, truncate } from '../dom.js';
import { problemFix, type QuickFix } from '../editor.js';
import type { Resource } from '../engine.js';
import { PageWalker } from '../paging.js';
import type { Store } from '../store.js';
import { MAX_PAGE_SIZE } from '../url-state.js';
import { fixButton } from './filter-panel.js';

const DEBOUNCE_MS = 250;

type Elements = ReturnType<typeof elements>;
const elements = () => ({
  matchCount: byId('match-count'),
  orderBy: byId<HTMLInputElement>('order-by'),
  orderByOptions: byId('order-by-options'),
  orderByError: byId('order-by-error'),
  orderByFixes: byId('order-by-fixes'),
  pageSize: byId<HTMLInputElement>('page-size'),
  pageSizeError: byId('page-size-error'),
  firstPage: byId<HTMLButtonElement>('first-page'),
  prevPage: byId<HTMLButtonElement>('prev-page'),
  nextPage: byId<HTMLButtonElement>('next-page'),
  pageInfo: byId('page-info'),
  pageToken: byId('page-token'),
  results: byId('results'),
});

/** Columns: the key, then the fields the filter and orderBy use (or the dataset's defaults). */
function columns(store: Store): string[] {
  const { view, state } = store;
  const paths = new Set<string>();
  const checked = view.evaluation?.compiled?.checked;
  if (checked) for (const field of checkedFieldsOf(checked)) paths.add(field.path);
  try {
    for (const term of parseOrderBy(state.orderBy, view.schema).terms) paths.add(term.path);
  } catch {
    // shown next to the orderBy box
  }
  paths.delete(view.schema.key);
  const chosen = [...paths].slice(0, 4);
  const fallbacks = view.fields.filter((f) => !f.path.includes('.')).map((f) => f.path);
  for (const fallback of [...view.dataset.columns, ...fallbacks]) {
    if (chosen.length >= 3) break;
    if (fallback !== view.schema.key && view.fields.some((f) => f.path === fallback.split('.')[0]))
      if (!chosen.includes(fallback)) chosen.push(fallback);
  }
  return [view.schema.key, ...chosen];
}

export function cellValue(resource: Resource, path: string): string {
  let value: unknown = resource;
  for (const step of path.split('.')) {
    if (Array.isArray(value)) value = value.map((v) => (v as Record<string, unknown>)?.[step]);
    else if (typeof value === 'object' && value !== null)
      value = (value as Record<string, unknown>)[step];
    else value = undefined;
  }
  if (value === undefined || value === null) return '';
  if (typeof value === 'string')
    return value.startsWith('https://') ? value.slice(value.lastIndexOf('/') + 1) : value;
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
  }
  return String(value);
}

function resultsTable(store: Store, actions: Actions, items: Resource[], first: number) {
  const cols = columns(store);
  // One line; CSS ends what does not fit with an ellipsis, and the tooltip holds the value.
  const cell = (text: string) =>
    h('td', { class: 'cell', title: text || null }, truncate(text, 200));
  return h(
    'table',
    { class: 'results' },
    h('caption', { class: 'sr-only' }, 'Matching resources on this page'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, '#'),
        cols.map((c, i) => h('th', { scope: 'col', class: i > 0 ? 'cell' : null, title: c }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      items.map((item, i) => {
        const key = store.keyOf(item);
        const pick = h(
          'button',
          { type: 'button', class: 'row-link', title: `${key}: why does it match?` },
          key,
        );
        pick.addEventListener('click', () => actions.traceKey(key));
        return h(
          'tr',
          {},
          h('td', { class: 'num' }, String(first + i)),
          h('td', { class: 'key' }, pick),
          cols.slice(1).map((c) => cell(cellValue(item, c))),
        );
      }),
    ),
  );
}

export function mountResultsPanel(store: Store, actions: Actions): void {
  const el = elements();
  let walker: PageWalker | undefined;
  let sequence = 0;

  const showPage = async () => {
    const current = walker;
    if (!current) return;
    const mine = ++sequence;
    showError(el.orderByError, undefined);
    el.orderByFixes.replaceChildren();
    el.orderBy.removeAttribute('aria-invalid');
    const started = performance.now();
    let page: Awaited<ReturnType<PageWalker['current']>>;
    try {
      page = await current.current();
    } catch (error) {
      if (mine === sequence) showListError(store, el, current, error);
      return;
    }
    el.results.classList.remove('stale');
    if (mine !== sequence) return;
    renderPager(el, current, page.nextPageToken);
    const first = current.index * current.query.pageSize + 1;
    const total = store.view.evaluation?.compiled ? store.view.evaluation.matchCount : undefined;
    el.pageInfo.textContent =
      page.items.length === 0
        ? `Page ${current.index + 1}: no items`
        : `Page ${current.index + 1}: items ${first}–${first + page.items.length - 1}${total !== undefined ? ` of ${total}` : ''} · listed in ${formatMs(performance.now() - started)}`;
    store.view.firstRow = page.items[0] ? store.keyOf(page.items[0]) : undefined;
    el.results.replaceChildren(
      page.items.length === 0
        ? h('p', { class: 'hint' }, 'No resource on this page.')
        : resultsTable(store, actions, page.items, first),
    );
    store.emit('why');
  };

  const relist = () => {
    const collection = store.view.collection;
    if (!collection) return;
    const { filter, orderBy, pageSize } = store.state;
    walker = new PageWalker(collection, { filter, orderBy, pageSize });
    void showPage();
  };

  store.on('evaluation', () => {
    const result = store.view.evaluation;
    const n = store.view.resources.length;
    el.matchCount.textContent = result?.error
      ? 'Fix the filter to see matches'
      : result?.compiled
        ? `${result.matchCount} of ${n} resources match`
        : '';
    relist();
  });
  store.on('query', relist);
  // Set from outside the page's own inputs (a link, an example, the history): show it.
  store.on('filter-replaced', () => {
    el.orderBy.value = store.state.orderBy;
    el.pageSize.value = String(store.state.pageSize);
  });
  store.on('data', () => {
    el.orderByOptions.replaceChildren(
      ...(store.view.schema.orderings ?? []).filter(Boolean).map((o) => h('option', { value: o })),
    );
    el.orderBy.placeholder = `(default: by ${store.view.schema.key})`;
  });
  wireControls(store, actions, el, {
    page(move: (w: PageWalker) => void) {
      if (walker) move(walker);
      void showPage();
    },
  });
}

function wireControls(
  store: Store,
  actions: Actions,
  el: Elements,
  pager: { page(move: (w: PageWalker) => void): void },
) {
  el.orderBy.addEventListener(
    'input',
    debounce(DEBOUNCE_MS, () => actions.setQuery({ orderBy: el.orderBy.value })),
  );
  el.pageSize.addEventListener(
    'input',
    debounce(DEBOUNCE_MS, () => {
      const n = Number(el.pageSize.value);
      if (!Number.isSafeInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
        el.pageSize.setAttribute('aria-invalid', 'true');
        el.pageSizeError.textContent = `The page size must be a whole number from 1 to ${MAX_PAGE_SIZE} (Compute Engine's maxResults); the list still uses ${store.state.pageSize}.`;
        el.pageSizeError.hidden = false;
        return;
      }
      el.pageSize.removeAttribute('aria-invalid');
      el.pageSizeError.hidden = true;
      actions.setQuery({ pageSize: n });
    }),
  );
  el.firstPage.addEventListener('click', () => pager.page((w) => w.first()));
  el.prevPage.addEventListener('click', () => pager.page((w) => w.previous()));
  el.nextPage.addEventListener('click', () => pager.page((w) => w.next()));
}

function showListError(store: Store, el: Elements, current: PageWalker, error: unknown) {
  renderPager(el, current, undefined, false);
  // A filter error is already shown under the editor; anything else here is the orderBy's.
  const evaluation = store.view.evaluation;
  const filterValid =
    evaluation?.compiled !== undefined && evaluation.source === current.query.filter;
  if (error instanceof ListkitError && filterValid && !error.code.includes('page_token')) {
    showError(el.orderByError, error.format());
    el.orderBy.setAttribute('aria-invalid', 'true');
    const apply = (fix: QuickFix) => {
      const text = el.orderBy.value;
      el.orderBy.value = text.slice(0, fix.from) + fix.text + text.slice(fix.to);
      el.orderBy.focus();
      el.orderBy.dispatchEvent(new Event('input'));
    };
    el.orderByFixes.replaceChildren(
      ...error.problems.flatMap((p) => {
        const fix = problemFix(p);
        return fix ? [fixButton(fix, apply)] : [];
      }),
    );
  }
  const why = error instanceof ListkitError ? 'the list call is invalid' : String(error);
  if (!el.results.querySelector('table')) {
    el.results.replaceChildren(h('p', { class: 'hint' }, `No page: ${why}.`));
    return;
  }
  // Keeps the last good page on screen, dimmed and labelled, while the list call is invalid.
  el.results.classList.add('stale');
  el.results.querySelector('.stale-note')?.remove();
  el.results.prepend(
    h('p', { class: 'stale-note' }, `Stale: the last valid results, shown while ${why}.`),
  );
}

function renderPager(el: Elements, current: PageWalker, nextToken?: string, listed = true) {
  el.firstPage.disabled = !current.hasPrevious;
  el.prevPage.disabled = !current.hasPrevious;
  el.nextPage.disabled = !nextToken;
  el.pageToken.textContent = nextToken ? truncate(nextToken, 64) : listed ? '— (last page)' : '—';
  el.pageToken.title = nextToken ?? '';
  if (!nextToken && !current.hasPrevious) el.pageInfo.textContent = '';
}
