// "Why does a resource match?": traces one resource through every clause (traceFilter) and
// names the clause that decided. Traces the results' first row unless a resource is chosen.
import { type FilterTrace, traceFilter } from '@listkit/query';
import type { Actions } from '../actions.js';
import { byId, h } from '../dom.js';
import type { FilterEditor } from '../editor.js';
import type { Store } from '../store.js';
import { announce } from '../ui.js';
import { clauseList } from './clauses.js';

/** The first decisive leaf: the clause that made the resource match or fail. */
function findDecider(t: FilterTrace): FilterTrace | undefined {
  if (t.clause.kind === 'leaf') return t;
  const decisive = t.children.filter((c) => c.decisive);
  return decisive.length === 1 ? findDecider(decisive[0]!) : undefined;
}

export function mountWhyPanel(store: Store, actions: Actions, editor: FilterEditor): void {
  const el = {
    name: byId<HTMLInputElement>('why-name'),
    names: byId('why-names'),
    label: byId('why-label'),
    firstMatch: byId<HTMLButtonElement>('why-first-match'),
    firstMiss: byId<HTMLButtonElement>('why-first-miss'),
    why: byId('why'),
  };
  const say = (node: HTMLElement) => el.why.replaceChildren(node);

  const render = () => {
    const { view } = store;
    const compiled = view.evaluation?.compiled;
    if (!compiled || !view.explanation) {
      say(h('p', { class: 'hint' }, 'Fix the filter to trace a resource.'));
      return;
    }
    const chosen = view.whyKey;
    const wanted = chosen ?? view.firstRow;
    const resource =
      (wanted !== undefined ? view.resources.find((r) => store.keyOf(r) === wanted) : undefined) ??
      (chosen === undefined ? view.resources[0] : undefined);
    if (!resource) {
      say(
        h(
          'p',
          { class: 'hint' },
          chosen !== undefined
            ? `No resource has ${view.schema.key} ${JSON.stringify(chosen)}.`
            : 'There is no data to trace.',
        ),
      );
      return;
    }
    const key = store.keyOf(resource);
    el.name.value = key;
    let traced: FilterTrace;
    try {
      traced = traceFilter(view.explanation, resource, compiled.source, view.schema);
    } catch (error) {
      say(h('p', { class: 'error-text' }, `Could not trace: ${(error as Error).message}`));
      return;
    }
    const decider = findDecider(traced);
    el.why.replaceChildren(
      h(
        'p',
        { class: traced.result ? 'verdict same' : 'verdict differ' },
        h('strong', {}, key),
        traced.result ? ' matches' : ' does not match',
        decider && decider !== traced
          ? [
              `, because “${decider.clause.text}” ${decider.result ? 'holds' : 'fails'}`,
              decider.actual ? ` (${decider.actual})` : '',
              '.',
            ]
          : '.',
      ),
      h(
        'ul',
        { class: 'clauses traced' },
        clauseList(view.explanation, (span) => editor.highlightSpan(span), traced),
      ),
    );
  };

  const pick = (match: boolean) => {
    const index = store.view.evaluation?.matches.indexOf(match) ?? -1;
    const resource = index >= 0 ? store.view.resources[index] : undefined;
    if (!resource) {
      announce(match ? 'No resource matches' : 'Every resource matches');
      return;
    }
    actions.traceKey(store.keyOf(resource));
  };

  el.name.addEventListener('change', () => actions.traceKey(el.name.value.trim() || undefined));
  el.firstMatch.addEventListener('click', () => pick(true));
  el.firstMiss.addEventListener('click', () => pick(false));
  store.on('data', () => {
    el.label.textContent = `Resource (${store.view.schema.key})`;
    el.names.replaceChildren(
      ...store.view.resources.slice(0, 2000).map((r) => h('option', { value: store.keyOf(r) })),
    );
  });
  store.on(['why', 'evaluation'], render);
}
