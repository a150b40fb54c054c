// The skip list that backed listkit's SortedIndex before the B+ tree (commit d93f0cc,
// packages/query/src/list/sorted-index.ts), as plain JavaScript. Kept only so that
// test/bench/index.mjs can measure the B+ tree against it in the same run.
const MAX_LEVEL = 32;

export class SkipList {
  head;
  level = 1;
  count = 0;
  seed = 0x2545f491;

  constructor(compare) {
    this.compare = compare;
    this.head = {
      key: undefined,
      item: undefined,
      next: new Array(MAX_LEVEL).fill(null),
    };
  }

  get size() {
    return this.count;
  }

  /** Adds an item; its key must not already be in the index (keys end with a unique key). */
  insert(key, item) {
    const update = this.path(key);
    const level = this.randomLevel();
    if (level > this.level) {
      for (let i = this.level; i < level; i++) update[i] = this.head;
      this.level = level;
    }
    const node = { key, item, next: new Array(level) };
    for (let i = 0; i < level; i++) {
      node.next[i] = update[i].next[i];
      update[i].next[i] = node;
    }
    this.count++;
  }

  /** Removes the item with this key; returns whether there was one. */
  delete(key) {
    const update = this.path(key);
    const node = update[0].next[0];
    if (!node || this.compare(node.key, key) !== 0) return false;
    for (let i = 0; i < this.level; i++) {
      if (update[i].next[i] !== node) break;
      update[i].next[i] = node.next[i];
    }
    while (this.level > 1 && this.head.next[this.level - 1] === null) this.level--;
    this.count--;
    return true;
  }

  /** Items in order, starting after `after` (exclusive) or at the beginning. */
  *scan(after) {
    let node = after === undefined ? this.head.next[0] : this.firstAfter(after);
    while (node) {
      yield node.item;
      node = node.next[0];
    }
  }

  /**
   * Calls `visit` for each item in order after `after` (or from the beginning) until it returns
   * false. A plain loop: several times faster than iterating {@link scan} on hot paths.
   */
  visitAfter(after, visit) {
    let node = after === undefined ? this.head.next[0] : this.firstAfter(after);
    while (node && visit(node.item)) node = node.next[0];
  }

  /** For each level, the last node whose key is below `key`. */
  path(key) {
    const update = new Array(MAX_LEVEL);
    let node = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      let next = node.next[i];
      while (next && this.compare(next.key, key) < 0) {
        node = next;
        next = node.next[i];
      }
      update[i] = node;
    }
    return update;
  }

  firstAfter(key) {
    let node = this.head;
    for (let i = this.level - 1; i >= 0; i--) {
      let next = node.next[i];
      while (next && this.compare(next.key, key) <= 0) {
        node = next;
        next = node.next[i];
      }
    }
    return node.next[0] ?? null;
  }

  randomLevel() {
    // xorshift32; each level is kept with probability 1/4.
    let level = 1;
    for (;;) {
      this.seed ^= this.seed << 13;
      this.seed ^= this.seed >>> 17;
      this.seed ^= this.seed << 5;
      if ((this.seed & 3) !== 0 || level >= MAX_LEVEL) return level;
      level++;
    }
  }
}
