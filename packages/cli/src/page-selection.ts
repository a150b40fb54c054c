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
  /**
   * The same selection under `order` (a field's inferred type was widened), the matches kept so
   * far offered again; undefined when it has passed over a match (out of the top k, or before
   * the cursor) that the new order might have kept.
   */
  reorder(order: OrderBy<object>): PageSelection | undefined;
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
    reorder() {
      return this;
    },
  };
}

/** A new selection of `order` holding `kept` again; undefined when something was passed over. */
function reordered(
  order: OrderBy<object>,
  pageSize: number | undefined,
  kept: Iterable<{ record: object; position: number }>,
  passedOver: boolean,
): PageSelection | undefined {
  if (passedOver) return undefined;
  const selection = orderedPage(order, pageSize, undefined);
  for (const { record, position } of kept) selection.offer(record, position);
  return selection;
}

/** Matches in `order`, then input position (records may share a key). */
export function orderedPage(
  order: OrderBy<object>,
  pageSize: number | undefined,
  cursor: Cursor | undefined,
): PageSelection {
  const compare = (a: Cursor, b: Cursor) =>
    order.compareKeys(a.key, b.key) || a.position - b.position;
  // A cursor's key was made under the order of the earlier page: matches before it are passed
  // over from the start.
  let passedOver = cursor !== undefined;
  if (pageSize === undefined) {
    const all: Candidate[] = [];
    return {
      offer(record, position) {
        const candidate = { record, position, key: order.sortKey(record) };
        if (!cursor || compare(candidate, cursor) > 0) all.push(candidate);
        return true;
      },
      result: () => ({ items: all.sort(compare), more: false }),
      reorder: (next) => reordered(next, pageSize, all, passedOver),
    };
  }
  const best = new BTree<Cursor, object>(undefined, compare);
  const keep = pageSize + 1;
  return {
    offer(record, position) {
      const candidate = { key: order.sortKey(record), position };
      if (cursor && compare(candidate, cursor) <= 0) return true;
      if (best.size < keep) best.set(candidate, record);
      else {
        passedOver = true;
        if (compare(candidate, best.maxKey()!) < 0) {
          best.delete(best.maxKey()!);
          best.set(candidate, record);
        }
      }
      return true;
    },
    result() {
      const items = [...best.entries()].map(([k, record]) => ({ ...k, record }));
      return { items: items.slice(0, pageSize), more: items.length > pageSize };
    },
    reorder: (next) =>
      reordered(
        next,
        pageSize,
        [...best.entries()].map(([k, record]) => ({ record, position: k.position })),
        passedOver,
      ),
  };
}
