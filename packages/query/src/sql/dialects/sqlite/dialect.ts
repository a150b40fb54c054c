import type { SqlDialect, SqlParamType } from '../../dialect.js';
import { quoteIdentifier, quoteLiteral, replacePlaceholders } from '../../sql-text.js';
import { sqliteCapabilities } from './capabilities.js';
import { sqliteOwnColumn, sqliteOwnColumnType } from './own-columns.js';

/**
 * Timestamps and durations as fixed-width text: the nanosecond count plus 10^21, in 22 digits.
 * SQLite's INTEGER holds 64 bits (nanoseconds since 1970 overflow in 2262, and years 0001–9999
 * need ±2.6 × 10^20) and its REAL 53 bits of mantissa; text of one width orders, by code point
 * (BINARY), exactly as the values do, for every timestamp and every proto3 duration.
 */
export function sqliteNanosText(nanos: string): string {
  return (BigInt(nanos) + NANOS_BIAS).toString().padStart(22, '0');
}
const NANOS_BIAS = 10n ** 21n;

/** Which parameters SQLite must be told to compare as numbers (a bound text has no affinity). */
const CAST: Partial<Record<SqlParamType, string>> = {
  bigint: 'INTEGER',
  integer: 'INTEGER',
  numeric: 'INTEGER',
  boolean: 'INTEGER',
  float8: 'REAL',
};

/** DDL types of listkit's layout (STRICT tables: the value must have the column's type). */
const COLUMN_TYPE: Readonly<Record<string, string>> = {
  text: 'TEXT',
  bigint: 'INTEGER',
  'double precision': 'REAL',
  boolean: 'INTEGER',
  integer: 'INTEGER',
  numeric: 'TEXT',
  jsonb: 'TEXT',
  json: 'TEXT',
};

/** A schema field name as a JSON path literal (`'$."name"'`), which `->` reads as one key. */
const fieldPath = (name: string) => quoteLiteral(`$.${JSON.stringify(name)}`);

/**
 * SQLite 3.38+: `?` parameters, BINARY (byte, so code-point) order on UTF-8 text, JSON text
 * read with `->`, `->>`, `json_type` and `json_each`, `GLOB` for wildcards (case-sensitive,
 * unlike LIKE), no regex, no statement time limit.
 *
 * @example
 * ```ts
 * sqliteDialect.finish({ text: 'SELECT $1, $2, $1', params: ['a', 'b'] });
 * // { text: 'SELECT ?, ?, ?', params: ['a', 'b', 'a'] }
 * ```
 */
export const sqliteDialect: SqlDialect = {
  name: 'sqlite',
  capabilities: sqliteCapabilities,
  quoteIdentifier,
  placeholder: (index, type) => {
    const cast = CAST[type];
    return cast === undefined ? `$${index}` : `CAST($${index} AS ${cast})`;
  },
  paramValue: (value, type) => {
    if (value === null) return null;
    switch (type) {
      case 'boolean':
        return value === 'true' ? '1' : '0';
      case 'nanos':
        return sqliteNanosText(value);
      case 'float8':
        // CAST('Infinity' AS REAL) is 0 in SQLite; an overflowing literal is its infinity.
        return value === 'Infinity' ? '9e999' : value === '-Infinity' ? '-9e999' : value;
      case 'jsonkey':
        return `$.${JSON.stringify(value)}`;
      default:
        return value;
    }
  },
  finish: ({ text, params }) => {
    const ordered: (string | null)[] = [];
    const written = replacePlaceholders(text, (index) => {
      ordered.push(params[index] ?? null);
      return '?';
    });
    return { text: written, params: ordered };
  },
  codePoint: (expr) => expr,
  columnType: (sqlType) => COLUMN_TYPE[sqlType] ?? sqlType,
  // WITHOUT ROWID: the rows live in the primary key's btree, so a page in key order reads them
  // in order instead of one rowid lookup per row (decision 0088).
  tableSuffix: ' STRICT, WITHOUT ROWID',
  documentText: (document) => document,
  documentJson: (document) => document,
  matches: (expr, pattern, negated) => `${expr} ${negated ? 'NOT GLOB' : 'GLOB'} ${pattern}`,
  // GLOB's own metacharacters stand for themselves inside brackets.
  patternText: (pieces) =>
    pieces.map((p) => (p === 'any' ? '*' : p.text.replace(/[*?[]/g, (c) => `[${c}]`))).join(''),
  distinctFrom: (a, b) => `${a} IS NOT ${b}`,
  inSet: (expr, values, type, add) =>
    `${expr} IN (SELECT value FROM json_each(${add(JSON.stringify(type === 'text' ? values : values.map(Number)), 'text')}))`,
  json: {
    field: (expr, name) => `(${expr} -> ${fieldPath(name)})`,
    step: (expr, name) => `(${expr} -> ${fieldPath(name)})`,
    member: (expr, key) => `(${expr} -> ${key})`,
    hasKey: (expr, key) => `(${expr} -> ${key}) IS NOT NULL`,
    typeIs: (expr, type) => `json_type(${expr}) = '${type === 'string' ? 'text' : type}'`,
    literal: (json) => quoteLiteral(json),
    text: (expr) => `(${expr} ->> '$')`,
    integer: (expr) => `CAST(${expr} ->> '$' AS INTEGER)`,
    double: (expr) => `CAST(${expr} ->> '$' AS REAL)`,
    isTrue: (expr) => `(json_type(${expr}) = 'true')`,
    elements: (array, alias) => ({
      from: `json_each(${array}) AS ${alias}`,
      element: `(${array} -> ${alias}.fullkey)`,
    }),
  },
  ownColumn: sqliteOwnColumn,
  ownColumnType: sqliteOwnColumnType,
  settings: () => undefined,
};
