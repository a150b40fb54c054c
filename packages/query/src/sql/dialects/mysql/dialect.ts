import type { SqlDialect, SqlParamType } from '../../dialect.js';
import type { SqlStatement } from '../../sql-statement.js';
import { replacePlaceholders } from '../../sql-text.js';
import { mysqlCapabilities } from './capabilities.js';
import { MYSQL_TEXT_BYTES, mysqlIdentifier, mysqlLiteral } from './literals.js';
import { mysqlOwnColumn, mysqlOwnColumnType } from './own-columns.js';

export { MYSQL_TEXT_BYTES, mysqlIdentifier, mysqlLiteral };

/** JSON and documents: UTF-8 text whose comparisons are by code point. */
const JSON_TEXT = 'LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';

/**
 * Timestamps and durations: nanoseconds as DECIMAL(21,0), exact and ordered as numbers. BIGINT
 * nanoseconds overflow in 2262 (years 0001–9999 need ±2.6 × 10^20, durations ±3.2 × 10^20),
 * DOUBLE has 53 bits, DATETIME(6) stops at microseconds and TIMESTAMP at 2038.
 */
const NANOS = 'DECIMAL(21,0)';

/** How each parameter type is made to compare as itself (a bound string has no number type). */
const CAST: Partial<Record<SqlParamType, string>> = {
  bigint: 'SIGNED',
  integer: 'SIGNED',
  numeric: 'SIGNED',
  boolean: 'SIGNED',
  float8: 'DOUBLE',
  nanos: NANOS,
};

const COLUMN_TYPE: Readonly<Record<string, string>> = {
  text: `VARBINARY(${MYSQL_TEXT_BYTES})`,
  bigint: 'BIGINT',
  'double precision': 'DOUBLE',
  boolean: 'BOOLEAN',
  integer: 'INT',
  numeric: NANOS,
  jsonb: JSON_TEXT,
  json: JSON_TEXT,
};

/** JSON text (from a document, a map or a list) as UTF-8 text compared by code point. */
const jsonText = (expr: string) => `(CONVERT(${expr} USING utf8mb4) COLLATE utf8mb4_bin)`;
/** A schema field name as a JSON path (`$."name"`), which reads any key as one key. */
const fieldPath = (name: string) => mysqlLiteral(`$.${JSON.stringify(name)}`);

/** The LIMIT the planner writes last: an integer it computed, written as a literal. */
const LIMIT = /\nLIMIT CAST\(\$(\d+) AS SIGNED\)$/;

/**
 * MySQL 8.0.17+ and MariaDB 10.11+: `?` parameters, backtick identifiers, VARBINARY strings
 * (code-point order, no padding), JSON as text read with JSON_EXTRACT, JSON_TYPE, JSON_UNQUOTE
 * and JSON_TABLE (which both have; MariaDB has no MEMBER OF), `LIKE … ESCAPE '!'` (a backslash
 * means different things under `NO_BACKSLASH_ESCAPES`), DECIMAL nanoseconds, NULL ordered low,
 * the keyset condition as a disjunction of ranges, and a time limit written into the statement
 * for each engine (MariaDB runs `/*M!…*\/`, MySQL ignores it; MySQL reads the hint, MariaDB
 * 10.11 ignores it).
 *
 * @example
 * ```ts
 * mysqlDialect.finish({ text: 'SELECT $1, $2, $1', params: ['a', 'b'] });
 * // { text: 'SELECT ?, ?, ?', params: ['a', 'b', 'a'] }
 * ```
 */
export const mysqlDialect: SqlDialect = {
  name: 'mysql',
  capabilities: mysqlCapabilities,
  quoteIdentifier: mysqlIdentifier,
  placeholder: (index, type) => {
    const cast = CAST[type];
    return cast === undefined ? `$${index}` : `CAST($${index} AS ${cast})`;
  },
  paramValue: (value, type) => {
    if (value === null) return null;
    switch (type) {
      case 'boolean':
        return value === 'true' ? '1' : '0';
      case 'jsonkey':
        return `$.${JSON.stringify(value)}`;
      default:
        return value;
    }
  },
  finish: ({ text, params }) => {
    let body = text;
    let limit = '';
    const match = LIMIT.exec(text);
    const value = match ? params[Number(match[1]) - 1] : undefined;
    if (match && typeof value === 'string' && /^[0-9]{1,15}$/.test(value)) {
      body = text.slice(0, match.index);
      limit = `\nLIMIT ${value}`;
    }
    const ordered: (string | null)[] = [];
    const written = replacePlaceholders(body, (index) => {
      ordered.push(params[index] ?? null);
      return '?';
    });
    return { text: written + limit, params: ordered };
  },
  // Every string this dialect reads is already compared by byte: VARBINARY columns, and JSON
  // text through json.text. A column of your own (parentColumn, scope) must be VARBINARY or of
  // a NO PAD binary collation too (docs/sql.md).
  codePoint: (expr) => expr,
  columnType: (sqlType) => COLUMN_TYPE[sqlType] ?? sqlType,
  tableSuffix: ' ENGINE=InnoDB',
  documentText: (document) => document,
  documentJson: (document) => document,
  matches: (expr, pattern, negated) =>
    `${expr} ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern} ESCAPE '!'`,
  patternText: (pieces) =>
    pieces.map((p) => (p === 'any' ? '%' : p.text.replace(/[!%_]/g, (c) => `!${c}`))).join(''),
  distinctFrom: (a, b) => `NOT (${a} <=> ${b})`,
  // A set of schema values (an enum's labels or indexes): one parameter each.
  inSet: (expr, values, type, add) =>
    values.length === 0 ? 'FALSE' : `${expr} IN (${values.map((v) => add(v, type)).join(', ')})`,
  json: {
    field: (expr, name) => jsonText(`JSON_EXTRACT(${expr}, ${fieldPath(name)})`),
    step: (expr, name) => jsonText(`JSON_EXTRACT(${expr}, ${fieldPath(name)})`),
    member: (expr, key) => jsonText(`JSON_EXTRACT(${expr}, ${key})`),
    hasKey: (expr, key) => `JSON_CONTAINS_PATH(${expr}, 'one', ${key}) = 1`,
    typeIs: (expr, type) => `JSON_TYPE(${expr}) = '${type.toUpperCase()}'`,
    // JSON text of one value never ends in a space: PAD SPACE cannot make two of them equal.
    literal: (json) => mysqlLiteral(json),
    text: (expr) => `CAST(JSON_UNQUOTE(${expr}) AS BINARY)`,
    integer: (expr) => `CAST(JSON_UNQUOTE(${expr}) AS SIGNED)`,
    double: (expr) => `CAST(JSON_UNQUOTE(${expr}) AS DOUBLE)`,
    isTrue: (expr) => `(${expr} = 'true')`,
    elements: (array, alias) => ({
      from: `JSON_TABLE(${array}, '$[*]' COLUMNS (v JSON PATH '$')) AS ${alias}`,
      element: jsonText(`${alias}.v`),
    }),
  },
  ownColumn: mysqlOwnColumn,
  ownColumnType: mysqlOwnColumnType,
  settings: () => undefined,
  timeLimited: (statement, timeoutMs) => mysqlTimeLimited(statement, timeoutMs),
  isTimeout: (error) => {
    const errno = (error as { errno?: unknown } | null)?.errno;
    // MariaDB ER_STATEMENT_TIMEOUT, MySQL ER_QUERY_TIMEOUT.
    return errno === 1969 || errno === 3024;
  },
};

/**
 * A SELECT with a time limit each engine reads and the other ignores: MariaDB runs the text of
 * a `/*M!…*\/` comment (SET STATEMENT max_statement_time, in seconds), MySQL skips it; MySQL
 * reads the `MAX_EXECUTION_TIME` optimizer hint (milliseconds), MariaDB 10.11 skips it.
 */
export function mysqlTimeLimited(statement: SqlStatement, timeoutMs: number): SqlStatement {
  if (!statement.text.startsWith('SELECT ')) return statement;
  const ms = Math.max(1, Math.floor(timeoutMs));
  const seconds = (ms / 1000).toFixed(3);
  return {
    text: `/*M!100300 SET STATEMENT max_statement_time=${seconds} FOR */ SELECT /*+ MAX_EXECUTION_TIME(${ms}) */ ${statement.text.slice('SELECT '.length)}`,
    params: statement.params,
  };
}
