import { ListkitError } from '../errors.js';
import type { OrderBy, SortKey } from '../order-by/order-by.js';
import type { SortValue } from '../order-by/sort-key.js';
import { microsecondText, nanosText } from './column-values.js';
import type { SqlParamType } from './dialect.js';
import type { Parameters } from './sql-text.js';
import type { SqlColumn, SqlTable } from './table.js';

/** The columns of an ordering, the unique key last. */
export function orderColumns(
  table: SqlTable,
  order: OrderBy,
): { column: SqlColumn; descending: boolean }[] {
  return order.keyTerms.map((term) => {
    const column = table.column(term.path);
    if (!column || column.sqlType === 'jsonb') {
      throw new TypeError(
        `orderBy field "${term.path}" has no sortable column in ${table.name}; SQL cannot page in this order exactly`,
      );
    }
    return { column, descending: term.descending };
  });
}

/** A column as the ordering reads it: text in code-point order. */
export function sortExpression(column: SqlColumn): string {
  return column.sortValue;
}

/**
 * `ORDER BY` for an ordering: unset values (NULL) first, as the in-memory engine sorts them
 * (PostgreSQL's defaults are the opposite). Columns that are never NULL get no NULLS clause,
 * so a plain btree index serves them in either direction.
 */
export function orderByClause(table: SqlTable, order: OrderBy): string {
  return orderColumns(table, order)
    .map(({ column, descending }) => {
      const nulls = nullsClause(table, column, descending);
      // A bare name in ORDER BY means an output column first: a table of your own selects its
      // columns as text under their own names, so the table column is named with its table.
      const expr =
        column.storage !== undefined && column.sortValue === column.name
          ? `${table.name}.${column.name}`
          : sortExpression(column);
      return `${expr}${descending ? ' DESC' : ''}${nulls}`;
    })
    .join(', ');
}

/**
 * Where unset values (NULL) go, as the in-memory engine sorts them: first in ascending order,
 * last in descending. Engines that order NULL low do so without a clause; PostgreSQL needs one,
 * except on columns that are never NULL, so that a plain btree serves either direction.
 */
export function nullsClause(table: SqlTable, column: SqlColumn, descending: boolean): string {
  if (!column.sortNullable || table.dialect.capabilities.nullsSortLow) return '';
  return descending ? ' NULLS LAST' : ' NULLS FIRST';
}

/**
 * The condition "after the cursor" in the ordering, expanded per term (a row comparison cannot
 * mix directions) so that `t1 ≥ c1` is a top-level conjunct: it is logically implied by the rest
 * but lets PostgreSQL bound the index scan (without it a page at 10^6 rows scanned the whole
 * index). On columns that are never NULL: `t1 ≥ c1 AND NOT (t1 = c1 AND NOT (t2 > c2))`;
 * otherwise `t1 ≥ c1 AND (t1 > c1 OR (t1 = c1 AND (t2 > c2 OR …)))`.
 */
export function keysetCondition(
  table: SqlTable,
  order: OrderBy,
  cursor: SortKey,
  params: Parameters,
): string {
  const columns = orderColumns(table, order);
  if (cursor.length !== columns.length) throw mismatch();
  const terms = columns.map(({ column, descending }, i) => {
    const value = cursor[i]!;
    const v = sortExpression(column);
    const p = value === null ? undefined : params.add(cursorText(column, value), castOf(column));
    const after =
      p === undefined
        ? descending
          ? 'FALSE'
          : `${v} IS NOT NULL`
        : descending
          ? column.sortNullable
            ? `(${v} < ${p} OR ${v} IS NULL)`
            : `${v} < ${p}`
          : `${v} > ${p}`;
    const equal = p === undefined ? `${v} IS NULL` : `${v} = ${p}`;
    const atLeast =
      p === undefined
        ? descending
          ? `${v} IS NULL`
          : 'TRUE'
        : descending
          ? column.sortNullable
            ? `(${v} <= ${p} OR ${v} IS NULL)`
            : `${v} <= ${p}`
          : `${v} >= ${p}`;
    return { after, equal, atLeast };
  });
  if (table.dialect.capabilities.keysetDisjunction) return disjunction(terms);
  const last = terms[terms.length - 1]!.after;
  if (columns.every(({ column }) => !column.sortNullable)) {
    // after(i) = t_i ≥ c_i AND NOT (t_i = c_i AND NOT after(i+1)): the bound stays a top-level
    // conjunct, and PostgreSQL does not count its selectivity twice (the OR form made it expect
    // a tenth of the rows and prefer a bitmap scan and a sort to the ordered index scan).
    let nested = last;
    for (let i = terms.length - 2; i >= 0; i--) {
      nested = `${terms[i]!.atLeast} AND NOT (${terms[i]!.equal} AND NOT (${nested}))`;
    }
    return nested;
  }
  // With NULLs a NOT could meet an unknown: the OR form, with the redundant leading bound.
  let nested = last;
  for (let i = terms.length - 2; i >= 0; i--) {
    nested = `${terms[i]!.after} OR (${terms[i]!.equal} AND (${nested}))`;
  }
  const lead = terms[0]!.atLeast;
  return terms.length === 1 || lead === 'TRUE' ? nested : `${lead} AND (${nested})`;
}

/**
 * `after(1) OR (equal(1) AND after(2)) OR (equal(1) AND equal(2) AND after(3)) …`: one range of
 * the ordering's index per branch, which MySQL's and MariaDB's range optimizers seek.
 */
function disjunction(terms: readonly { after: string; equal: string }[]): string {
  return terms
    .map((term, i) => [...terms.slice(0, i).map((t) => t.equal), term.after].join(' AND '))
    .map((branch) => `(${branch})`)
    .join(' OR ');
}

const mismatch = () =>
  ListkitError.of(
    'pageToken',
    'page_token_query_mismatch',
    'the page token belongs to a different ordering',
    { start: 0, end: 0 },
    '',
  );

function castOf(column: SqlColumn): SqlParamType {
  const { storage } = column;
  if (storage === undefined) {
    if (column.sqlType === 'double precision') return 'float8';
    if (column.sqlType === 'numeric') return 'nanos';
    return column.sqlType as SqlParamType;
  }
  // A table of your own: by the field's kind (storage names differ by dialect).
  switch (column.type.kind) {
    case 'string':
      return 'text';
    case 'enum':
      return 'integer'; // the declared index the CASE orders by
    case 'double':
      return 'float8';
    case 'int64':
      return storage === 'numeric' || storage === 'integer' ? storage : 'bigint';
    case 'bool':
      return 'boolean';
    default:
      // Timestamps: PostgreSQL's microsecond types, or nanoseconds.
      return storage === 'timestamptz' || storage === 'timestamp' ? storage : 'nanos';
  }
}

/** A sort value as the text of its column's type. */
function cursorText(column: SqlColumn, value: Exclude<SortValue, null>): string {
  if (column.storage === 'timestamptz' || column.storage === 'timestamp') {
    // The column holds microseconds: a cursor with nanoseconds came from other data.
    if (Array.isArray(value) && value[1] % 1000 === 0) {
      return microsecondText(value[0], value[1], column.storage);
    }
    throw mismatch();
  }
  switch (column.storage === undefined ? column.sqlType : column.type.kind) {
    case 'string':
      if (typeof value === 'string') return value;
      break;
    case 'enum':
      if (typeof value === 'number' && Number.isInteger(value)) return String(value);
      break;
    case 'int64':
      if (typeof value === 'object' && 'i' in value) return value.i;
      break;
    case 'double':
      if (typeof value === 'number') return String(value);
      if (typeof value === 'object' && 'x' in value) return value.x;
      break;
    case 'bool':
      if (value === 0 || value === 1) return value === 1 ? 'true' : 'false';
      break;
    case 'timestamp':
    case 'duration':
      // A column of your own holding nanoseconds (PostgreSQL's microsecond types are above).
      if (Array.isArray(value)) return nanosText(value[0], value[1]);
      break;
  }
  if (column.storage !== undefined) throw mismatch();
  switch (column.sqlType) {
    case 'text':
      if (typeof value === 'string') return value;
      break;
    case 'bigint':
      if (typeof value === 'object' && 'i' in value) return value.i;
      break;
    case 'double precision':
      if (typeof value === 'number') return String(value);
      if (typeof value === 'object' && 'x' in value) return value.x;
      break;
    case 'boolean':
      if (value === 0 || value === 1) return value === 1 ? 'true' : 'false';
      break;
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value)) return String(value);
      break;
    case 'numeric':
      if (Array.isArray(value)) return nanosText(value[0], value[1]);
      break;
  }
  throw mismatch();
}
