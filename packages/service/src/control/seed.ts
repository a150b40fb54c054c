import type { ForwardingRuleJson } from '../compute/sample-forwarding-rules.js';
import type { EmulatorState } from '../emulator-state.js';
import { errors } from '../http/api-error.js';
import type { OrderSeed } from '../publisher/order.js';

/** Resources to load into the emulator, at start, on reset, or through the control plane. */
export interface Seed {
  forwardingRules?: { project: string; region: string; rule: ForwardingRuleJson }[];
  /** Android Publisher orders; see {@link OrderSeed} for the defaults. */
  orders?: OrderSeed[];
}

const ORDER_KINDS = ['oneTimeProduct', 'subscription'];

/**
 * Adds seed resources as they are given (server-set fields such as `creationTimestamp` are kept
 * when present, filled otherwise). Returns how many were added; 400 for a malformed seed.
 */
export function seedState(state: EmulatorState, seed: Seed): number {
  if (typeof seed !== 'object' || seed === null) throw errors.badRequest('a seed is an object');
  let added = 0;
  for (const entry of seed.forwardingRules ?? []) {
    const { project, region, rule } = entry ?? ({} as Partial<typeof entry>);
    if (
      typeof project !== 'string' ||
      typeof region !== 'string' ||
      typeof rule?.name !== 'string'
    ) {
      throw errors.badRequest('each seeded forwarding rule needs project, region and rule.name');
    }
    state.forwardingRules.store(project, region, rule);
    added++;
  }
  for (const order of seed.orders ?? []) {
    if (
      typeof order?.packageName !== 'string' ||
      typeof order.orderId !== 'string' ||
      !order.orderId
    ) {
      throw errors.badRequest('each seeded order needs packageName and orderId');
    }
    if (order.kind !== undefined && !ORDER_KINDS.includes(order.kind)) {
      throw errors.badRequest(`order ${order.orderId}: kind is oneTimeProduct or subscription`);
    }
    state.orders.add(order);
    added++;
  }
  return added;
}
