export { LOCK_FILE, lockDataDirectory } from './data-dir-lock.js';
export { type MemoryStoreOptions, openMemoryStore } from './memory-store.js';
export { migrate, SCHEMA_VERSION } from './migrations.js';
export { openStore, type StoreLocation } from './open-store.js';
export {
  DEFAULT_PGLITE_STATEMENT_TIMEOUT_MS,
  openPgliteDatabase,
  type PgliteDatabaseOptions,
} from './pglite-database.js';
export { openPostgresDatabase, type PostgresDatabaseOptions } from './postgres-database.js';
export { regionCheckFor } from './region-check.js';
export type { SqlDatabase, SqlSession, TransactionSettings } from './sql-database.js';
export { openSqlStore, type SqlStoreOptions } from './sql-store.js';
export { isStatementTimeout, StatementTimeoutError } from './statement-timeout.js';
export * from './store.js';
export { isStoreError, StoreError, type StoreErrorCode } from './store-error.js';
