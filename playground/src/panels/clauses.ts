// A filter's clauses as a nested list, each clause a button that highlights its text in the
// editor; with a trace, each marked as holding or failing for one resource.
import type { FilterClause, FilterTrace, Span } from '@listkit/query';
import { h } from '../dom.js';

export function clauseList(
  clause: FilterClause,
  highlight: (span: Span) => void,
  traced?: FilterTrace,
): HTMLElement {
  const item = h('li', { class: 'clause' });
  if (traced) {
    item.classList.add(traced.result ? 'holds' : 'fails');
    if (traced.decisive) item.classList.add('decisive');
    item.append(
      h(
        'span',
        { class: 'verdict-mark', 'aria-label': traced.result ? 'holds' : 'fails' },
        traced.result ? '✔' : '✘',
      ),
    );
  }
  item.append(spanButton(clause.text, clause.span, highlight));
  if (traced?.actual) item.append(h('span', { class: 'actual' }, traced.actual));
  if (traced?.decisive && clause.kind === 'leaf')
    item.append(h('span', { class: 'decides' }, 'decides'));
  if (!traced && clause.note) item.append(h('span', { class: 'note' }, clause.note));
  if (clause.children.length > 0) {
    const list = h('ul', {});
    clause.children.forEach((child, i) => {
      list.append(clauseList(child, highlight, traced?.children[i]));
    });
    item.append(list);
  }
  return item;
}

function spanButton(text: string, span: Span | undefined, highlight: (span: Span) => void) {
  if (!span) return h('span', {}, text);
  const button = h(
    'button',
    { type: 'button', class: 'clause-text', title: 'Highlight in the filter' },
    text,
  );
  button.addEventListener('click', () => highlight(span));
  return button;
}
