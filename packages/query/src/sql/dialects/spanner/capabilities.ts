import type { SqlDialectCapabilities } from '../../dialect.js';
import { spannerOwnColumnTypes } from './own-columns.js';

/** What Cloud Spanner (GoogleSQL) decides exactly: see docs/sql.md, "Spanner". */
export const spannerCapabilities: SqlDialectCapabilities = {
  // Spanner orders NULL below every value, as the in-memory engine does (and has no NULLS clause).
  nullsSortLow: true,
  // REGEXP_CONTAINS is RE2 itself: a pattern anchored as a full match means what it means in memory.
  regex: 're2',
  // Spanner's RE2 refuses programs past its memory budget (an engine error): larger patterns
  // are narrowed and decided in memory. Far below the budget; re2js counts the instructions.
  regexProgramLimit: 10_000,
  // JSON has no containment operator an index answers: maps and lists are walked (JSON_QUERY_ARRAY).
  jsonContainment: false,
  // No session setting bounds a statement: the runner gives each page's read a deadline.
  statementTimeout: false,
  ownTables: true,
  ownColumnTypes: spannerOwnColumnTypes,
  // A secondary index lists columns only.
  expressionIndexes: false,
  // The resource in a JSON column.
  documentTypes: ['json'],
  // What the emulator and Spanner refuse past (checked on the emulator: docs/sql.md, "Spanner").
  limits: { parameters: 950, nesting: 75, functions: 1000, textLength: 1_048_576 },
};
