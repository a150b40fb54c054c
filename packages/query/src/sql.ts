// @listkit/query/sql: list calls planned for PostgreSQL, SQLite, MySQL, MariaDB and Cloud
// Spanner. Pure: no I/O, no drivers (a runner takes the driver's object).

export type {
  AddParameter,
  JsonSql,
  OwnColumnInput,
  OwnColumnSql,
  PatternPiece,
  SqlDialect,
  SqlDialectCapabilities,
  SqlDialectName,
  SqlParamType,
  SqlStatementLimits,
} from './sql/dialect.js';
export {
  type Mysql2Connection,
  type Mysql2Pool,
  mysql2Runner,
} from './sql/dialects/mysql/runner.js';
export {
  type PgClient,
  type PgliteDatabase,
  type PgPool,
  pgliteRunner,
  pgRunner,
} from './sql/dialects/postgres/runner.js';
export {
  type SpannerDatabase,
  type SpannerRunnerOptions,
  spannerRunner,
} from './sql/dialects/spanner/runner.js';
export { type SqliteDatabase, sqliteRunner } from './sql/dialects/sqlite/runner.js';
export { sqlDialect } from './sql/dialects.js';
export { listFromSql, type SqlListOptions, type SqlRunner } from './sql/list-from-sql.js';
export {
  DEFAULT_SCAN_BUDGET,
  listStatementSettings,
  planListQuery,
  readPlannedPage,
  type SqlListPlan,
  type SqlListQuery,
  type SqlPlanOptions,
  type SqlStatement,
  simpleQueryText,
} from './sql/plan.js';
export {
  MAX_PUSHDOWN_REGEX_SIZE,
  regexLiteralFragments,
  regexLiteralPrefix,
  regexPushdownSize,
  translateRegex,
} from './sql/regex-translation.js';
export { type SuggestIndexesOptions, suggestIndexes } from './sql/suggested-indexes.js';
export {
  type SqlColumn,
  type SqlColumnSpec,
  type SqlColumnType,
  type SqlInexactColumn,
  type SqlTable,
  type SqlTableOptions,
  sqlTable,
} from './sql/table.js';
