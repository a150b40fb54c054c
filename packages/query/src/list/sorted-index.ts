import BTreeExport from 'sorted-btree';

/**
 * `sorted-btree` is CommonJS with `exports.default = BTree`. Bundlers and vitest unwrap that
 * default; Node's own ESM loader (and esbuild's Node-mode interop in our dist) hand over the
 * whole exports object instead, so take the class from whichever arrived.
 */
const BTree: typeof BTreeExport =
  (BTreeExport as unknown as { default?: typeof BTreeExport }).default ?? BTreeExport;
type BTree<K, V> = BTreeExport<K, V>;

/** Returned from a range callback to stop the scan (one shared object: no allocation). */
const STOP = { break: true } as const;

/**
 * Items ordered by key in a B+ tree (`sorted-btree`): insert, delete and seek in O(log n), and
 * an in-order scan from any position that walks leaves of up to 32 entries. It replaced a skip
 * list that cost about twice as much per insert at a million items (BENCHMARKS.md, "Index writes").
 *
 * @example
 * ```ts
 * const index = new SortedIndex<number, string>((a, b) => a - b);
 * index.insert(2, 'b');
 * index.insert(1, 'a');
 * [...index.scan(1)]; // ['b']
 * ```
 */
export class SortedIndex<K, T> {
  private tree: BTree<K, T>;

  constructor(private readonly compare: (a: K, b: K) => number) {
    this.tree = new BTree<K, T>(undefined, compare);
  }

  /**
   * An independent index of the same items, in O(1): the B+ tree's nodes are shared and copied
   * on write, by whichever of the two changes a node first.
   */
  copy(): SortedIndex<K, T> {
    const copy = new SortedIndex<K, T>(this.compare);
    copy.tree = this.tree.clone();
    return copy;
  }

  get size(): number {
    return this.tree.size;
  }

  /** Adds an item; its key must not already be in the index (keys end with a unique key). */
  insert(key: K, item: T): void {
    this.tree.set(key, item);
  }

  /** Removes the item with this key; returns whether there was one. */
  delete(key: K): boolean {
    return this.tree.delete(key);
  }

  /** Items in order, starting after `after` (exclusive) or at the beginning. */
  *scan(after?: K): Generator<T> {
    const low = after ?? this.tree.minKey();
    if (low === undefined) return;
    for (const [key, item] of this.tree.entries(low)) {
      if (after === undefined || this.compare(key, after) > 0) yield item;
    }
  }

  /**
   * Calls `visit` for each item in order after `after` (or from the beginning) until it returns
   * false. A plain callback loop over the leaves: several times faster than iterating
   * {@link scan} on hot paths.
   */
  visitAfter(after: K | undefined, visit: (item: T) => boolean): void {
    this.visitRange(after, undefined, visit);
  }

  /** Calls `visit` for each item in order from `from` (inclusive) until it returns false. */
  visitFrom(from: K, visit: (item: T) => boolean): void {
    const high = this.tree.maxKey();
    if (high === undefined || this.compare(from, high) > 0) return;
    this.tree.forRange(from, high, true, (_key, item) => (visit(item) ? undefined : STOP));
  }

  /**
   * Calls `visit` for each item whose key is after `after` (exclusive; or from the beginning)
   * and not after `upTo` (inclusive; or to the end), in order, until it returns false.
   */
  visitRange(after: K | undefined, upTo: K | undefined, visit: (item: T) => boolean): void {
    const tree = this.tree;
    const low = after ?? tree.minKey();
    const high = upTo ?? tree.maxKey();
    if (low === undefined || high === undefined || this.compare(low, high) > 0) return;
    const compare = this.compare;
    // Keys ascend, so only the first key can equal `after`; compare just that one.
    let first = after !== undefined;
    tree.forRange(low, high, true, (key, item) => {
      if (first) {
        first = false;
        if (compare(key, low) === 0) return undefined;
      }
      return visit(item) ? undefined : STOP;
    });
  }
}
