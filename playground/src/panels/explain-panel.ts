// "What it means": the filter in plain language, clause by clause (explainFilter).
import { byId, h } from '../dom.js';
import type { FilterEditor } from '../editor.js';
import type { Store } from '../store.js';
import { clauseList } from './clauses.js';

export function mountExplainPanel(store: Store, editor: FilterEditor): void {
  const container = byId('explanation');
  store.on('evaluation', () => {
    const explanation = store.view.explanation;
    container.replaceChildren(
      explanation
        ? h(
            'ul',
            { class: 'clauses' },
            clauseList(explanation, (span) => editor.highlightSpan(span)),
          )
        : h('p', { class: 'hint' }, 'The explanation appears when the filter is valid.'),
    );
  });
}
