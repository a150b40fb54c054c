import type { EmulatorClock } from '../core/clock.js';
import { isRefusal, Refusal } from '../core/refusal.js';
import { type OrderSeed, type OrderState, orderFromSeed } from './order.js';
import type { OrderStore } from './order-store.js';

/**
 * How old an order may be and still be refunded.
 *
 * @example
 * ```ts
 * refundDeadline(Date.parse('2026-01-01T00:00:00Z')) - Date.parse('2026-01-01T00:00:00Z'); // REFUND_WINDOW_YEARS years, in ms
 * ```
 */
export const REFUND_WINDOW_YEARS = 3;

/**
 * The last instant at which an order bought at `purchaseMs` can be refunded: the same calendar
 * date and time three years later, in UTC (an order of 29 February is refundable until
 * 1 March three years later, since that year has no 29 February).
 *
 * @example
 * ```ts
 * new Date(refundDeadline(Date.parse('2024-02-29T10:00:00Z'))).toISOString(); // '2027-03-01T10:00:00.000Z'
 * ```
 */
export function refundDeadline(purchaseMs: number): number {
  const d = new Date(purchaseMs);
  d.setUTCFullYear(d.getUTCFullYear() + REFUND_WINDOW_YEARS);
  return d.getTime();
}

/**
 * The orders of every application, kept in the emulator's store, and the refund rules. Errors
 * are domain errors (`not_found`, `already_refunded`, `failed_precondition`).
 */
export class Orders {
  constructor(
    private readonly store: OrderStore,
    private readonly clock: EmulatorClock,
  ) {}

  /** Adds (or replaces) an order from a seed. */
  async add(seed: OrderSeed): Promise<OrderState> {
    const order = orderFromSeed(seed, this.clock.iso());
    if (Number.isNaN(Date.parse(order.purchaseTime))) {
      throw new Refusal(
        'invalid_argument',
        `order ${order.orderId}: purchaseTime '${order.purchaseTime}' is not RFC 3339`,
      );
    }
    await this.store.put(order);
    return order;
  }

  /** The order (an unknown package and an unknown order answer alike). */
  async get(packageName: string, orderId: string): Promise<OrderState> {
    const order = await this.store.get(packageName, orderId);
    if (!order) throw orderNotFound(packageName, orderId);
    return order;
  }

  /**
   * Refunds an order once: the store's conditional write decides between concurrent refunds, in
   * any process. `revoke` ends access now and, for a recurring subscription, stops all future
   * payments; without it the order is refunded and access is left as it is. Consumption is the
   * app's business and is not touched.
   */
  async refund(packageName: string, orderId: string, revoke: boolean): Promise<OrderState> {
    const order = await this.get(packageName, orderId);
    if (order.refund) throw alreadyRefunded(orderId, order.refund.time);
    const now = this.clock.now();
    if (now > refundDeadline(Date.parse(order.purchaseTime))) {
      throw new Refusal(
        'failed_precondition',
        `Order ${orderId} was placed at ${order.purchaseTime}, more than ${REFUND_WINDOW_YEARS} years ago; orders older than ${REFUND_WINDOW_YEARS} years cannot be refunded.`,
      );
    }
    const time = new Date(now).toISOString();
    const refunded = { ...order, refund: { time, revoke } };
    if (revoke) {
      refunded.access = 'revoked';
      refunded.accessEndTime = time;
      if (refunded.payments === 'active') refunded.payments = 'stopped';
    }
    try {
      return await this.store.refund(refunded);
    } catch (error) {
      if (!isRefusal(error, 'already_refunded')) throw error;
      const winner = await this.store.get(packageName, orderId);
      throw alreadyRefunded(orderId, winner?.refund?.time ?? time);
    }
  }

  all(): Promise<OrderState[]> {
    return this.store.all();
  }
}

/** The domain error of an unknown order (or package): one answer for both. */
export const orderNotFound = (packageName: string, orderId: string) =>
  new Refusal('not_found', `Order ${orderId} of application ${packageName} was not found.`);

const alreadyRefunded = (orderId: string, time: string) =>
  new Refusal('already_refunded', `Order ${orderId} has already been refunded (at ${time}).`);
