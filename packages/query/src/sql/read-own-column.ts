import { checkValue, invalid } from '../schema/check-resource.js';
import type { SqlColumn } from './table-types.js';

/**
 * One column of a row of a table of your own, as the resource's field value. The planner
 * selects each column as text in the engine's canonical form (int64 and doubles as decimal text,
 * booleans as `true`/`false`, maps and lists as JSON text), which is read here; any other value
 * must already be of the field's type, or, with `coerce`, a shape a driver produces (see
 * `CheckResourceOptions.coerce`). Throws a `ListkitError` naming the column's path, the value
 * and the type expected: a value is never silently read as another (`'abc'` as NaN, `1` as false).
 */
export function readOwnColumn(column: SqlColumn, raw: unknown, coerce: boolean): unknown {
  const { type, path } = column;
  switch (type.kind) {
    case 'int64':
      // A driver that did not get text: a safe integer number is exact, as decimal text.
      return typeof raw === 'number' && Number.isSafeInteger(raw)
        ? String(raw)
        : checkValue(type, raw, path, coerce);
    case 'double':
      if (typeof raw === 'string' && DOUBLE_TEXT.test(raw)) return Number(raw);
      return checkValue(type, raw, path, coerce);
    case 'bool':
      if (raw === 'true' || raw === 't') return true;
      if (raw === 'false' || raw === 'f') return false;
      if (coerce && (raw === '1' || raw === '0')) return raw === '1';
      return checkValue(type, raw, path, coerce);
    case 'map':
    case 'repeated':
      return checkValue(type, typeof raw === 'string' ? parseJson(raw, path) : raw, path, coerce);
    default:
      return checkValue(type, raw, path, coerce);
  }
}

/** Decimal text, and PostgreSQL's text of the special doubles. */
const DOUBLE_TEXT = /^([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|NaN|-?Infinity)$/;

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return invalid(path, text, 'JSON text');
  }
}
