import type { OrderBy, SortKey } from '../order-by/order-by.js';
import type { ResourceSchema } from '../schema/field-type.js';
import { SortedIndex } from './sorted-index.js';

/**
 * A position in a declared index: the indexed value (the term) first, then the item's sort key
 * in one ordering, so the items that share a value sit together, in that ordering.
 */
export interface TermKey {
  term: string;
  order: SortKey;
}

/** Bounds that sort before and after every sort key of a term (compared by identity). */
const FIRST: SortKey = [];
const LAST: SortKey = [];

/**
 * A field declared in {@link CollectionOptions.indexes}: for each item, the terms an equality on
 * the field can match, how many items hold each term (the statistics the planner reads), and, per
 * ordering that a filtered page has used, a sorted index of (term, sort key) to seek.
 *
 * - A top-level string or enum field `f` has one term per item: its value (a string field that
 *   is unset reads as `""`, as the filter's `=` reads it; an unset enum has none).
 * - A top-level map field `m` of strings or enums has one term per entry: key and value, so
 *   `m.key = value` seeks it (an item without the key has no term for it, as `=` never
 *   matches a missing key).
 */
export class DeclaredIndex<T> {
  private readonly counts = new Map<string, number>();
  private readonly trees = new Map<string, { order: OrderBy<T>; tree: SortedIndex<TermKey, T> }>();

  private constructor(
    readonly path: string,
    readonly kind: 'field' | 'map' | 'parent',
    private readonly valueKind: 'string' | 'enum',
    private readonly parents?: { parentOf(item: T): string },
  ) {}

  /**
   * The index of a collection's parents: one term per item, the parent it is listed under
   * ({@link CollectionOptions.parentOf}), so a list scoped to one parent seeks its items in
   * the ordering instead of scanning the others.
   */
  static ofParents<T>(parents: { parentOf(item: T): string }): DeclaredIndex<T> {
    return new DeclaredIndex<T>('parent', 'parent', 'string', parents);
  }

  /** Checks a declared path against the schema; throws TypeError naming it when unusable. */
  static declare<T>(path: string, schema: ResourceSchema): DeclaredIndex<T> {
    const type = Object.hasOwn(schema.fields, path) ? schema.fields[path] : undefined;
    const valueType = type?.kind === 'map' ? type.value : type;
    if (!valueType || (valueType.kind !== 'string' && valueType.kind !== 'enum')) {
      throw new TypeError(
        `cannot index '${path}': an index is declared on a top-level string or enum field, or a top-level map of strings or enums`,
      );
    }
    return new DeclaredIndex<T>(path, type?.kind === 'map' ? 'map' : 'field', valueType.kind);
  }

  /** The term of `path = value` for a field index, or of `path.key = value` for a map index. */
  static term(value: string, mapKey?: string): string {
    return mapKey === undefined ? value : `${mapKey.length}:${mapKey}${value}`;
  }

  /** An independent copy: the counts copied, each ordering's tree shared until written. */
  copy(): DeclaredIndex<T> {
    const copy = new DeclaredIndex<T>(this.path, this.kind, this.valueKind, this.parents);
    for (const [term, count] of this.counts) copy.counts.set(term, count);
    for (const [canonical, { order, tree }] of this.trees) {
      copy.trees.set(canonical, { order, tree: tree.copy() });
    }
    return copy;
  }

  /** How many items hold this term. */
  count(term: string): number {
    return this.counts.get(term) ?? 0;
  }

  /** Whether the index has a tree for this ordering (else the first seek builds it). */
  hasOrdering(canonical: string): boolean {
    return this.trees.has(canonical);
  }

  add(item: T): void {
    for (const term of this.termsOf(item)) {
      this.counts.set(term, this.count(term) + 1);
      for (const { order, tree } of this.trees.values()) {
        tree.insert({ term, order: order.sortKey(item) }, item);
      }
    }
  }

  remove(item: T): void {
    for (const term of this.termsOf(item)) {
      const left = this.count(term) - 1;
      if (left > 0) this.counts.set(term, left);
      else this.counts.delete(term);
      for (const { order, tree } of this.trees.values()) {
        tree.delete({ term, order: order.sortKey(item) });
      }
    }
  }

  clear(): void {
    this.counts.clear();
    this.trees.clear();
  }

  /**
   * Calls `visit` for the items holding `term`, in the ordering, after the sort key `after`
   * (or from the first), until it returns false. Builds the ordering's tree on first use.
   */
  visitTerm(
    term: string,
    order: OrderBy<T>,
    after: SortKey | undefined,
    items: Iterable<T>,
    visit: (item: T) => boolean,
  ): void {
    this.tree(order, items).visitRange(
      { term, order: after ?? FIRST },
      { term, order: LAST },
      visit,
    );
  }

  private tree(order: OrderBy<T>, items: Iterable<T>): SortedIndex<TermKey, T> {
    let entry = this.trees.get(order.canonical);
    if (!entry) {
      const compareKeys = order.compareKeys;
      const tree = new SortedIndex<TermKey, T>((a, b) => {
        if (a.term !== b.term) return a.term < b.term ? -1 : 1;
        if (a.order === b.order) return 0;
        if (a.order === FIRST || b.order === LAST) return -1;
        if (a.order === LAST || b.order === FIRST) return 1;
        return compareKeys(a.order, b.order);
      });
      for (const item of items) {
        for (const term of this.termsOf(item))
          tree.insert({ term, order: order.sortKey(item) }, item);
      }
      entry = { order, tree };
      this.trees.set(order.canonical, entry);
    }
    return entry.tree;
  }

  /** The terms of an item, read the way the filter's `=` reads the field. */
  private termsOf(item: T): string[] {
    if (this.parents) return [this.parents.parentOf(item)];
    const value = (item as Record<string, unknown>)[this.path];
    if (this.kind === 'field') {
      const text = this.text(value);
      return text === undefined ? [] : [text];
    }
    if (typeof value !== 'object' || value === null) return [];
    const terms: string[] = [];
    for (const [key, entry] of Object.entries(value)) {
      const text = this.text(entry);
      if (text !== undefined) terms.push(DeclaredIndex.term(text, key));
    }
    return terms;
  }

  private text(value: unknown): string | undefined {
    if (typeof value === 'string') return value;
    return this.valueKind === 'string' ? '' : undefined;
  }
}
