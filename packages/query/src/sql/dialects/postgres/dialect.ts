import type { SqlDialect, SqlParamType } from '../../dialect.js';
import { escapeLike, quoteIdentifier, quoteLiteral } from '../../sql-text.js';
import { postgresCapabilities } from './capabilities.js';
import { postgresOwnColumn, postgresOwnColumnType } from './own-columns.js';

/** PostgreSQL's cast for each parameter type (`nanos`: numeric nanoseconds; `jsonkey`: text). */
const CAST: Readonly<Record<SqlParamType, string>> = {
  text: 'text',
  bigint: 'bigint',
  integer: 'integer',
  numeric: 'numeric',
  float8: 'float8',
  boolean: 'boolean',
  nanos: 'numeric',
  jsonb: 'jsonb',
  jsonkey: 'text',
  unknown: 'unknown',
  timestamptz: 'timestamptz',
  timestamp: 'timestamp',
  'text[]': 'text[]',
  'integer[]': 'integer[]',
};

/**
 * PostgreSQL and PGlite: `$n::type` parameters, `COLLATE "C"` for code-point order, `jsonb`
 * operators (`->`, `#>>`, `?`, `@>`) that GIN indexes answer, `LIKE … ESCAPE`, and
 * `set_config` for the statement's time limit.
 *
 * @example
 * ```ts
 * postgresDialect.placeholder(3, 'bigint'); // '$3::bigint'
 * ```
 */
export const postgresDialect: SqlDialect = {
  name: 'postgres',
  capabilities: postgresCapabilities,
  quoteIdentifier,
  placeholder: (index, type) => `$${index}::${CAST[type]}`,
  paramValue: (value) => value,
  finish: (statement) => statement,
  codePoint: (expr) => `${expr} COLLATE "C"`,
  columnType: (sqlType) => (sqlType === 'text' ? 'text COLLATE "C"' : sqlType),
  tableSuffix: '',
  documentText: (document) => `${document}::text`,
  documentJson: (document, documentType) =>
    documentType === 'json' ? `(${document}::jsonb)` : document,
  matches: (expr, pattern, negated) =>
    `${expr} ${negated ? 'NOT LIKE' : 'LIKE'} ${pattern} ESCAPE '\\'`,
  patternText: (pieces) => pieces.map((p) => (p === 'any' ? '%' : escapeLike(p.text))).join(''),
  distinctFrom: (a, b) => `${a} IS DISTINCT FROM ${b}`,
  inSet: (expr, values, type, add) =>
    type === 'text'
      ? `${expr} = ANY(${add(`{${values.map((m) => JSON.stringify(m)).join(',')}}`, 'text[]')})`
      : `${expr} = ANY(${add(`{${values.join(',')}}`, 'integer[]')})`,
  json: {
    field: (expr, name) => `(${expr} -> ${quoteLiteral(name)})`,
    step: (expr, name) => `${expr} -> ${quoteLiteral(name)}`,
    member: (expr, key) => `(${expr} -> ${key})`,
    hasKey: (expr, key) => `${expr} ? ${key}`,
    typeIs: (expr, type) => `jsonb_typeof(${expr}) = '${type}'`,
    literal: (json) => `'${json}'::jsonb`,
    text: (expr) => `(${expr} #>> '{}')`,
    integer: (expr) => `(${expr} #>> '{}')::numeric`,
    double: (expr) => `(${expr} #>> '{}')::float8`,
    isTrue: (expr) => `(${expr} = 'true'::jsonb)`,
    elements: (array, alias) => ({
      from: `jsonb_array_elements(${array}) AS ${alias}(v)`,
      element: `${alias}.v`,
    }),
  },
  ownColumn: postgresOwnColumn,
  ownColumnType: postgresOwnColumnType,
  settings: (timeoutMs) => ({
    text: `SELECT set_config('plan_cache_mode', 'force_custom_plan', true), set_config('statement_timeout', $1::text, true)`,
    params: [String(Math.max(1, Math.floor(timeoutMs)))],
  }),
};
