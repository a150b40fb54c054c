import type { Collection, ListPage, ListRequest } from '../list/collection.js';
import type { ResourceSchema } from '../schema/field-type.js';
import { type ListStyle, styleOf } from './list-style.js';
import { applyListMasks, listMasks, listSkipping } from './mask-and-skip.js';
import {
  type ListRequestSource,
  type ReadListRequestOptions,
  readListRequest,
} from './read-list-request.js';

/**
 * What answers a list call: a {@link Collection}, or a function such as
 * `(request) => listFromSql(request, sqlOptions)`.
 *
 * @example
 * ```ts
 * const fromMemory: Lister<Book> = books; // a Collection<Book>
 * const fromSql: Lister<Book> = (request) => listFromSql(request, { table, pageTokens, run });
 * ```
 */
export type Lister<T extends object> =
  | Pick<Collection<T>, 'list'>
  | ((request: ListRequest) => Promise<ListPage<T>>);

/**
 * Options of {@link toListResponse}.
 *
 * @example
 * ```ts
 * const options: ListResponseOptions = { itemsField: 'books' };
 * ```
 */
export interface ListResponseOptions<F extends string = 'items'> {
  /** The repeated field of the response: the resource's plural (`books`); `items` by default, as Compute's. */
  itemsField?: F;
  /** `aip` (the default) always writes the items field; `compute` only when there are items. */
  style?: ListStyle;
  /** @deprecated Use `style`; read only when `style` is absent. */
  dialect?: ListStyle;
}

/**
 * A list response: the items under their field and `nextPageToken` when there is another page.
 *
 * @example
 * ```ts
 * const response: ListResponse<Book> = { books: [book], nextPageToken: 'CiAK…' };
 * ```
 */
export type ListResponse<T, F extends string = 'items'> = { [K in F]?: T[] } & {
  nextPageToken?: string;
};

/**
 * A page in the response shape of the style: `{ books: [...], nextPageToken }` for AIP
 * (the token only when there is another page, AIP-158), `{ items, nextPageToken }` for Compute
 * (which, like Compute Engine, leaves `items` out of an empty page).
 *
 * @example
 * ```ts
 * toListResponse(await books.list(request), { itemsField: 'books' });
 * // { books: [{ name: 'books/1', … }], nextPageToken: 'CiAK…' }
 * toListResponse({ items: [] }, { style: 'compute' }); // {}
 * ```
 */
export function toListResponse<T, F extends string = 'items'>(
  page: ListPage<T>,
  options: ListResponseOptions<F> = {},
): ListResponse<T, F> {
  const style = styleOf(options);
  const field = options.itemsField ?? 'items';
  const response: Record<string, unknown> = {};
  if (style === 'aip' || page.items.length > 0) response[field] = page.items;
  if (page.nextPageToken) response.nextPageToken = page.nextPageToken;
  return response as ListResponse<T, F>;
}

/**
 * Options of {@link runListRequest}: how to read the request, what to bind page tokens to,
 * and how to write the response.
 *
 * @example
 * ```ts
 * const options: RunListRequestOptions = { itemsField: 'books', maxPageSize: 100, parent: 'shelves/1' };
 * ```
 */
export interface RunListRequestOptions<F extends string = 'items'>
  extends ReadListRequestOptions,
    ListResponseOptions<F> {
  /** The collection listed, bound into page tokens (such as `shelves/1`). */
  parent?: string;
  /** Anything else page tokens are bound to, such as the principal. */
  context?: Readonly<Record<string, string>>;
}

/**
 * One list call from request to response: {@link readListRequest}, then the lister (a
 * Collection or `listFromSql`), then {@link toListResponse}. Throws what they throw; answer it
 * with {@link toGoogleError}.
 *
 * @example
 * ```ts
 * const books = new Collection<Book>(schema, { pageTokens: await PageTokenCodec.create() });
 * const response = await runListRequest(new URLSearchParams('filter=year>2000'), books, {
 *   itemsField: 'books',
 * });
 * // { books: [...], nextPageToken?: '…' }
 * ```
 */
export async function runListRequest<T extends object, F extends string = 'items'>(
  source: ListRequestSource,
  lister: Lister<T>,
  options: RunListRequestOptions<F> = {},
): Promise<ListResponse<T, F>> {
  const { skip, readMask, fields, ...read } = readListRequest(source, options);
  const request: ListRequest = { ...read };
  if (options.parent !== undefined) request.parent = options.parent;
  if (options.context !== undefined) request.context = options.context;
  // skip, read_mask and fields (mask-and-skip.ts); the masks are checked before anything is read.
  const itemsField = options.itemsField ?? 'items';
  const schema = options.schema ?? (lister as { schema?: ResourceSchema }).schema;
  const masks = listMasks({ readMask, fields }, schema, itemsField);
  const list = (r: ListRequest) => (typeof lister === 'function' ? lister(r) : lister.list(r));
  const page = await listSkipping(list, request, skip ?? 0);
  return applyListMasks(toListResponse(page, options), masks, itemsField);
}
