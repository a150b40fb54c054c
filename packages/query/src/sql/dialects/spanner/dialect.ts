import type { SqlDialect, SqlParamType } from '../../dialect.js';
import { escapeLike } from '../../sql-text.js';
import { spannerCapabilities } from './capabilities.js';
import { spannerIdentifier, spannerString } from './literals.js';
import { spannerOwnColumn, spannerOwnColumnType } from './own-columns.js';

export { spannerIdentifier, spannerString };

/** Which parameters Spanner must be told the type of: the runner binds every value as STRING. */
const CAST: Partial<Record<SqlParamType, string>> = {
  bigint: 'INT64',
  integer: 'INT64',
  numeric: 'NUMERIC',
  nanos: 'NUMERIC',
  float8: 'FLOAT64',
  boolean: 'BOOL',
  timestamptz: 'TIMESTAMP',
  timestamp: 'TIMESTAMP',
};

/**
 * DDL types of listkit's layout. Timestamps and durations are NUMERIC nanoseconds (exact: 29
 * integer digits hold ±3.2 × 10^20, a proto3 duration's range; INT64 nanoseconds end in 2262).
 */
const COLUMN_TYPE: Readonly<Record<string, string>> = {
  text: 'STRING(MAX)',
  bigint: 'INT64',
  'double precision': 'FLOAT64',
  boolean: 'BOOL',
  integer: 'INT64',
  numeric: 'NUMERIC',
  jsonb: 'JSON',
  json: 'JSON',
};

/**
 * `$n` placeholders outside quoted text (GoogleSQL's `'…'`, `"…"` and backticks, with `\`
 * escapes) as named `@pK` parameters, numbered by first appearance; the statement's final
 * `LIMIT` becomes the integer itself (GoogleSQL takes a literal or an INT64 parameter there, and
 * the runner binds every parameter as STRING).
 */
function finish(text: string, params: readonly (string | null)[]) {
  const limit = /\nLIMIT CAST\(\$(\d+) AS INT64\)$/.exec(text);
  const limitValue = limit ? params[Number(limit[1]) - 1] : undefined;
  let body = text;
  if (limit && typeof limitValue === 'string' && /^[0-9]{1,15}$/.test(limitValue)) {
    body = `${text.slice(0, limit.index)}\nLIMIT ${limitValue}`;
  }
  const numbers = new Map<number, number>();
  const ordered: (string | null)[] = [];
  let out = '';
  let at = 0;
  for (let i = 0; i < body.length; ) {
    const c = body[i]!;
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < body.length && body[j] !== c) j += body[j] === '\\' ? 2 : 1;
      i = j + 1;
      continue;
    }
    const digits = c === '$' ? /^[0-9]+/.exec(body.slice(i + 1, i + 12)) : null;
    if (!digits) {
      i++;
      continue;
    }
    const index = Number(digits[0]);
    let k = numbers.get(index);
    if (k === undefined) {
      ordered.push(params[index - 1] ?? null);
      k = ordered.length;
      numbers.set(index, k);
    }
    out += `${body.slice(at, i)}@p${k}`;
    at = i = i + 1 + digits[0].length;
  }
  return { text: out + body.slice(at), params: ordered };
}

/** Whether a pattern ends inside `\Q…` (RE2 quotes to the end of the text when no `\E` closes it). */
function endsQuoted(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '\\') continue;
    if (pattern[i + 1] === 'Q') {
      const end = pattern.indexOf('\\E', i + 2);
      if (end < 0) return true;
      i = end + 1;
    } else i++;
  }
  return false;
}

const placeholder = (index: number, type: SqlParamType) => {
  if (type === 'jsonb') return `PARSE_JSON($${index})`;
  const cast = CAST[type];
  return cast === undefined ? `$${index}` : `CAST($${index} AS ${cast})`;
};

/**
 * Cloud Spanner (GoogleSQL): `@pN` parameters bound as STRING and cast where compared as
 * another type, backtick identifiers, code-point order on STRING (no collation needed), JSON
 * read with subscripts, `JSON_TYPE`, `JSON_VALUE` and `UNNEST(JSON_QUERY_ARRAY(…))`, `LIKE`
 * with `\` escapes, `REGEXP_CONTAINS` (RE2) for regex filters, NULL ordered low, and no session
 * setting for a time limit (the runner gives each read a deadline).
 *
 * @example
 * ```ts
 * spannerDialect.finish({ text: 'SELECT $2, $1, $2', params: ['a', 'b'] });
 * // { text: 'SELECT @p1, @p2, @p1', params: ['b', 'a'] }
 * ```
 */
export const spannerDialect: SqlDialect = {
  name: 'spanner',
  capabilities: spannerCapabilities,
  quoteIdentifier: spannerIdentifier,
  placeholder,
  insertPlaceholder: placeholder,
  paramValue: (value) => value,
  finish: ({ text, params }) => finish(text, params),
  codePoint: (expr) => expr,
  columnType: (sqlType) => COLUMN_TYPE[sqlType] ?? sqlType,
  tableSuffix: '',
  tableDefinition: (table, lines, key) =>
    `CREATE TABLE IF NOT EXISTS ${table} (\n  ${lines.join(',\n  ')}\n) PRIMARY KEY (${key})`,
  documentText: (document) => `TO_JSON_STRING(${document})`,
  documentJson: (document) => document,
  matches: (expr, pattern, negated) => `${expr} ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern}`,
  // GoogleSQL's LIKE escapes with `\` (no ESCAPE clause).
  patternText: (pieces) => pieces.map((p) => (p === 'any' ? '%' : escapeLike(p.text))).join(''),
  distinctFrom: (a, b) => `(${a} IS NULL OR ${a} <> ${b})`,
  inSet: (expr, values, type, add) =>
    values.length === 0
      ? 'FALSE'
      : `${expr} IN (${values.map((v) => add(v, type === 'text' ? 'text' : 'integer')).join(', ')})`,
  json: {
    field: (expr, name) => `${expr}[${spannerString(name)}]`,
    step: (expr, name) => `${expr}[${spannerString(name)}]`,
    member: (expr, key) => `${expr}[${key}]`,
    hasKey: (expr, key) => `${expr}[${key}] IS NOT NULL`,
    typeIs: (expr, type) => `JSON_TYPE(${expr}) = '${type}'`,
    literal: (json) => `JSON ${spannerString(json)}`,
    text: (expr) => `JSON_VALUE(${expr})`,
    integer: (expr) => `SAFE_CAST(JSON_VALUE(${expr}) AS INT64)`,
    double: (expr) => `SAFE_CAST(JSON_VALUE(${expr}) AS FLOAT64)`,
    isTrue: (expr) => `(TO_JSON_STRING(${expr}) = 'true')`,
    elements: (array, alias) => ({
      from: `UNNEST(JSON_QUERY_ARRAY(${array})) AS ${alias}`,
      element: alias,
    }),
    // JSON values do not compare in GoogleSQL: their canonical text does.
    notAmong: (expr, jsons) =>
      `TO_JSON_STRING(${expr}) NOT IN (${jsons.map(spannerString).join(', ')})`,
  },
  ownColumn: spannerOwnColumn,
  ownColumnType: spannerOwnColumnType,
  settings: () => undefined,
  regexFullMatch: (expr, kind, pattern) =>
    `REGEXP_CONTAINS(${kind === 'int64' ? `CAST(${expr} AS STRING)` : expr}, ${pattern})`,
  // Anchored at the ends of the text (`\A`, `\z`: `$` would not match before a final newline,
  // but `\z` says so whatever the flags); the group keeps `|` and flags inside.
  regexPattern: (pattern) => `\\A(?:${pattern}${endsQuoted(pattern) ? '\\E' : ''})\\z`,
};
