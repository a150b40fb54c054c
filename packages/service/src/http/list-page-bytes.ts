import type { ListPage } from '@listkit/query';
import type { PageBufferPool } from './page-buffer-pool.js';

const COMMA = Buffer.from(',');

/**
 * A Compute Engine list answer (`kind`, `id`, `items` only when there are some, `nextPageToken`
 * only when more, `selfLink`) written as UTF-8 bytes, each item's JSON bytes supplied by
 * `itemBytes` (a cache of serialised resources): the page is one buffer copied together from
 * them, never a 400 kB string the socket would encode again. `allocate` supplies the body's
 * buffer (such as a {@link PageBufferPool}'s); by default a new one.
 *
 * @example
 * ```ts
 * const page = await rules.list({ pageSize: 500 });
 * const body = listPageBytes('compute#forwardingRuleList', id, selfLink, page, ruleJsonBytes);
 * return c.body(body, 200, { 'content-type': 'application/json; charset=UTF-8' });
 * ```
 */
export function listPageBytes<T>(
  kind: string,
  id: string,
  selfLink: string,
  page: ListPage<T>,
  itemBytes: (item: T) => Uint8Array,
  allocate: (length: number) => Uint8Array<ArrayBuffer> = (length) => new Uint8Array(length),
): Uint8Array<ArrayBuffer> {
  const { items, nextPageToken } = page;
  const parts: Uint8Array[] = [
    Buffer.from(`{"kind":${JSON.stringify(kind)},"id":${JSON.stringify(id)}`),
  ];
  if (items.length > 0) {
    parts.push(Buffer.from(',"items":['));
    for (let i = 0; i < items.length; i++) {
      if (i > 0) parts.push(COMMA);
      parts.push(itemBytes(items[i]!));
    }
    parts.push(Buffer.from(']'));
  }
  const tail = nextPageToken ? `,"nextPageToken":${JSON.stringify(nextPageToken)}` : '';
  parts.push(Buffer.from(`${tail},"selfLink":${JSON.stringify(selfLink)}}`));
  let length = 0;
  for (const part of parts) length += part.length;
  const body = allocate(length);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return body;
}
