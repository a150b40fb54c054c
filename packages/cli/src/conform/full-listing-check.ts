// The full listing (every page at the server's default size, no filter) is the oracle's data:
// every filter, ordering and --mutate check compares with it. When that walk itself skips or
// repeats items, those checks fail for that one reason, so the report names it first, as the
// cause, and marks the failures that follow from it (issue 31: a server dropping the last item
// of each page failed 32 checks, and only the paging section pointed at why).
import type { Check, Group, Walk } from './checks.js';
import { few, repeated } from './key-lists.js';

export const FULL_LISTING_CHECK = 'the full listing lists every item once';

/** The groups whose checks compare the server's answers with the full listing. */
const COMPARED_WITH_THE_LISTING: readonly Group[] = [
  'filter',
  'ordering',
  'partial',
  'skip',
  'mutate',
];

/**
 * Whether the full listing skipped or repeated items: an item another walk lists (with page size
 * 1, 2, 7) that the full listing lacks was skipped by it (the collection does not change during
 * the read-only checks), and an item it lists twice was repeated. A skipped item is located by
 * the item before it in the walk that has it: between two pages of the full listing, or after
 * an item within one.
 *
 * @example
 * fullListingCheck(full, [{ size: 2, walk: byTwo }]).status; // 'FAIL' when full lacks an item byTwo has
 */
export function fullListingCheck(
  full: Walk,
  others: readonly { size: number | undefined; walk: Walk }[],
): Check {
  const name = FULL_LISTING_CHECK;
  const inFull = new Set(full.keys);
  const pageOf = new Map<string, number>();
  const lastOfPage = new Set<string>();
  let at = 0;
  full.pages.forEach((page, i) => {
    for (let j = 0; j < page.count; j++) pageOf.set(full.keys[at++]!, i + 1);
    if (page.count > 0 && at <= full.keys.length) lastOfPage.add(full.keys[at - 1]!);
  });
  const skipped = new Map<string, string>();
  const sizes = new Set<number>();
  for (const { size, walk } of others) {
    if (size === undefined) continue;
    let before: string | undefined; // the walk's last item that the full listing has
    for (const key of walk.keys) {
      if (inFull.has(key)) {
        before = key;
        continue;
      }
      if (skipped.has(key)) continue;
      sizes.add(size);
      const page = before === undefined ? undefined : pageOf.get(before)!;
      skipped.set(
        key,
        before === undefined || page === undefined
          ? `${key} (before its first item)`
          : lastOfPage.has(before) && page < full.pages.length
            ? `${key} (between pages ${page} and ${page + 1})`
            : `${key} (after ${before}, on page ${page})`,
      );
    }
  }
  const twice = repeated(full.keys);
  const checked = others.filter((o) => o.size !== undefined).map((o) => o.size);
  if (skipped.size === 0 && twice.length === 0) {
    return {
      group: 'paging',
      name,
      status: 'PASS',
      cause: `no item the walks with page size ${checked.join(', ')} list is missing from it, none twice`,
    };
  }
  const parts: string[] = [];
  if (skipped.size > 0) {
    parts.push(
      `it skipped ${skipped.size} items that walks with page size ${[...sizes].join(', ')} list: ${few([...skipped.values()])}`,
    );
  }
  if (twice.length > 0) parts.push(`it lists ${few(twice)} twice`);
  return {
    group: 'paging',
    name,
    status: 'FAIL',
    cause: `${parts.join('; ')}; the filter, ordering and --mutate checks compare with it, so their failures follow from this one`,
    details: {
      rootCause: true,
      skipped: [...skipped.keys()].slice(0, 20),
      repeated: twice.slice(0, 20),
    },
    ...(full.pages[0] ? { curl: full.pages[0].curl } : {}),
  };
}

/**
 * When the full listing check failed, marks each failure that compares with the listing as its
 * consequence (`details.consequenceOf`); the number marked.
 *
 * @example
 * markConsequences(checks); // 28: filter, ordering and --mutate failures that follow from it
 */
export function markConsequences(checks: Check[]): number {
  const cause = checks.find((c) => c.details?.rootCause === true && c.status === 'FAIL');
  if (!cause) return 0;
  let marked = 0;
  for (const check of checks) {
    if (check.status !== 'FAIL' || !COMPARED_WITH_THE_LISTING.includes(check.group)) continue;
    check.details = { ...check.details, consequenceOf: `${cause.group}: ${cause.name}` };
    marked++;
  }
  return marked;
}
