import type { SqlDialectCapabilities } from '../../dialect.js';
import { sqliteOwnColumnTypes } from './own-columns.js';

/** What SQLite 3.38+ decides exactly: see docs/sql.md, "Dialects". */
export const sqliteCapabilities: SqlDialectCapabilities = {
  // SQLite orders NULL below every value, as the in-memory engine does.
  nullsSortLow: true,
  // No REGEXP function unless the application defines one: regex filters run in memory.
  regex: 'none',
  // No index answers JSON containment: map and list tests walk json_each.
  jsonContainment: false,
  // A statement cannot be given a time limit from SQL (only by the connection's progress handler).
  statementTimeout: false,
  ownTables: true,
  ownColumnTypes: sqliteOwnColumnTypes,
  expressionIndexes: true,
  // JSON text in a TEXT column.
  documentTypes: ['json'],
};
