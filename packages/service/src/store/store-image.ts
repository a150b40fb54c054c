import type { ForwardingRuleJson } from '../forwarding-rules/forwarding-rule.js';
import type { ScopeRef } from '../names/resource-names.js';
import type { OperationRecord } from '../operations/operation-store.js';
import type { OrderState } from '../orders/order.js';

/**
 * Everything a store holds, as plain JSON: what a snapshot captures and a restore puts back, the
 * same for every kind of store (a snapshot exported from PostgreSQL loads into memory). Address
 * pools are not in it: which addresses are free follows from the rules, and each store rebuilds
 * what it keeps to find them.
 *
 * @example
 * ```ts
 * const image: StoreImage = await store.capture();
 * await store.replace(image); // back to that instant
 * ```
 */
export interface StoreImage {
  /** Every rule with its project and region (none: a global rule), as stored. */
  rules: (ScopeRef & { rule: ForwardingRuleJson })[];
  /** Every operation kept, with its version and what the emulator keeps beside it. */
  operations: OperationRecord[];
  orders: OrderState[];
  /** The emulator's settings as the store keeps them, by key. */
  settings: Record<string, unknown>;
}
