import { type MessageType, t } from '@listkit/query';

const MONEY = t.message({ currencyCode: t.string(), units: t.int64(), nanos: t.double() });
const REFUND = t.message({ total: MONEY, tax: MONEY });

/**
 * Android Publisher v3's Order (the answer of `orders.get`), as far as `orderResource` writes
 * it and the public message declares it: what a `fields` selection is checked against.
 *
 * @example
 * ```ts
 * compileFieldMask('orderId,state,orderHistory/refundEvent', ORDER);
 * ```
 */
export const ORDER: MessageType = t.message({
  orderId: t.string(),
  purchaseToken: t.string(),
  state: t.string(),
  createTime: t.timestamp(),
  lastEventTime: t.timestamp(),
  buyerAddress: t.message({
    buyerState: t.string(),
    buyerCountry: t.string(),
    buyerPostcode: t.string(),
  }),
  lineItems: t.repeated(
    t.message({
      productId: t.string(),
      productTitle: t.string(),
      listingPrice: MONEY,
      total: MONEY,
      tax: MONEY,
      oneTimePurchaseDetails: t.message({
        quantity: t.int64(),
        offerId: t.string(),
        purchaseOptionId: t.string(),
      }),
      subscriptionDetails: t.message({
        basePlanId: t.string(),
        offerId: t.string(),
        offerPhase: t.string(),
        servicePeriodStartTime: t.timestamp(),
        servicePeriodEndTime: t.timestamp(),
      }),
    }),
  ),
  total: MONEY,
  tax: MONEY,
  developerRevenueInBuyerCurrency: MONEY,
  orderDetails: t.message({ taxInclusive: t.bool() }),
  orderHistory: t.message({
    processedEvent: t.message({ eventTime: t.timestamp() }),
    refundEvent: t.message({
      eventTime: t.timestamp(),
      refundDetails: REFUND,
      refundReason: t.string(),
    }),
    cancellationEvent: t.message({ eventTime: t.timestamp() }),
    partialRefundEvents: t.repeated(
      t.message({
        createTime: t.timestamp(),
        processTime: t.timestamp(),
        state: t.string(),
        refundDetails: REFUND,
      }),
    ),
  }),
  salesChannel: t.string(),
});
