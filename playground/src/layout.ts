// Where the panels sit for the screen. On one column (a phone, a narrow window) the results come
// right after the filter, before its explanation and syntax tree; beside it on two. Moved in
// the document, not only drawn elsewhere, so the keyboard meets them in the order they are seen.
// On a phone the explanation and the tree start collapsed.
import { byId } from './dom.js';

/** One column of panels. */
const SINGLE_COLUMN = '(max-width: 1000px)';
/** A phone: results as cards, the explanation and tree collapsed at first. */
export const PHONE = '(max-width: 640px)';

export function mountLayout(): void {
  const results = byId('results-panel');
  const single = matchMedia(SINGLE_COLUMN);
  const place = () => {
    if (single.matches) byId('filter-panel').after(results);
    else byId('column-results').prepend(results);
  };
  place();
  single.addEventListener('change', place);
  if (matchMedia(PHONE).matches)
    for (const id of ['explain-details', 'ast-details']) byId<HTMLDetailsElement>(id).open = false;
}
