import { Refusal } from '../core/refusal.js';
import { insertRows } from '../db/sql-bulk-insert.js';
import type { SqlSession } from '../db/sql-database.js';
import type { SqlStoreContext } from '../db/sql-store-context.js';
import type { OrderState } from './order.js';
import type { OrderStore } from './order-store.js';

/**
 * Android Publisher orders in PostgreSQL; a refund is a conditional update, so of concurrent
 * refunds (in any process) exactly one wins.
 *
 * @example
 * ```ts
 * const orders = sqlOrderStore(sqlStoreContext(db, statistics, { pageTokens }));
 * ```
 */
export function sqlOrderStore({ tx, writeTx }: SqlStoreContext): OrderStore {
  return {
    put: (order) =>
      writeTx([], async (session) => {
        await session.query(
          `INSERT INTO orders (package_name, order_id, state, refunded) VALUES ($1, $2, $3, $4)
ON CONFLICT (package_name, order_id) DO UPDATE SET state = EXCLUDED.state, refunded = EXCLUDED.refunded`,
          [order.packageName, order.orderId, JSON.stringify(order), order.refund !== undefined],
        );
      }),
    get: (packageName, orderId) =>
      tx(async (session) => {
        const rows = await session.query<{ state: string }>(
          'SELECT state::text AS state FROM orders WHERE package_name = $1 AND order_id = $2',
          [packageName, orderId],
        );
        return rows[0] ? (JSON.parse(rows[0].state) as OrderState) : undefined;
      }),
    refund: (refunded) =>
      writeTx([], async (session) => {
        // Conditional: of concurrent refunds (in any process) exactly one finds refunded false.
        const rows = await session.query(
          `UPDATE orders SET state = $3, refunded = true
WHERE package_name = $1 AND order_id = $2 AND NOT refunded RETURNING 1 AS ok`,
          [refunded.packageName, refunded.orderId, JSON.stringify(refunded)],
        );
        if (rows.length > 0) return structuredClone(refunded);
        const current = await session.query<{ time: string | null }>(
          `SELECT state->'refund'->>'time' AS time FROM orders WHERE package_name = $1 AND order_id = $2`,
          [refunded.packageName, refunded.orderId],
        );
        if (!current[0]) {
          throw new Refusal('not_found', `order ${refunded.orderId} does not exist`);
        }
        throw new Refusal(
          'already_refunded',
          `order ${refunded.orderId} was refunded at ${current[0].time}`,
        );
      }),
    all: () => tx(readOrders),
  };
}

/**
 * Every order, read in the caller's transaction (a snapshot's).
 *
 * @example
 * ```ts
 * const orders = await readOrders(session);
 * ```
 */
export async function readOrders(session: SqlSession): Promise<OrderState[]> {
  const rows = await session.query<{ state: string }>(
    'SELECT state::text AS state FROM orders ORDER BY package_name, order_id',
  );
  return rows.map((r) => JSON.parse(r.state) as OrderState);
}

/**
 * Writes orders into a table the caller emptied (a restore's), or with `snapshot` among that
 * snapshot's rows.
 *
 * @example
 * ```ts
 * await writeOrders(session, image.orders);
 * ```
 */
export function writeOrders(
  session: SqlSession,
  orders: readonly OrderState[],
  snapshot?: string,
): Promise<void> {
  return insertRows(
    session,
    'orders',
    ['package_name', 'order_id', 'state', 'refunded'],
    orders.map((order) => [
      order.packageName,
      order.orderId,
      JSON.stringify(order),
      order.refund !== undefined,
    ]),
    snapshot,
  );
}
