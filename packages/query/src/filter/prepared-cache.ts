import type { ResourceSchema } from '../schema/field-type.js';
import type { FilterAst } from './ast.js';
import type { CheckedNode } from './checked.js';
import type { FilterLimits } from './limits.js';

/** A filter parsed, checked and printed: what a compile needs before it builds the predicate. */
export interface PreparedFilter {
  readonly ast: FilterAst;
  readonly checked: CheckedNode;
  readonly canonical: string;
}

/** Bounds of a {@link PreparedFilterCache}. */
export interface PreparedFilterCacheBounds {
  /** Most filters kept. */
  maxEntries: number;
  /** Most estimated bytes kept (see {@link estimateBytes}). */
  maxBytes: number;
}

export const DEFAULT_PREPARED_CACHE_BOUNDS: Readonly<PreparedFilterCacheBounds> = Object.freeze({
  maxEntries: 1000,
  maxBytes: 8 * 1024 * 1024,
});

/**
 * An estimate of what one cached filter holds: its key, and its tree, checked tree and canonical
 * text, which grow with the filter's length (a node and its span per few characters).
 */
export const estimateBytes = (key: string, text: string) => 2 * key.length + 64 * text.length + 512;

interface Entry {
  prepared: PreparedFilter;
  bytes: number;
}

/**
 * A least-recently-used cache of prepared filters, keyed by (schema identity, parse limits,
 * filter text), so that a page walk, which sends the same filter with every page, parses and
 * checks it once. Filters are caller input, so the cache is bounded both by count and by an
 * estimate of bytes: many distinct filters evict older ones rather than grow memory. Only
 * filters that parse and check are kept; what is kept is deeply frozen (except the schema's own
 * field types and function declarations it refers to), so sharing it between calls is safe.
 */
export class PreparedFilterCache {
  private readonly entries = new Map<string, Entry>();
  private readonly schemaIds = new WeakMap<ResourceSchema, number>();
  private nextSchemaId = 0;
  private bytes = 0;

  constructor(
    private readonly prepare: (
      text: string,
      schema: ResourceSchema,
      limits: Partial<FilterLimits> | undefined,
    ) => PreparedFilter,
    readonly bounds: Readonly<PreparedFilterCacheBounds> = DEFAULT_PREPARED_CACHE_BOUNDS,
  ) {}

  /** The prepared filter, from the cache or prepared (and then cached). Throws what prepare throws. */
  get(
    text: string,
    schema: ResourceSchema,
    limits: Partial<FilterLimits> | undefined,
  ): PreparedFilter {
    const key = this.keyOf(text, schema, limits);
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.prepared;
    }
    const prepared = deepFreeze(this.prepare(text, schema, limits));
    const bytes = estimateBytes(key, text);
    if (bytes > this.bounds.maxBytes || this.bounds.maxEntries < 1) return prepared;
    this.entries.set(key, { prepared, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.bounds.maxEntries && this.bytes <= this.bounds.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return prepared;
  }

  /** How many filters, and how many estimated bytes, are kept. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  clear() {
    this.entries.clear();
    this.bytes = 0;
  }

  private keyOf(text: string, schema: ResourceSchema, limits: Partial<FilterLimits> | undefined) {
    let id = this.schemaIds.get(schema);
    if (id === undefined) {
      id = this.nextSchemaId++;
      this.schemaIds.set(schema, id);
    }
    const limitsKey = limits
      ? `${limits.maxLength ?? ''},${limits.maxDepth ?? ''},${limits.maxTerms ?? ''}`
      : '';
    return `${id}\u0000${limitsKey}\u0000${text}`;
  }
}

/**
 * Freezes a prepared filter's own objects. A checked tree refers to the schema's field types
 * (`FieldRef.type`) and function declarations (`fn`): those belong to the caller and are left
 * as they are.
 */
function deepFreeze<T>(value: T): T {
  const walk = (v: unknown) => {
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
    Object.freeze(v);
    for (const [key, child] of Object.entries(v)) {
      if ((key === 'type' || key === 'fn') && typeof child === 'object') continue;
      walk(child);
    }
  };
  walk(value);
  return value;
}
