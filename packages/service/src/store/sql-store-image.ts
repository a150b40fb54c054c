// A SQL store's whole state read at one instant and put back at once (store-image.ts).
import { snapshotTable } from '../db/sql-bulk-insert.js';
import type { SqlSession } from '../db/sql-database.js';
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
 * The state tables whose rows an image holds (the address pools follow from the rules'); each
 * has a copy, `listkit_snapshot_<table>` (schema version 6), keeping every snapshot's rows.
 */
export const IMAGE_TABLES = ['forwarding_rules', 'operations', 'orders', 'emulator_settings'];

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

/**
 * Writes an image's rows as a kept snapshot's (replacing the rows kept under that name), in the
 * caller's transaction: the rows a restore copies back. A row the tables refuse (a value of the
 * wrong type) fails the transaction, so a snapshot is kept whole or not at all.
 *
 * @example
 * ```ts
 * await keepSnapshotRows(session, 'seeded', image);
 * ```
 */
export async function keepSnapshotRows(
  session: SqlSession,
  name: string,
  image: StoreImage,
): Promise<void> {
  for (const table of IMAGE_TABLES) {
    await session.query(`DELETE FROM ${snapshotTable(table)} WHERE snapshot = $1`, [name]);
  }
  await writeRuleEntries(session, image.rules, name);
  await writeOperationRecords(session, image.operations, name);
  await writeOrders(session, image.orders, name);
  await writeSettings(session, image.settings, name);
  // Fresh statistics: a restore's anti-joins are planned from them (hash joins, not sorts).
  for (const table of IMAGE_TABLES) await session.query(`ANALYZE ${snapshotTable(table)}`);
}

/** An image table's columns (quoted, in order) and its primary key's, from the catalog. */
interface TableShape {
  columns: string[];
  key: string[];
}

const shapes = new Map<string, TableShape>();

/** Read once per process: the schema is this build's. */
async function shapeOf(sql: SqlStoreContext, table: string): Promise<TableShape> {
  let shape = shapes.get(table);
  if (!shape) {
    const rows = await sql.statement<{ name: string; key: boolean }>(
      `SELECT quote_ident(a.attname) AS name, coalesce(a.attnum = ANY (i.indkey), false) AS key
FROM pg_attribute a LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [table],
    );
    shape = { columns: rows.map((r) => r.name), key: rows.filter((r) => r.key).map((r) => r.name) };
    shapes.set(table, shape);
  }
  return shape;
}

/**
 * How long a restore's text may run on PGlite (whose default bounds one statement at 60 s): it
 * copies up to a whole snapshot back in one text, and a snapshot is bounded by
 * `snapshotLimits.bytes` (10^5 rules, about 80 MB, took minutes on a loaded machine).
 */
const RESTORE_TIMEOUT_MS = 15 * 60 * 1000;

/**
 * A restore's joins read each table once (hash or merge joins), never once per row. The planner
 * plans from the tables' statistics, and those lag a bulk write: PGlite has no autovacuum, and
 * PostgreSQL's runs later. Right after an import the state tables were last analysed empty, so
 * the `INSERT … SELECT … WHERE NOT EXISTS` copying the snapshot back was planned as a nested loop
 * that scans the table it is filling once per row it inserts: 10^4 rules took 10.7 s on PGlite,
 * 10^5 more than 15 minutes (BENCHMARKS.md "Snapshot restore"). `SET LOCAL`: for this
 * transaction only.
 */
const WHOLE_TABLE_JOINS = 'SET LOCAL enable_nestloop = off';

/** Whether the snapshot ($1) taken at $2 is kept: each statement of a restore asks it. */
const KEPT = 'EXISTS (SELECT 1 FROM listkit_snapshots WHERE name = $1 AND taken_at = $2)';

/**
 * The two statements that make `table` hold exactly the snapshot's rows: delete the rows the
 * snapshot has not (by key) or has otherwise (any column), then insert the snapshot's rows the
 * table then lacks. Rows a test left as they were are not written at all. Each counts the rows
 * it wrote.
 */
function syncStatements(table: string, { columns, key }: TableShape): string[] {
  const kept = snapshotTable(table);
  const sameKey = key.map((c) => `k.${c} = t.${c}`).join(' AND ');
  const row = (alias: string) => `(${columns.map((c) => `${alias}.${c}`).join(', ')})`;
  const counted = (write: string) =>
    `WITH written AS (${write} RETURNING 1) SELECT count(*)::text AS rows FROM written`;
  return [
    counted(
      `DELETE FROM ${table} AS t WHERE ${KEPT} AND NOT EXISTS (SELECT 1 FROM ${kept} AS k WHERE k.snapshot = $1 AND ${sameKey} AND ${row('k')} IS NOT DISTINCT FROM ${row('t')})`,
    ),
    counted(
      `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${columns.map((c) => `k.${c}`).join(', ')} FROM ${kept} AS k WHERE ${KEPT} AND k.snapshot = $1 AND NOT EXISTS (SELECT 1 FROM ${table} AS t WHERE ${sameKey})`,
    ),
  ];
}

/**
 * Returns to a kept snapshot: as {@link replaceSqlState}, atomically behind the restore lock,
 * but from the snapshot's rows kept in the database, and writing only what differs: per table,
 * the rows changed or added since are deleted and the snapshot's missing ones copied back
 * (`INSERT … SELECT`). A test that changed a few rules costs a restore a few row writes, and no
 * dead rows pile up (deleting and inserting every row made each restore slower than the last
 * until a vacuum: decisions 0075). One text, one round trip: the lock, the check that the
 * snapshot is kept, and the writes, which each do nothing when it is not. False, and nothing
 * changed, when no snapshot of that name taken at `takenAt` is kept (another process replaced
 * or deleted it meanwhile).
 *
 * @example
 * ```ts
 * if (!(await restoreSqlSnapshot(sql, 'seeded', info.takenAt))) throw new Error('gone');
 * ```
 */
export async function restoreSqlSnapshot(
  sql: SqlStoreContext,
  name: string,
  takenAt: string,
): Promise<boolean> {
  const params = [name, takenAt];
  const writes: { table: string; text: string }[] = [];
  for (const table of IMAGE_TABLES) {
    const shape = await shapeOf(sql, table);
    for (const text of syncStatements(table, shape)) writes.push({ table, text });
  }
  const results = await sql.batch(
    [
      { text: RESTORE_LOCK },
      { text: WHOLE_TABLE_JOINS },
      {
        text: 'SELECT 1 AS kept FROM listkit_snapshots WHERE name = $1 AND taken_at = $2 FOR SHARE',
        params,
      },
      // The pools' rows are positions to look at again; they follow from the rules'.
      { text: `DELETE FROM address_pool_cursors WHERE ${KEPT}`, params },
      { text: `DELETE FROM address_pool_freed WHERE ${KEPT}`, params },
      ...writes.map(({ text }) => ({ text, params })),
    ],
    { statementTimeoutMs: RESTORE_TIMEOUT_MS },
  );
  if (results[2]?.length !== 1) return false;
  writes.forEach(({ table }, i) => {
    const rows = Number((results[5 + i]?.[0] as { rows?: string } | undefined)?.rows ?? 0);
    if (table === 'forwarding_rules' || table === 'operations') sql.wrote(table, rows);
  });
  return true;
}
