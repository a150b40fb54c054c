import type { SqlDialectCapabilities } from '../../dialect.js';
import { postgresOwnColumnTypes } from './own-columns.js';

/** What PostgreSQL (and PGlite) decide exactly: see docs/sql.md, "Dialects". */
export const postgresCapabilities: SqlDialectCapabilities = {
  // PostgreSQL orders NULL above every value; the in-memory engine below.
  nullsSortLow: false,
  // Henry Spencer's engine means what RE2 means on the portable subset (regex-translation.ts).
  regex: 'subset',
  jsonContainment: true,
  statementTimeout: true,
  ownTables: true,
  ownColumnTypes: postgresOwnColumnTypes,
  expressionIndexes: true,
  documentTypes: ['jsonb', 'json'],
};
