// The values a field holds in the data, counted: what completion offers after `region = ` for a
// string field (and a map's value, `labels.env = `) when the data has few distinct values, the
// most frequent first. Counted once per data and field, and bounded: the first DATA_SCAN_LIMIT
// records, and no list once a field has more than MAX_COMPLETED_VALUES distinct values.
import type { Resource } from './datasets/dataset.js';

/** A field with more distinct values than this gets no value completion (names, ids, text). */
export const MAX_COMPLETED_VALUES = 50;
/** How many records are read for values: enough to be useful, bounded. */
export const DATA_SCAN_LIMIT = 5000;
/** How many fields' counts are kept per data set. */
const MAX_CACHED_FIELDS = 500;

export interface ValueCount {
  value: string;
  /** How many records hold it. */
  count: number;
}

const cache = new WeakMap<readonly Resource[], Map<string, ValueCount[] | undefined>>();

/** The string values at a dotted path, through nested messages, maps and repeated fields. */
function stringsAt(resource: Resource, path: string): string[] {
  let values: unknown[] = [resource];
  for (const step of path.split('.')) {
    const next: unknown[] = [];
    for (const value of values) {
      const inner =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)[step]
          : undefined;
      if (Array.isArray(inner)) next.push(...inner);
      else if (inner !== undefined) next.push(inner);
    }
    values = next;
  }
  return values.filter((v): v is string => typeof v === 'string');
}

/**
 * The distinct string values at `path` in the records, the most frequent first (ties in text
 * order), each with how many records hold it; undefined when there are more than
 * {@link MAX_COMPLETED_VALUES}.
 *
 * @example
 * valueCounts([{ region: 'Europe' }, { region: 'Asia' }, { region: 'Europe' }], 'region');
 * // [{ value: 'Europe', count: 2 }, { value: 'Asia', count: 1 }]
 */
export function valueCounts(
  resources: readonly Resource[],
  path: string,
): ValueCount[] | undefined {
  let fields = cache.get(resources);
  if (!fields) {
    fields = new Map();
    cache.set(resources, fields);
  }
  if (fields.has(path)) return fields.get(path);
  const result = countValues(resources, path);
  if (fields.size >= MAX_CACHED_FIELDS) fields.clear();
  fields.set(path, result);
  return result;
}

function countValues(resources: readonly Resource[], path: string): ValueCount[] | undefined {
  const counts = new Map<string, number>();
  for (const resource of resources.slice(0, DATA_SCAN_LIMIT)) {
    for (const value of new Set(stringsAt(resource, path))) {
      counts.set(value, (counts.get(value) ?? 0) + 1);
      if (counts.size > MAX_COMPLETED_VALUES) return undefined;
    }
  }
  return [...counts]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}
