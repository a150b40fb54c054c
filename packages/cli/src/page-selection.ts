// Which matches make up the page: in input order (streamed, reading stops once the page and one
// look-ahead match are found), or in orderBy order (top-k: only pageSize + 1 candidates are ever
// held, however large the input). A page continues after the cursor of the previous page's token:
// the last item's sort key and its position in the input.
import type { OrderBy, SortKey } from '@listkit/query';
import BTreeExport from 'sorted-btree';

// sorted-btree is CommonJS with `exports.default = BTree`; Node's ESM loader hands over the
// module object, bundlers the class.
const BTree: typeof BTreeExport =
  (BTreeExport as unknown as { default?: typeof BTreeExport }).default ?? BTreeExport;

export interface Candidate {
  record: object;
  /** 0-based position in the whole input. */
  position: number;
  key: SortKey;
}

/** Where the previous page ended. */
export interface Cursor {
  key: SortKey;
  position: number;
}

export interface PageSelection {
  /** Offers a match; returns false when no later match can change the page. */
  offer(record: object, position: number): boolean;
  /** The page, in order, and whether another match follows it. */
  result(): { items: Candidate[]; more: boolean };
}

/** Matches in input order. */
export function inputOrderPage(
  pageSize: number | undefined,
  cursor: Cursor | undefined,
): PageSelection {
  const items: Candidate[] = [];
  let more = false;
  return {
    offer(record, position) {
      if (cursor && position <= cursor.position) return true;
      if (pageSize !== undefined && items.length === pageSize) {
        more = true;
        return false;
      }
      items.push({ record, position, key: [] });
      return true;
    },
    result: () => ({ items, more }),
  };
}

/** Matches in `order`, then input position (records may share a key). */
export function orderedPage(
  order: OrderBy<object>,
  pageSize: number | undefined,
  cursor: Cursor | undefined,
): PageSelection {
  const compare = (a: Cursor, b: Cursor) =>
    order.compareKeys(a.key, b.key) || a.position - b.position;
  if (pageSize === undefined) {
    const all: Candidate[] = [];
    return {
      offer(record, position) {
        const candidate = { record, position, key: order.sortKey(record) };
        if (!cursor || compare(candidate, cursor) > 0) all.push(candidate);
        return true;
      },
      result: () => ({ items: all.sort(compare), more: false }),
    };
  }
  const best = new BTree<Cursor, object>(undefined, compare);
  const keep = pageSize + 1;
  return {
    offer(record, position) {
      const candidate = { key: order.sortKey(record), position };
      if (cursor && compare(candidate, cursor) <= 0) return true;
      if (best.size < keep) best.set(candidate, record);
      else if (compare(candidate, best.maxKey()!) < 0) {
        best.delete(best.maxKey()!);
        best.set(candidate, record);
      }
      return true;
    },
    result() {
      const items = [...best.entries()].map(([k, record]) => ({ ...k, record }));
      return { items: items.slice(0, pageSize), more: items.length > pageSize };
    },
  };
}
