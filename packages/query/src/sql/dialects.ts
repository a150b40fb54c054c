import type { SqlDialect, SqlDialectName } from './dialect.js';
import { mysqlDialect } from './dialects/mysql/dialect.js';
import { postgresDialect } from './dialects/postgres/dialect.js';
import { sqliteDialect } from './dialects/sqlite/dialect.js';

const DIALECTS: Readonly<Record<SqlDialectName, SqlDialect>> = {
  postgres: postgresDialect,
  sqlite: sqliteDialect,
  mysql: mysqlDialect,
};

/**
 * The dialect of a name (`'postgres'` when none is given); throws on a name it does not know.
 *
 * @example
 * ```ts
 * sqlDialect('sqlite').capabilities.regex; // 'none'
 * ```
 */
export function sqlDialect(name: SqlDialectName = 'postgres'): SqlDialect {
  const dialect = Object.hasOwn(DIALECTS, name) ? DIALECTS[name] : undefined;
  if (!dialect) {
    throw new TypeError(
      `dialect must be one of ${Object.keys(DIALECTS).join(', ')}, not ${String(name)}`,
    );
  }
  return dialect;
}
