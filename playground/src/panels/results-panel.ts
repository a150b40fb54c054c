// The Matches panel: match count, orderBy and page size, the pager walking real page tokens
// (a Collection and an AES-GCM PageTokenCodec, as on a server) and the page of results
// (results-view.ts): a table whose columns fit their values, or on a phone a card per resource.
import { ListkitError } from '@listkit/query';
import type { Actions } from '../actions.js';
import { byId, debounce, formatMs, h, showError, truncate } from '../dom.js';
import { problemFix, type QuickFix } from '../editor.js';
import type { Resource } from '../engine.js';
import { PHONE } from '../layout.js';
import { PageWalker } from '../paging.js';
import type { Store } from '../store.js';
import { MAX_PAGE_SIZE } from '../url-state.js';
import { fixButton } from './filter-panel.js';
import { fitColumns, resultCards, resultsTable } from './results-view.js';

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

export function mountResultsPanel(store: Store, actions: Actions): void {
  const el = elements();
  let walker: PageWalker | undefined;
  let sequence = 0;
  let shown: { items: Resource[]; first: number } | undefined;
  const phone = matchMedia(PHONE);

  /** The page as cards on a phone, else as a table sized to its values; or why there is none. */
  const renderItems = () => {
    if (!shown) return;
    const { items, first } = shown;
    if (items.length === 0) {
      el.results.replaceChildren(h('p', { class: 'hint' }, emptyText(store)));
      return;
    }
    if (phone.matches) {
      el.results.replaceChildren(resultCards(store, actions, items, first));
      return;
    }
    const table = resultsTable(store, actions, items, first);
    el.results.replaceChildren(table);
    fitColumns(table, el.results.clientWidth);
  };
  phone.addEventListener('change', renderItems);
  // Another width: the table again, fitted anew (it may leave out other columns when narrow).
  let width = 0;
  new ResizeObserver(() => {
    if (el.results.clientWidth === width) return;
    const refit = width !== 0 && el.results.querySelector('table.results') !== null;
    width = el.results.clientWidth;
    // In the next frame: changing the observed box inside its own callback loops.
    if (refit) requestAnimationFrame(renderItems);
  }).observe(el.results);

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
    shown = { items: page.items, first };
    renderItems();
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
  if (!el.results.querySelector('table, .cards')) {
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

/** Why a page is empty: no data yet (and where to bring it), or no match on it. */
function emptyText(store: Store): string {
  const { state, view } = store;
  if (state.data === undefined || view.resources.length > 0) return 'No resource on this page.';
  return state.missingData
    ? "No data: this link's data was not included. Paste or drop it in Data, at the top of the page."
    : 'No data yet: paste or drop your data in Data, at the top of the page.';
}

function renderPager(el: Elements, current: PageWalker, nextToken?: string, listed = true) {
  el.firstPage.disabled = !current.hasPrevious;
  el.prevPage.disabled = !current.hasPrevious;
  el.nextPage.disabled = !nextToken;
  el.pageToken.textContent = nextToken ? truncate(nextToken, 64) : listed ? '— (last page)' : '—';
  el.pageToken.title = nextToken ?? '';
  if (!nextToken && !current.hasPrevious) el.pageInfo.textContent = '';
}
