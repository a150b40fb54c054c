import type { OrderSeed } from './order.js';

/**
 * A handful of orders for `listkit serve`, relative to `now`: one-time products and
 * subscriptions (renewing or not), a consumed item, one bought more than three years ago (not
 * refundable) and one already refunded.
 *
 * @example
 * ```ts
 * sampleOrders(Date.now())[0].orderId; // 'GPA.3301-0000-0000-00001'
 * ```
 */
export function sampleOrders(now: number, packageName = 'com.example.app'): OrderSeed[] {
  const daysAgo = (days: number) => new Date(now - days * 86_400_000).toISOString();
  const id = (n: number) => `GPA.3301-0000-0000-${String(n).padStart(5, '0')}`;
  return [
    { packageName, orderId: id(1), kind: 'oneTimeProduct', purchaseTime: daysAgo(2) },
    {
      packageName,
      orderId: id(2),
      kind: 'oneTimeProduct',
      purchaseTime: daysAgo(40),
      consumed: true,
    },
    {
      packageName,
      orderId: id(3),
      kind: 'subscription',
      recurring: true,
      purchaseTime: daysAgo(10),
    },
    {
      packageName,
      orderId: id(4),
      kind: 'subscription',
      recurring: false,
      purchaseTime: daysAgo(200),
    },
    { packageName, orderId: id(5), kind: 'oneTimeProduct', purchaseTime: daysAgo(3 * 366 + 5) },
    {
      packageName,
      orderId: id(6),
      kind: 'oneTimeProduct',
      purchaseTime: daysAgo(30),
      refund: { time: daysAgo(20), revoke: false },
    },
  ];
}
