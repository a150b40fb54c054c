// The Tests panel: expectations ("this filter matches exactly these keys") that pass or fail as
// the data, schema or tests change, like regex101's unit tests. Kept in the link; exported and
// imported as JSON.
import type { Actions } from '../actions.js';
import { byId, h, showError, truncate } from '../dom.js';
import {
  type Expectation,
  type ExpectationResult,
  exportExpectations,
  MAX_EXPECTATIONS,
  MAX_EXPECTED_KEYS,
  parseExpectations,
} from '../expectations.js';
import type { Store } from '../store.js';
import { announce, download } from '../ui.js';

function verdict(result: ExpectationResult | undefined): [string, string] {
  if (!result) return ['', ''];
  if (result.status === 'pass')
    return ['pass', `passes: matches exactly its ${result.matched} keys`];
  if (result.status === 'error') return ['fail', `fails: ${result.message}`];
  const parts: string[] = [];
  if (result.missing.length) parts.push(`does not match ${keysText(result.missing)}`);
  if (result.unexpected.length) parts.push(`also matches ${keysText(result.unexpected)}`);
  return ['fail', `fails: ${parts.join('; ')}`];
}

const keysText = (keys: string[]) =>
  `${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ` and ${keys.length - 3} more` : ''}`;

export function mountTestsPanel(store: Store, actions: Actions): void {
  const el = {
    list: byId('tests-list'),
    summary: byId('tests-summary'),
    add: byId<HTMLButtonElement>('tests-add'),
    exportButton: byId<HTMLButtonElement>('tests-export'),
    importInput: byId<HTMLInputElement>('tests-import'),
    error: byId('tests-error'),
  };
  const set = (next: Expectation[]) => actions.setExpectations(next);

  const row = (expectation: Expectation, index: number, result?: ExpectationResult) => {
    // A link that left its data out: the tests wait for it instead of failing on no data.
    const [status, text] = store.state.missingData
      ? ['wait', 'waits for the data']
      : verdict(result);
    const load = h('button', { type: 'button', class: 'small' }, 'Load');
    load.addEventListener('click', () => actions.replaceFilter(expectation.filter));
    const update = h('button', { type: 'button', class: 'small' }, 'Expect current matches');
    update.addEventListener('click', () => {
      const next = [...store.state.expectations];
      next[index] = { filter: expectation.filter, keys: matchesOf(store, expectation.filter) };
      set(next);
    });
    const remove = h('button', { type: 'button', class: 'small' }, 'Delete');
    remove.addEventListener('click', () =>
      set(store.state.expectations.filter((_, i) => i !== index)),
    );
    return h(
      'li',
      { class: `test ${status}`, 'data-status': status },
      h(
        'span',
        { class: 'test-mark', 'aria-hidden': 'true' },
        status === 'pass' ? '✔' : status === 'wait' ? '…' : '✘',
      ),
      h('code', { class: 'test-filter' }, truncate(expectation.filter || '(empty)', 120)),
      h(
        'span',
        { class: 'test-keys' },
        `→ ${expectation.keys.length} keys: ${keysText(expectation.keys)}`,
      ),
      h('span', { class: 'test-verdict' }, text),
      h('span', { class: 'test-actions' }, load, update, remove),
    );
  };

  el.add.addEventListener('click', () => {
    if (store.state.expectations.length >= MAX_EXPECTATIONS)
      return showError(el.error, `At most ${MAX_EXPECTATIONS} tests are kept.`);
    if (!store.view.evaluation?.compiled)
      return showError(
        el.error,
        'Fix the filter first: a test records what a valid filter matches.',
      );
    const keys = matchesOf(store, store.state.filter);
    if (keys.length > MAX_EXPECTED_KEYS)
      return showError(
        el.error,
        `The filter matches ${keys.length} resources; a test holds at most ${MAX_EXPECTED_KEYS} keys. Narrow it first.`,
      );
    showError(el.error, undefined);
    set([...store.state.expectations, { filter: store.state.filter, keys }]);
    announce('Test added');
  });
  el.exportButton.addEventListener('click', () =>
    download(exportExpectations(store.state.expectations), 'listkit-tests.json'),
  );
  el.importInput.addEventListener('change', async () => {
    const file = el.importInput.files?.[0];
    el.importInput.value = '';
    if (!file) return;
    try {
      set(parseExpectations(JSON.parse(await file.text())));
      showError(el.error, undefined);
      announce(`Imported ${store.state.expectations.length} tests`);
    } catch (error) {
      showError(el.error, `The tests could not be imported: ${(error as Error).message}`);
    }
  });
  store.on('expectations', () => {
    const results = store.view.expectationResults;
    const passed = results.filter((r) => r.status === 'pass').length;
    const waiting = results.length > 0 && store.state.missingData !== undefined;
    el.summary.textContent =
      results.length === 0
        ? 'none yet'
        : waiting
          ? 'waiting for the data'
          : `${passed} of ${results.length} pass`;
    el.summary.dataset.status =
      results.length === 0 || waiting ? 'none' : passed === results.length ? 'pass' : 'fail';
    el.list.replaceChildren(...store.state.expectations.map((e, i) => row(e, i, results[i])));
  });
}

/** The keys a filter matches now (the current evaluation when it is that filter). */
function matchesOf(store: Store, filter: string): string[] {
  const { view } = store;
  const evaluation = view.evaluation;
  if (evaluation?.compiled && evaluation.source === filter)
    return view.resources.filter((_, i) => evaluation.matches[i]).map((r) => store.keyOf(r));
  return [];
}
