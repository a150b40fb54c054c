export {
  isRefusal as isStoreError,
  Refusal as StoreError,
  type RefusalCode as StoreErrorCode,
} from '../core/refusal.js';
export { LOCK_FILE, lockDataDirectory } from '../db/data-dir-lock.js';
export { openPgliteDatabase, type PgliteDatabaseOptions } from '../db/pglite-database.js';
export { openPostgresDatabase, type PostgresDatabaseOptions } from '../db/postgres-database.js';
export type {
  SqlBatchSession,
  SqlBatchStatement,
  SqlDatabase,
  SqlRows,
  SqlSession,
  SqlValue,
  TransactionSettings,
} from '../db/sql-database.js';
export { isStatementTimeout, StatementTimeoutError } from '../db/statement-timeout.js';
export { regionCheckFor, scopeCheckFor } from '../forwarding-rules/scope-check.js';
export type { ScopeRef } from '../names/resource-names.js';
export { type MemoryStoreOptions, openMemoryStore } from './memory-store.js';
export { migrate, SCHEMA_VERSION } from './migrations.js';
export { openStore, type StoreLocation } from './open-store.js';
export { openSqlStore, type SqlStoreOptions } from './sql-store.js';
export * from './store.js';
