import type { EmulatorClock } from '../clock.js';
import { ApiError } from '../http/api-error.js';
import { type OrderSeed, type OrderState, orderFromSeed } from './order.js';

/** How old an order may be and still be refunded. */
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

const notFound = (message: string) =>
  new ApiError(404, 'notFound', message, { status: 'NOT_FOUND' });
const precondition = (message: string) =>
  new ApiError(400, 'failedPrecondition', message, { status: 'FAILED_PRECONDITION' });

/** The orders of every application, and the refund rules. */
export class Orders {
  private readonly orders = new Map<string, OrderState>();

  constructor(private readonly clock: EmulatorClock) {}

  /** Adds (or replaces) an order from a seed. */
  add(seed: OrderSeed): OrderState {
    const order = orderFromSeed(seed, this.clock.iso());
    if (Number.isNaN(Date.parse(order.purchaseTime))) {
      throw new ApiError(
        400,
        'badRequest',
        `order ${order.orderId}: purchaseTime '${order.purchaseTime}' is not RFC 3339`,
      );
    }
    this.orders.set(key(order.packageName, order.orderId), order);
    return order;
  }

  /** The order, or 404 (an unknown package and an unknown order answer alike). */
  get(packageName: string, orderId: string): OrderState {
    const order = this.orders.get(key(packageName, orderId));
    if (!order) throw notFound(`Order ${orderId} of application ${packageName} was not found.`);
    return order;
  }

  /**
   * Refunds an order, synchronously so that concurrent refunds of one order refund it once.
   * `revoke` ends access now and, for a recurring subscription, stops all future payments;
   * without it the order is refunded and access is left as it is. Consumption is the app's
   * business and is not touched.
   */
  refund(packageName: string, orderId: string, revoke: boolean): OrderState {
    const order = this.get(packageName, orderId);
    if (order.refund) {
      throw precondition(`Order ${orderId} has already been refunded (at ${order.refund.time}).`);
    }
    const now = this.clock.now();
    if (now > refundDeadline(Date.parse(order.purchaseTime))) {
      throw precondition(
        `Order ${orderId} was placed at ${order.purchaseTime}, more than ${REFUND_WINDOW_YEARS} years ago; orders older than ${REFUND_WINDOW_YEARS} years cannot be refunded.`,
      );
    }
    const time = new Date(now).toISOString();
    order.refund = { time, revoke };
    if (revoke) {
      order.access = 'revoked';
      order.accessEndTime = time;
      if (order.payments === 'active') order.payments = 'stopped';
    }
    return order;
  }

  all(): OrderState[] {
    return [...this.orders.values()].map((o) => structuredClone(o));
  }

  clear(): void {
    this.orders.clear();
  }
}

const key = (packageName: string, orderId: string) => `${packageName}\u0000${orderId}`;
