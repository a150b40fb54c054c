import { ListkitError } from '../errors.js';
import { type CompileOptions, compileFilter } from '../filter/compile.js';
import { type OrderBy, parseOrderBy, type SortKey } from '../order-by/order-by.js';
import { toSortValue } from '../order-by/sort-key.js';
import type { PageTokenCodec } from '../page-token/page-token-codec.js';
import { lookupPath, type ResourceSchema } from '../schema/field-type.js';
import { SortedIndex } from './sorted-index.js';

/** One list call. */
export interface ListRequest {
  /** AIP-160 or regex-style filter; empty for everything. */
  filter?: string;
  /** AIP-132 orderBy; empty for the default order (by the schema key). */
  orderBy?: string;
  /** Items per page: a positive integer (see {@link resolvePageSize} for an API's rules). */
  pageSize: number;
  /** The `nextPageToken` of the previous page. */
  pageToken?: string;
  /** The collection listed (bound into page tokens), such as `projects/p/regions/r`. */
  parent?: string;
  /** Anything else page tokens are bound to, such as the project or principal. */
  context?: Readonly<Record<string, string>>;
}

/** One page of a list call. */
export interface ListPage<T> {
  items: T[];
  /** Present only when another matching item exists. */
  nextPageToken?: string;
}

/** Options of a {@link Collection}. */
export interface CollectionOptions extends CompileOptions {
  /** Seals and opens page tokens. */
  pageTokens: PageTokenCodec;
}

/**
 * An in-memory collection of resources keyed by the schema's unique key, with a sorted index
 * per ordering in use (kept up to date on every write in O(log n)), answering list calls with
 * keyset paging: a page costs a seek plus the items scanned, whatever the collection's size.
 *
 * Paging is consistent under writes between pages: the cursor is the sort key of the last item
 * returned, so an item present for the whole listing is returned exactly once, and none twice,
 * as long as the fields it is sorted by do not change (Compute Engine sorts by `name` and
 * `creationTimestamp`, which never change).
 *
 * @example
 * ```ts
 * const rules = new Collection(forwardingRuleSchema, { pageTokens: await PageTokenCodec.create() });
 * rules.put({ name: 'web-1', creationTimestamp: '2024-01-01T00:00:00Z' });
 * const page = await rules.list({ filter: 'name = web-*', pageSize: 500 });
 * ```
 */
export class Collection<T extends object> {
  private readonly items = new Map<string, T>();
  private readonly indexes = new Map<
    string,
    { order: OrderBy<T>; index: SortedIndex<SortKey, T> }
  >();

  constructor(
    readonly schema: ResourceSchema,
    private readonly options: CollectionOptions,
  ) {}

  get size(): number {
    return this.items.size;
  }

  /** The item with this key value, if any. */
  get(key: string): T | undefined {
    return this.items.get(this.identity(key));
  }

  /** All items in key order. */
  values(): T[] {
    return [...this.index('').index.scan()];
  }

  /**
   * Inserts the item, or replaces the item with the same key. Throws TypeError when the item's
   * key is missing or not of the key field's type.
   */
  put(item: T): void {
    const key = this.keyOf(item);
    const old = this.items.get(key);
    for (const { order, index } of this.indexes.values()) {
      if (old) index.delete(order.sortKey(old));
      index.insert(order.sortKey(item), item);
    }
    this.items.set(key, item);
  }

  /** Removes the item with this key; returns it, or undefined when there was none. */
  delete(key: string): T | undefined {
    const id = this.identity(key);
    const old = this.items.get(id);
    if (!old) return undefined;
    for (const { order, index } of this.indexes.values()) index.delete(order.sortKey(old));
    this.items.delete(id);
    return old;
  }

  clear(): void {
    this.items.clear();
    this.indexes.clear();
  }

  /**
   * Answers one list call: parses and checks the filter and orderBy, opens the page token,
   * seeks the ordering's index past the cursor and scans until the page is full plus one more
   * match. Throws {@link ListkitError} for a bad filter, orderBy, page size or token.
   */
  async list(request: ListRequest): Promise<ListPage<T>> {
    const { pageSize } = request;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
      const text = String(pageSize);
      throw ListkitError.of(
        'invalid_page_size',
        `page size must be a positive integer, not ${text}`,
        { start: 0, end: text.length },
        text,
      );
    }
    const order = parseOrderBy<T>(request.orderBy ?? '', this.schema);
    const filter = compileFilter<T>(request.filter ?? '', this.schema, this.options);
    try {
      const binding = {
        parent: request.parent,
        filter: filter.canonical,
        orderBy: order.canonical,
        context: request.context,
      };
      const cursor = request.pageToken
        ? await this.options.pageTokens.open(request.pageToken, binding)
        : undefined;
      if (cursor && cursor.length !== order.keyTerms.length) {
        throw ListkitError.of(
          'page_token_query_mismatch',
          'the page token belongs to a different ordering',
          { start: 0, end: 0 },
          '',
        );
      }
      const items: T[] = [];
      let more = false;
      this.index(order.canonical).index.visitAfter(cursor, (item) => {
        if (!filter.matches(item)) return true;
        if (items.length === pageSize) {
          more = true; // one match past the page: another page exists
          return false;
        }
        items.push(item);
        return true;
      });
      const last = items[items.length - 1];
      if (!more || !last) return { items };
      return {
        items,
        nextPageToken: await this.options.pageTokens.seal(order.sortKey(last), binding),
      };
    } finally {
      filter.dispose();
    }
  }

  /** The index of an ordering, built on first use and maintained from then on. */
  private index(canonical: string) {
    let entry = this.indexes.get(canonical);
    if (!entry) {
      const order = parseOrderBy<T>(canonical, this.schema, { allowed: [canonical] });
      const index = new SortedIndex<SortKey, T>(order.compareKeys);
      for (const item of this.items.values()) index.insert(order.sortKey(item), item);
      entry = { order, index };
      this.indexes.set(canonical, entry);
    }
    return entry;
  }

  /**
   * The identity of a key value: its typed sort value, so that the map and the indexes agree on
   * which values are the same key (an int64 key `"01"` is the item `"1"`).
   */
  private identity(value: unknown): string {
    const keyType = lookupPath(this.schema, this.schema.key.split('.'))!;
    const sortValue = toSortValue(keyType, value);
    if (value === undefined || sortValue === null) {
      throw new TypeError(
        `an item's ${this.schema.key} must be a ${keyType.kind}, not ${JSON.stringify(value)}`,
      );
    }
    return JSON.stringify(sortValue);
  }

  private keyOf(item: T): string {
    let value: unknown = item;
    for (const step of this.schema.key.split('.')) {
      value = (value as Record<string, unknown> | undefined)?.[step];
    }
    return this.identity(value);
  }
}

/**
 * Applies an API's page-size rules (AIP-158): unset or 0 gives the default, above the maximum is
 * coerced down, negative or non-integer is an error.
 *
 * @example
 * ```ts
 * resolvePageSize(undefined, { default: 500, max: 500 }); // 500 — Compute Engine's maxResults
 * resolvePageSize(1000, { default: 500, max: 500 });      // 500
 * ```
 */
export function resolvePageSize(
  value: number | undefined,
  rules: { default: number; max: number },
): number {
  if (value === undefined || value === 0) return rules.default;
  if (!Number.isSafeInteger(value) || value < 0) {
    const text = String(value);
    throw ListkitError.of(
      'invalid_page_size',
      `page size must be a non-negative integer, not ${text}`,
      { start: 0, end: text.length },
      text,
    );
  }
  return Math.min(value, rules.max);
}
