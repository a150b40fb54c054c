import type { SqlDialectCapabilities } from '../../dialect.js';
import { mysqlOwnColumnTypes } from './own-columns.js';

/** What MySQL 8 and MariaDB 10.11+ decide exactly: see docs/sql.md, "MySQL and MariaDB". */
export const mysqlCapabilities: SqlDialectCapabilities = {
  // Both order NULL below every value, as the in-memory engine does (and have no NULLS clause).
  nullsSortLow: true,
  // MySQL's REGEXP is ICU, MariaDB's PCRE2: one statement text would have to mean what RE2
  // means in both, and they differ from RE2 and from each other (case folding under `(?i)`,
  // `\b`/`\w` over Unicode, `.` and `\n`, `\pL`): regex filters run in memory.
  regex: 'none',
  // No JSON index either engine shares (MySQL's multi-valued indexes are not MariaDB's):
  // map and list tests walk JSON_TABLE.
  jsonContainment: false,
  // MySQL's MAX_EXECUTION_TIME hint, MariaDB's SET STATEMENT max_statement_time … FOR.
  statementTimeout: true,
  ownTables: true,
  ownColumnTypes: mysqlOwnColumnTypes,
  // MySQL 8.0.13 indexes expressions, MariaDB only columns (one text for both: none).
  expressionIndexes: false,
  // JSON text in a LONGTEXT column (MariaDB's JSON is LONGTEXT; MySQL's binary JSON would
  // re-serialise every page).
  documentTypes: ['json'],
  // `a > x OR (a = x AND b > y)`: the form the MySQL manual's range optimizer documents turning
  // into index ranges (test/sql/mariadb.test.ts checks a page reads only its own rows).
  keysetDisjunction: true,
};
