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
  /** Replaces every order by these, synchronously (a restore). */
  load(orders: readonly OrderState[]): void;
} {
  const orders = new Map<string, OrderState>();
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
    load: (loaded) => {
      orders.clear();
      for (const order of loaded)
        orders.set(orderKey(order.packageName, order.orderId), copy(order));
    },
    clear: () => orders.clear(),
  };
}
