// A SQL store's whole state read at one instant and put back at once (store-image.ts).
import { RESTORE_LOCK, type SqlStoreContext } from '../db/sql-store-context.js';
import { readRuleEntries, writeRuleEntries } from '../forwarding-rules/sql-rule-image.js';
import { readOperationRecords, writeOperationRecords } from '../operations/sql-operation-store.js';
import { readOrders, writeOrders } from '../orders/sql-order-store.js';
import { readSettings, writeSettings } from '../state/sql-state-store.js';
import type { StoreImage } from './store-image.js';

/** Every table of the state, in the order a restore empties them. */
const STATE_TABLES = [
  'forwarding_rules',
  'address_pool_cursors',
  'address_pool_freed',
  'operations',
  'orders',
  'emulator_settings',
];

/**
 * Reads every table in one REPEATABLE READ transaction: one snapshot of the database, so every
 * write committed before it is read whole and none after it, while writes go on.
 *
 * @example
 * ```ts
 * const image = await captureSqlState(sql);
 * ```
 */
export function captureSqlState(sql: SqlStoreContext): Promise<StoreImage> {
  return sql.tx(async (session) => {
    await session.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    return {
      rules: await readRuleEntries(session),
      operations: await readOperationRecords(session),
      orders: await readOrders(session),
      settings: await readSettings(session),
    };
  });
}

/**
 * Replaces every table's rows by the image's in one transaction: it first takes the restore
 * lock (waiting for the writes in flight, holding new ones back), then deletes and writes. A
 * concurrent read (one statement) sees the old rows or the new; a crash before COMMIT leaves the
 * old ones whole. DELETE, not TRUNCATE: a REPEATABLE READ snapshot running beside it keeps
 * seeing the old rows (TRUNCATE is not MVCC-safe).
 *
 * @example
 * ```ts
 * await replaceSqlState(sql, image);
 * ```
 */
export function replaceSqlState(sql: SqlStoreContext, image: StoreImage): Promise<void> {
  return sql.tx(async (session) => {
    await session.query(RESTORE_LOCK);
    for (const table of STATE_TABLES) await session.query(`DELETE FROM ${table}`);
    await writeRuleEntries(session, image.rules);
    await writeOperationRecords(session, image.operations);
    await writeOrders(session, image.orders);
    await writeSettings(session, image.settings);
    sql.wrote('forwarding_rules', image.rules.length);
    sql.wrote('operations', image.operations.length);
  });
}
