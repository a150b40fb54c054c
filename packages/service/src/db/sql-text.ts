import type { SqlColumn } from '@listkit/query/sql';

/**
 * `name type [COLLATE "C"] [NOT NULL]`, as sqlTable lays the column out.
 *
 * @example
 * ```ts
 * columnDefinition(rulesTable.column('name')!); // '"name" text COLLATE "C" NOT NULL'
 * ```
 */
export const columnDefinition = (c: SqlColumn) =>
  `${c.name} ${c.sqlType}${c.sqlType === 'text' ? ' COLLATE "C"' : ''}${c.nullable ? '' : ' NOT NULL'}`;

/**
 * `$from, $from+1, …` for `count` values.
 *
 * @example
 * ```ts
 * placeholders(3, 2); // '$2, $3, $4'
 * ```
 */
export const placeholders = (count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');
