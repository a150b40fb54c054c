import type { PageTokenCodec } from '@listkit/query';
import type { SqlDatabase } from '../db/sql-database.js';
import { sqlStoreContext } from '../db/sql-store-context.js';
import { TableStatistics } from '../db/table-statistics.js';
import { sqlForwardingRuleStore } from '../forwarding-rules/sql-forwarding-rule-store.js';
import { sqlOperationStore } from '../operations/sql-operation-store.js';
import { sqlOrderStore } from '../orders/sql-order-store.js';
import { sqlStateStore } from '../state/sql-state-store.js';
import { migrate } from './migrations.js';
import { sqlSnapshotShelf } from './sql-snapshot-shelf.js';
import { captureSqlState, replaceSqlState, restoreSqlSnapshot } from './sql-store-image.js';
import type { EmulatorStore } from './store.js';

/**
 * Options of {@link openSqlStore}.
 *
 * @example
 * ```ts
 * const options: SqlStoreOptions = { pageTokens, listTimeoutMs: 2_000 };
 * const store = await openSqlStore(await openPgliteDatabase('/var/lib/listkit'), options);
 * ```
 */
export interface SqlStoreOptions {
  /** Processes sharing a database share the secret, so a token from one opens on another. */
  pageTokens: PageTokenCodec;
  /** Statement timeout of list calls, in ms (default 5,000). */
  listTimeoutMs?: number;
}

/** The tables list calls read, whose planner statistics PGlite keeps fresh. */
const ANALYSED_TABLES = ['forwarding_rules', 'operations'];

/**
 * The emulator's state in PostgreSQL (a server, or PGlite in this process), behind the same
 * contract as the memory store. What the database guarantees, the store uses: primary keys for
 * unique names, a transaction-scoped advisory lock per region for the clash rule and requestId
 * retries, conditional updates for fingerprints, operation versions and refund-once. Lists go
 * through `listFromSql` (filter, orderBy and cursor in SQL; the rest in this process). Runs the
 * migrations first.
 *
 * @example
 * ```ts
 * const store = await openSqlStore(await openPostgresDatabase({ url }), { pageTokens });
 * ```
 */
export async function openSqlStore(
  db: SqlDatabase,
  options: SqlStoreOptions,
): Promise<EmulatorStore> {
  await migrate(db);
  const statistics = await TableStatistics.open(db, ANALYSED_TABLES);
  const sql = sqlStoreContext(db, statistics, options);
  return {
    kind: db.kind,
    rules: sqlForwardingRuleStore(sql),
    operations: sqlOperationStore(sql),
    orders: sqlOrderStore(sql),
    state: sqlStateStore(sql),
    snapshots: sqlSnapshotShelf(sql),
    capture: () => captureSqlState(sql),
    replace: (image) => replaceSqlState(sql, image),
    restore: (name, takenAt) => restoreSqlSnapshot(sql, name, takenAt),
    reset: () =>
      sql.tx(async (session) => {
        await session.query(
          'TRUNCATE forwarding_rules, address_pool_cursors, address_pool_freed, operations, orders, emulator_settings',
        );
      }),
    close: async () => {
      await statistics.settled();
      await db.close();
    },
  };
}
