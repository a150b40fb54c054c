import { Refusal } from '../core/refusal.js';
import type { OrderState } from './order.js';
import type { OrderStore } from './order-store.js';

const copy = <T>(value: T): T => structuredClone(value);
const orderKey = (packageName: string, orderId: string) => `${packageName}\u0000${orderId}`;

/**
 * Android Publisher orders in this process's memory; a refund is decided synchronously, so of
 * concurrent refunds one wins.
 *
 * @example
 * ```ts
 * const orders = memoryOrderStore();
 * await orders.put(order);
 * ```
 */
export function memoryOrderStore(): OrderStore & {
  clear(): void;
  /** Every order, copied, at this instant (synchronously: a snapshot's read). */
  entries(): OrderState[];
  /** These orders by key, copied, apart from the store ({@link adopt} puts a copy in). */
  prepare(orders: readonly OrderState[]): ReadonlyMap<string, OrderState>;
  /** Replaces every order by these (a restore), synchronously; the map given stays as it was. */
  adopt(prepared: ReadonlyMap<string, OrderState>): void;
} {
  let orders = new Map<string, OrderState>();
  return {
    put: async (order) => {
      orders.set(orderKey(order.packageName, order.orderId), copy(order));
    },
    get: async (packageName, orderId) => {
      const order = orders.get(orderKey(packageName, orderId));
      return order ? copy(order) : undefined;
    },
    refund: async (refunded) => {
      const key = orderKey(refunded.packageName, refunded.orderId);
      const current = orders.get(key);
      if (!current) {
        throw new Refusal('not_found', `order ${refunded.orderId} does not exist`);
      }
      if (current.refund) {
        throw new Refusal(
          'already_refunded',
          `order ${refunded.orderId} was refunded at ${current.refund.time}`,
        );
      }
      orders.set(key, copy(refunded));
      return copy(refunded);
    },
    all: async () => [...orders.values()].map(copy),
    entries: () => [...orders.values()].map(copy),
    prepare: (loaded) =>
      new Map(loaded.map((order) => [orderKey(order.packageName, order.orderId), copy(order)])),
    // The orders are shared: the store replaces an order, never changes one in place.
    adopt: (prepared) => {
      orders = new Map(prepared);
    },
    clear: () => orders.clear(),
  };
}
