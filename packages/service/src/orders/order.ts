/**
 * An amount of money as Google APIs write it: units as a decimal string, and nanos.
 *
 * @example
 * ```ts
 * const price: Money = { currencyCode: 'EUR', units: '4', nanos: 990_000_000 }; // 4.99 EUR
 * ```
 */
export interface Money {
  currencyCode: string;
  units: string;
  nanos: number;
}

/**
 * What was bought.
 *
 * @example
 * ```ts
 * const kind: OrderKind = 'subscription';
 * ```
 */
export type OrderKind = 'oneTimeProduct' | 'subscription';

/**
 * The emulator's full state of an Android Publisher order (the control plane shows all of it;
 * `orders.get` shows the part the real API has).
 *
 * @example
 * ```ts
 * const order = (await (await fetch(`${url}/_listkit/state`)).json()).orders[0] as OrderState;
 * order.refund?.revoke; // true after a refund with ?revoke=true
 * ```
 */
export interface OrderState {
  packageName: string;
  orderId: string;
  kind: OrderKind;
  /** For a subscription: whether it renews (and so has future payments). */
  recurring: boolean;
  productId: string;
  purchaseToken: string;
  /** RFC 3339. */
  purchaseTime: string;
  price: Money;
  /** Whether the buyer can use what they bought. */
  access: 'granted' | 'revoked';
  /** When access was revoked, RFC 3339. */
  accessEndTime?: string;
  /** Future payments of a recurring subscription; `none` for everything else. */
  payments: 'active' | 'stopped' | 'none';
  /** For one-time products: consumed in the app. A refund never changes it. */
  consumed?: boolean;
  /** Set once, by the first successful refund. */
  refund?: { time: string; revoke: boolean };
}

/**
 * An order as the control plane's seed takes it: the state, with defaults for the rest.
 *
 * @example
 * ```ts
 * const seed: OrderSeed = { packageName: 'com.example.app', orderId: 'GPA.1', kind: 'subscription', recurring: true };
 * ```
 */
export type OrderSeed = Pick<OrderState, 'packageName' | 'orderId'> & Partial<OrderState>;

/** Fills an order seed's defaults (a recurring subscription's payments are active). */
export function orderFromSeed(seed: OrderSeed, nowIso: string): OrderState {
  const kind = seed.kind ?? 'oneTimeProduct';
  const recurring = kind === 'subscription' && (seed.recurring ?? true);
  return {
    kind,
    recurring,
    productId: kind === 'subscription' ? 'premium_monthly' : 'coins_100',
    purchaseToken: `token-${seed.orderId}`,
    purchaseTime: nowIso,
    price: { currencyCode: 'USD', units: '4', nanos: 990_000_000 },
    access: 'granted',
    payments: recurring ? 'active' : 'none',
    ...(kind === 'oneTimeProduct' ? { consumed: false } : {}),
    ...seed,
  };
}

/**
 * The order in the shape of the real `orders.get` answer (Android Publisher v3 `Order`): state
 * PROCESSED or REFUNDED, one line item, and the order history with its refund event.
 */
export function orderResource(order: OrderState): Record<string, unknown> {
  const zero = { currencyCode: order.price.currencyCode, units: '0', nanos: 0 };
  const lineItem: Record<string, unknown> = {
    productId: order.productId,
    listingPrice: order.price,
    total: order.price,
    tax: zero,
    ...(order.kind === 'subscription'
      ? {
          subscriptionDetails: {
            basePlanId: order.recurring ? 'monthly' : 'prepaid',
            servicePeriodStartTime: order.purchaseTime,
          },
        }
      : { oneTimePurchaseDetails: { quantity: 1 } }),
  };
  return {
    orderId: order.orderId,
    purchaseToken: order.purchaseToken,
    state: order.refund ? 'REFUNDED' : 'PROCESSED',
    createTime: order.purchaseTime,
    lastEventTime: order.refund?.time ?? order.purchaseTime,
    lineItems: [lineItem],
    total: order.price,
    tax: zero,
    orderDetails: { taxInclusive: true },
    orderHistory: {
      processedEvent: { eventTime: order.purchaseTime },
      ...(order.refund
        ? {
            refundEvent: {
              eventTime: order.refund.time,
              refundDetails: { total: order.price, tax: zero },
            },
          }
        : {}),
    },
    salesChannel: 'PLAY_STORE',
  };
}
