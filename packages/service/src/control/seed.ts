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
  if (typeof seed !== 'object' || seed === null || Array.isArray(seed)) {
    throw errors.badRequest('a seed is an object: { forwardingRules: [...], orders: [...] }');
  }
  const rules = listOf(seed.forwardingRules, 'forwardingRules');
  const orders = listOf(seed.orders, 'orders');
  // Check everything first, so that a rejected seed adds nothing.
  for (const entry of rules) {
    const { project, region, rule } = (entry ?? {}) as Partial<(typeof rules)[number]>;
    if (
      typeof project !== 'string' ||
      typeof region !== 'string' ||
      typeof rule?.name !== 'string'
    ) {
      throw errors.badRequest('each seeded forwarding rule needs project, region and rule.name');
    }
  }
  for (const order of orders) {
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
    if (order.purchaseTime !== undefined && Number.isNaN(Date.parse(order.purchaseTime))) {
      throw errors.badRequest(
        `order ${order.orderId}: purchaseTime '${order.purchaseTime}' is not RFC 3339`,
      );
    }
  }
  for (const { project, region, rule } of rules) state.forwardingRules.store(project, region, rule);
  for (const order of orders) state.orders.add(order);
  return rules.length + orders.length;
}

function listOf<T>(value: T[] | undefined, name: string): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw errors.badRequest(`seed.${name} must be a list`);
  return value;
}
