// A page of results in the form that reads best on the screen: a table on wider screens, whose
// columns fit their values (the key and the fields the filter reads get their width first), and
// on a phone a card per resource: its key, then the fields the filter reads, then the rest.
// Either way the fields the filter and orderBy read come right after the key.
import { checkedFieldsOf, parseOrderBy } from '@listkit/query';
import type { Actions } from '../actions.js';
import { h, truncate } from '../dom.js';
import type { Resource } from '../engine.js';
import type { Store } from '../store.js';

/** The fields after the key: those the filter and orderBy read, then the dataset's defaults. */
export interface ResultFields {
  /** Read by the filter or orderBy, in the filter's order. */
  read: string[];
  /** Shown besides in the table when the filter reads few. */
  fallback: string[];
}

/** The most filter fields the table shows as columns, and the columns it shows at least. */
const MAX_READ_COLUMNS = 4;
const MIN_COLUMNS = 3;
/** A card shows this many of the other fields; the rest are a click away. */
const CARD_REST_SHOWN = 6;

export function resultFields(store: Store): ResultFields {
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
  const read = [...paths];
  const fallback: string[] = [];
  const topLevel = view.fields.filter((f) => !f.path.includes('.')).map((f) => f.path);
  for (const path of [...view.dataset.columns, ...topLevel]) {
    if (Math.min(read.length, MAX_READ_COLUMNS) + fallback.length >= MIN_COLUMNS) break;
    const known = view.fields.some((f) => f.path === path.split('.')[0]);
    if (known && path !== view.schema.key && !read.includes(path) && !fallback.includes(path))
      fallback.push(path);
  }
  return { read, fallback };
}

/** A value as one line of text: message values as compact JSON, lists of scalars joined. */
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
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object'))
    return value.map(String).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function keyButton(store: Store, actions: Actions, item: Resource) {
  const key = store.keyOf(item);
  const pick = h(
    'button',
    { type: 'button', class: 'row-link', title: `${key}: why does it match?` },
    key,
  );
  pick.addEventListener('click', () => actions.traceKey(key));
  return pick;
}

/** The table: #, the key, then the fields read, then the fallbacks. */
export function resultsTable(store: Store, actions: Actions, items: Resource[], first: number) {
  const fields = resultFields(store);
  const cols = [...fields.read.slice(0, MAX_READ_COLUMNS), ...fields.fallback];
  // One line; what does not fit ends with an ellipsis, and the tooltip holds the value.
  const cell = (text: string) =>
    h('td', { class: 'cell', title: text || null }, truncate(text, 200));
  const table = h(
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
        h('th', { scope: 'col' }, store.view.schema.key),
        cols.map((c) => h('th', { scope: 'col', class: 'cell', title: c }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      items.map((item, i) =>
        h(
          'tr',
          {},
          h('td', { class: 'num' }, String(first + i)),
          h('td', { class: 'key' }, keyButton(store, actions, item)),
          cols.map((c) => cell(cellValue(item, c))),
        ),
      ),
    ),
  );
  table.dataset.readColumns = String(Math.min(fields.read.length, MAX_READ_COLUMNS));
  return table;
}

/** A card per resource: the key, the fields the filter reads, then the rest of its fields. */
export function resultCards(store: Store, actions: Actions, items: Resource[], first: number) {
  const { read } = resultFields(store);
  const key = store.view.schema.key;
  const entry = (path: string, value: string, className: string) =>
    h(
      'div',
      { class: className },
      h('dt', {}, path),
      h('dd', { title: className === 'rest' && value ? value : null }, truncate(value, 400)),
    );
  return h(
    'ol',
    { class: 'cards', start: first, 'aria-label': 'Matching resources on this page' },
    items.map((item) => {
      const rest = Object.keys(item).filter((f) => f !== key && !read.includes(f));
      const shown = rest.slice(0, CARD_REST_SHOWN);
      const more = rest.slice(CARD_REST_SHOWN);
      return h(
        'li',
        { class: 'card' },
        h('p', { class: 'card-key' }, keyButton(store, actions, item)),
        read.length > 0 &&
          h(
            'dl',
            { class: 'card-read' },
            read.map((p) => entry(p, cellValue(item, p), 'read')),
          ),
        shown.length > 0 &&
          h(
            'dl',
            { class: 'card-rest' },
            shown.map((p) => entry(p, cellValue(item, p), 'rest')),
          ),
        more.length > 0 &&
          h(
            'details',
            { class: 'card-more' },
            h('summary', {}, `${more.length} more field${more.length === 1 ? '' : 's'}`),
            h(
              'dl',
              { class: 'card-rest' },
              more.map((p) => entry(p, cellValue(item, p), 'rest')),
            ),
          ),
      );
    }),
  );
}

/** Cell padding and border (px), and the bounds of a value column's width. */
const CELL_EXTRA_PX = 13;
const MAX_COLUMN_PX = 420;
const MIN_COLUMN_PX = 48;

let context: CanvasRenderingContext2D | null | undefined;
function textWidth(font: string, text: string): number {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return text.length * 8;
  context.font = font;
  return context.measureText(text).width;
}

/**
 * Widths no larger than each demand (raised to `floor`), summing to at most `space`: the largest
 * are cut first, to a common level. Only when `space` cannot hold every column at `floor` is the
 * sum larger.
 */
export function waterFill(demands: readonly number[], space: number, floor = 0): number[] {
  const wanted = demands.map((d) => Math.max(d, floor));
  if (wanted.reduce((a, b) => a + b, 0) <= space) return wanted;
  const sorted = [...wanted].sort((a, b) => a - b);
  let left = space;
  let level = 0;
  for (let i = 0; i < sorted.length; i++) {
    const share = left / (sorted.length - i);
    if (sorted[i]! >= share) {
      level = share;
      break;
    }
    left -= sorted[i]!;
  }
  return wanted.map((d) => Math.max(floor, Math.min(d, level)));
}

/**
 * Sizes the table's columns to their values within `available` pixels: the number and the key
 * whole, then the fields the filter reads, then the others share what is left (each cut to an
 * ellipsis only when they do not all fit). Other columns that would get less than a sliver are
 * left out, so that the key and the fields read show whole.
 */
export function fitColumns(table: HTMLTableElement, available: number): void {
  const head = table.tHead?.rows[0];
  const body = [...(table.tBodies[0]?.rows ?? [])];
  if (!head || body.length === 0 || available <= 0) return;
  const natural = naturalWidths(head, body);
  const read = Number(table.dataset.readColumns ?? 0);
  const fixed = natural[0]! + natural[1]!;
  const readWidths = waterFill(natural.slice(2, 2 + read), available - fixed, MIN_COLUMN_PX);
  const left = available - fixed - readWidths.reduce((a, b) => a + b, 0);
  const others = natural.slice(2 + read);
  while (others.length > 0 && others.length * MIN_COLUMN_PX > left) {
    others.pop();
    for (const row of table.rows) row.cells[2 + read + others.length]?.remove();
  }
  const otherWidths = waterFill(others, left, MIN_COLUMN_PX);
  const widths = [natural[0]!, natural[1]!, ...readWidths, ...otherWidths];
  table.querySelector('colgroup')?.remove();
  const colgroup = h(
    'colgroup',
    {},
    widths.map((w) => h('col', { style: `width: ${Math.floor(w)}px` })),
  );
  if (table.caption) table.caption.after(colgroup);
  else table.prepend(colgroup);
  // What is left over widens every column a little (the table spans its panel).
  table.style.width = `${Math.floor(available)}px`;
}

/** The canvas font of an element (the `font` shorthand is empty with tabular numbers). */
function fontOf(element: Element): string {
  const style = getComputedStyle(element);
  return `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
}

/** Each column's width for its header and its longest value (value columns capped). */
function naturalWidths(head: HTMLTableRowElement, body: HTMLTableRowElement[]): number[] {
  const headFont = fontOf(head.cells[0]!);
  const natural: number[] = [];
  for (let c = 0; c < head.cells.length; c++) {
    const sample = body[0]!.cells[c]!;
    const font = fontOf(sample.firstElementChild ?? sample);
    let width = textWidth(headFont, head.cells[c]!.textContent ?? '');
    for (const row of body)
      width = Math.max(width, textWidth(font, row.cells[c]?.textContent ?? ''));
    const whole = Math.ceil(width) + CELL_EXTRA_PX + (c === 1 ? 4 : 0);
    natural.push(c < 2 ? whole : Math.min(whole, MAX_COLUMN_PX));
  }
  return natural;
}
