// The "Fields" reference: every field a filter may name, with its type, values and whether it
// sorts or is searched, generated from the schema the engine checks filters against.
import { h } from '../dom.js';
import type { FieldDoc } from '../schema-docs.js';

export function renderFields(container: HTMLElement, fields: readonly FieldDoc[]): void {
  container.replaceChildren(
    h(
      'table',
      { class: 'fields-table' },
      h('caption', { class: 'sr-only' }, 'Fields of the resource'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Field', 'Type', 'Values', 'Sortable', 'Searchable'].map((t) =>
            h('th', { scope: 'col' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        fields.map((f) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, h('code', {}, f.path)),
            h('td', {}, f.typeText),
            h('td', {}, f.values.join(', ')),
            h('td', {}, f.sortable ? 'yes' : 'no'),
            h('td', {}, f.searchable ? 'yes' : 'no'),
          ),
        ),
      ),
    ),
  );
}
