import type { ListPage } from '@listkit/query';
import type { PageBufferPool } from './page-buffer-pool.js';

const OPEN_BRACKET = 0x5b; // '['

/**
 * A Compute Engine list answer (`kind`, `id`, `items` only when there are some, `nextPageToken`
 * only when more, `selfLink`) written as UTF-8 bytes, each item supplied by `itemEntryBytes` as a
 * comma followed by the item's JSON (a cache of serialised resources): the page is one buffer
 * copied together from them, never a 400 kB string the socket would encode again. The items are
 * copied back to back, one copy each and no separator between them (the first item's comma
 * becomes the array's `[`): on a page of 500 rules half the copies a separate comma would take.
 * `allocate` supplies the body's buffer (such as a {@link PageBufferPool}'s); by default a new one.
 *
 * @example
 * ```ts
 * const page = await rules.list({ pageSize: 500 });
 * const body = listPageBytes('compute#forwardingRuleList', id, selfLink, page, ruleListEntryBytes);
 * return c.body(body, 200, { 'content-type': 'application/json; charset=UTF-8' });
 * ```
 */
export function listPageBytes<T>(
  kind: string,
  id: string,
  selfLink: string,
  page: ListPage<T>,
  itemEntryBytes: (item: T) => Uint8Array,
  allocate: (length: number) => Uint8Array<ArrayBuffer> = (length) => new Uint8Array(length),
): Uint8Array<ArrayBuffer> {
  const { items, nextPageToken } = page;
  const head = Buffer.from(
    `{"kind":${JSON.stringify(kind)},"id":${JSON.stringify(id)}${items.length > 0 ? ',"items":' : ''}`,
  );
  const tail = Buffer.from(
    `${items.length > 0 ? ']' : ''}${nextPageToken ? `,"nextPageToken":${JSON.stringify(nextPageToken)}` : ''},"selfLink":${JSON.stringify(selfLink)}}`,
  );
  const entries = new Array<Uint8Array>(items.length);
  let length = head.length + tail.length;
  for (let i = 0; i < items.length; i++) {
    const entry = itemEntryBytes(items[i]!);
    entries[i] = entry;
    length += entry.length;
  }
  const body = allocate(length);
  body.set(head, 0);
  let at = head.length;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    body.set(entry, at);
    at += entry.length;
  }
  if (entries.length > 0) body[head.length] = OPEN_BRACKET;
  body.set(tail, at);
  return body;
}
