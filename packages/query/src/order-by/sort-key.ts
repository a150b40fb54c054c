import { compareStrings } from '../schema/compare-strings.js';
import { parseDuration } from '../schema/duration.js';
import type { FieldType } from '../schema/field-type.js';
import { parseInt64 } from '../schema/int64.js';
import { parseTimestamp } from '../schema/timestamp.js';

/**
 * One field's value in a form that orders correctly and survives JSON (page tokens carry it):
 * strings as themselves, int64 as a bigint in decimal text tagged `i`, doubles as numbers (and
 * ±Infinity, which JSON cannot hold, as `{x: 'Infinity'}` / `{x: '-Infinity'}`), bools
 * as 0/1, enums as their declared index, timestamps and durations as `[seconds, nanos]`.
 * `null` is "no value" and sorts before every value.
 *
 * @example
 * ```ts
 * const key = parseOrderBy('size desc', schema).sortKey({ name: 'a', size: '12' });
 * key; // [{ i: '12' }, 'a'] — an int64 as exact text, then the name
 * ```
 */
export type SortValue =
  | string
  | number
  | { i: string }
  | { x: 'Infinity' | '-Infinity' }
  | [number, number]
  | null;

/** Converts a resource's field value to its {@link SortValue}, following proto3 defaults. */
export function toSortValue(type: FieldType, value: unknown): SortValue {
  switch (type.kind) {
    case 'string':
      return typeof value === 'string' ? value : value === undefined ? '' : null;
    case 'int64': {
      const n = value === undefined ? 0n : parseInt64(value);
      return n === undefined ? null : { i: n.toString() };
    }
    case 'double':
      if (typeof value === 'number') {
        if (Number.isFinite(value)) return value;
        if (Number.isNaN(value)) return null;
        return { x: value > 0 ? 'Infinity' : '-Infinity' };
      }
      return value === undefined ? 0 : null;
    case 'bool':
      return value === true ? 1 : 0;
    case 'enum': {
      const index = typeof value === 'string' ? type.values.indexOf(value) : -1;
      return index < 0 ? null : index;
    }
    case 'timestamp': {
      const t = typeof value === 'string' ? parseTimestamp(value) : undefined;
      return t ? [t.seconds, t.nanos] : null;
    }
    case 'duration': {
      const d = typeof value === 'string' ? parseDuration(value) : undefined;
      return d ? [d.seconds, d.nanos] : null;
    }
    default:
      return null;
  }
}

/** Orders two sort values of the same field: negative, zero or positive. */
export function compareSortValues(a: SortValue, b: SortValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'number' || 'x' in a) {
    const x = asDouble(a);
    const y = asDouble(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (Array.isArray(a)) {
    const [bs, bn] = b as [number, number];
    return a[0] !== bs ? a[0] - bs : a[1] - bn;
  }
  const x = BigInt(a.i);
  const y = BigInt((b as { i: string }).i);
  return x < y ? -1 : x > y ? 1 : 0;
}

function asDouble(v: SortValue): number {
  return typeof v === 'number' ? v : Number((v as { x: string }).x);
}

/** Whether a decoded JSON value has the shape of a {@link SortValue} (page tokens are checked). */
export function isSortValue(v: unknown): v is SortValue {
  if (v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
    return true;
  if (Array.isArray(v)) return v.length === 2 && v.every((n) => Number.isSafeInteger(n));
  if (typeof v !== 'object' || Object.keys(v).length !== 1) return false;
  const { i, x } = v as { i?: unknown; x?: unknown };
  return (typeof i === 'string' && /^-?\d{1,19}$/.test(i)) || x === 'Infinity' || x === '-Infinity';
}
