// The SQL dialects the SQL panel offers. `@listkit/query/sql` exports their names only as a type
// (`SqlDialectName`), not as a runtime list, so they are listed here once, as a record keyed by
// that type: a name the library drops, or one it adds (MySQL, Spanner: issue 34) and this record
// lacks, is a type error, so the panel offers every dialect the library plans for.
import type { SqlDialectName } from '@listkit/query/sql';

/** Each dialect's label, by its name as `sqlTable` takes it, in menu order. */
const LABELS: Readonly<Record<SqlDialectName, string>> = {
  postgres: 'PostgreSQL',
  sqlite: 'SQLite',
  mysql: 'MySQL / MariaDB',
};

/**
 * The dialects in menu order, each with its label.
 *
 * @example
 * SQL_DIALECTS.map((d) => d.label); // ['PostgreSQL', 'SQLite', 'MySQL / MariaDB']
 */
export const SQL_DIALECTS: readonly { name: SqlDialectName; label: string }[] = Object.entries(
  LABELS,
).map(([name, label]) => ({ name: name as SqlDialectName, label }));

/** The dialect shown unless a link or the person chose another (the library's default). */
export const DEFAULT_SQL_DIALECT: SqlDialectName = 'postgres';

/**
 * Whether `name` is a dialect the panel offers (a link's `sql=` value is checked with it).
 *
 * @example
 * isSqlDialect('sqlite'); // true
 */
export function isSqlDialect(name: string): name is SqlDialectName {
  return Object.hasOwn(LABELS, name);
}

/**
 * A dialect's label for the page.
 *
 * @example
 * sqlDialectLabel('sqlite'); // 'SQLite'
 */
export const sqlDialectLabel = (name: SqlDialectName): string => LABELS[name];
