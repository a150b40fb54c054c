import type { OrderState } from './order.js';

/**
 * Android Publisher orders.
 *
 * @example
 * ```ts
 * const order = await store.orders.get('com.example.app', 'GPA.1234-5678-9012-34567');
 * ```
 */
export interface OrderStore {
  /** Adds or replaces an order. */
  put(order: OrderState): Promise<void>;
  get(packageName: string, orderId: string): Promise<OrderState | undefined>;
  /**
   * Stores the refunded order only if the stored one has no refund yet: of concurrent refunds
   * one wins, the others get `already_refunded` (`not_found` when there is no such order).
   */
  refund(refunded: OrderState & { refund: NonNullable<OrderState['refund']> }): Promise<OrderState>;
  all(): Promise<OrderState[]>;
}
