import type { ListPage } from '@listkit/query';
import type { PageBufferPool } from './page-buffer-pool.js';
import { MAX_PRETTY_BYTES } from './pretty-print.js';

const OPEN_BRACKET = 0x5b; // '['

/**
 * Each item's entry in a list answer, in both forms (`core/list-entry.ts`: a separator, then the
 * item's JSON): a cache of serialised resources, such as a collection's stored items.
 *
 * @example
 * ```ts
 * const entries: ListEntries<ForwardingRuleJson> = {
 *   compact: ruleListEntryBytes,
 *   indented: ruleIndentedListEntryBytes,
 * };
 * ```
 */
export interface ListEntries<T> {
  /** The item's entry in a compact answer (`prettyPrint=false`). */
  compact: (item: T) => Uint8Array;
  /** The item's entry in an indented answer (`prettyPrint`, Google's default). */
  indented: (item: T) => Uint8Array;
}

/** How {@link listPageBytes} writes a page. */
export interface ListPageOptions {
  /**
   * Indented as `JSON.stringify(answer, null, 2)` with a final newline, as Google's `prettyPrint`
   * writes answers (`pretty-print.ts`). Default false: compact.
   */
  indent?: boolean;
  /**
   * The longest page written indented; a longer one is written compact, as other answers over
   * it are (`MAX_PRETTY_BYTES`, the default).
   */
  maxIndentedBytes?: number;
  /** The body's buffer (such as a {@link PageBufferPool}'s); by default a new one. */
  allocate?: (length: number) => Uint8Array<ArrayBuffer>;
}

/**
 * A Compute Engine list answer (`kind`, `id`, `items` only when there are some, `nextPageToken`
 * only when more, `selfLink`) written as UTF-8 bytes, compact or indented, each item's part
 * supplied by `entries`: the page is one buffer copied together from them, never a 400 kB
 * string the socket would encode again, nor an answer read back and indented afterwards. The
 * entries are copied back to back, one copy each (the first entry's comma becomes the array's
 * `[`). The same bytes as `JSON.stringify(answer)`, or `JSON.stringify(answer, null, 2)` and a
 * newline, of the answer the entries were made from.
 *
 * @example
 * ```ts
 * const page = await rules.list({ pageSize: 500 });
 * const body = listPageBytes('compute#forwardingRuleList', id, selfLink, page, RULE_ENTRIES, {
 *   indent: asksForIndentedJson(c),
 * });
 * return answeredAsAsked(c.body(body, 200, { 'content-type': 'application/json; charset=UTF-8' }));
 * ```
 */
export function listPageBytes<T>(
  kind: string,
  id: string,
  selfLink: string,
  page: ListPage<T>,
  entries: ListEntries<T>,
  options: ListPageOptions = {},
): Uint8Array<ArrayBuffer> {
  const { items } = page;
  let indent = options.indent === true;
  let parts = entryParts(items, indent ? entries.indented : entries.compact);
  if (indent && parts.length > (options.maxIndentedBytes ?? MAX_PRETTY_BYTES)) {
    indent = false;
    parts = entryParts(items, entries.compact);
  }
  const { head, tail } = frame(kind, id, selfLink, page, indent);
  const length = head.length + parts.length + tail.length;
  const body = options.allocate?.(length) ?? new Uint8Array(length);
  body.set(head, 0);
  let at = head.length;
  for (const entry of parts.entries) {
    body.set(entry, at);
    at += entry.length;
  }
  if (items.length > 0) body[head.length] = OPEN_BRACKET;
  body.set(tail, at);
  return body;
}

/** Each item's entry in one form, and their length together. */
function entryParts<T>(items: readonly T[], entryOf: (item: T) => Uint8Array) {
  const entries = new Array<Uint8Array>(items.length);
  let length = 0;
  for (let i = 0; i < items.length; i++) {
    const entry = entryOf(items[i]!);
    entries[i] = entry;
    length += entry.length;
  }
  return { entries, length };
}

/** The answer's bytes before its first item's entry and after its last. */
function frame<T>(kind: string, id: string, selfLink: string, page: ListPage<T>, indent: boolean) {
  const some = page.items.length > 0;
  const token = page.nextPageToken;
  const [nl, sep] = indent ? ['\n  ', ': '] : ['', ':'];
  const field = (name: string, value: string) => `,${nl}"${name}"${sep}${JSON.stringify(value)}`;
  const head = `{${nl}"kind"${sep}${JSON.stringify(kind)}${field('id', id)}${some ? `,${nl}"items"${sep}` : ''}`;
  const tail = `${some ? `${nl}]` : ''}${token ? field('nextPageToken', token) : ''}${field('selfLink', selfLink)}${indent ? '\n}\n' : '}'}`;
  return { head: Buffer.from(head), tail: Buffer.from(tail) };
}
