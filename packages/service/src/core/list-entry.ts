// How one item is written into a list answer's `items` array, in the two forms Google answers
// (`prettyPrint=false`, and indented, the default): the parts a list page is copied together
// from (`http/list-page-bytes.ts`), kept per stored item by its collection. Each entry begins
// with the separator that comes before it, so a page copies one part per item; the page writer
// turns the first entry's comma into the array's `[`.

/** The indentation of an item of a list answer's `items`: two levels of two spaces. */
const ITEM_INDENT = '    ';

/**
 * An item's entry in a compact list answer: a comma, then its JSON text, as UTF-8 bytes.
 *
 * @example
 * ```ts
 * compactListEntry('{"name":"web"}'); // the bytes of ',{"name":"web"}'
 * ```
 */
export function compactListEntry(json: string): Uint8Array {
  return Buffer.from(`,${json}`);
}

/**
 * An item's entry in an indented list answer, as `JSON.stringify(answer, null, 2)` writes it: a
 * comma, a line break, then the item indented by two spaces a level from the items' depth on.
 * JSON text has no line break but between its tokens (one inside a string is written `\n`), so
 * indenting every line of the item's own indented text places it exactly.
 *
 * @example
 * ```ts
 * indentedListEntry({ name: 'web' }); // the bytes of ',\n    {\n      "name": "web"\n    }'
 * ```
 */
export function indentedListEntry(item: unknown): Uint8Array {
  const text = JSON.stringify(item, null, 2);
  return Buffer.from(`,\n${ITEM_INDENT}${text.replaceAll('\n', `\n${ITEM_INDENT}`)}`);
}
