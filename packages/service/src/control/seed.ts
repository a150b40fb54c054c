import { Refusal } from '../core/refusal.js';
import { previewText } from '../core/value-preview.js';
import type { EmulatorState } from '../emulator-state.js';
import type { ForwardingRuleJson } from '../forwarding-rules/forwarding-rule.js';
import { checkSeededForwardingRule } from '../forwarding-rules/forwarding-rule-validation.js';
import { ApiError, errors } from '../http/api-error.js';
import { checkBodyText } from '../http/request-text.js';
import type { OrderSeed } from '../orders/order.js';
import { checkOrderSeed } from './order-seed.js';

/**
 * Resources to load into the emulator, at start, on reset, or through the control plane.
 *
 * @example
 * ```ts
 * const seed: Seed = {
 *   forwardingRules: [{ project: 'p', region: 'us-central1', rule: { name: 'web-1', IPProtocol: 'TCP', portRange: '80' } }],
 *   orders: [{ packageName: 'com.example.app', orderId: 'GPA.1' }],
 * };
 * await createEmulator({ seed });
 * ```
 */
export interface Seed {
  forwardingRules?: { project: string; region: string; rule: ForwardingRuleJson }[];
  /** Global forwarding rules, by project (`projects/{project}/global/forwardingRules`). */
  globalForwardingRules?: { project: string; rule: ForwardingRuleJson }[];
  /** Android Publisher orders; see {@link OrderSeed} for the defaults. */
  orders?: OrderSeed[];
}

/**
 * Adds seed resources (server-set fields such as `creationTimestamp` are kept when present,
 * filled otherwise). Every item is checked first, by the same field rules as the API (rules:
 * {@link checkSeededForwardingRule}; orders: {@link checkOrderSeed}), and its text by the rule
 * for request text (`checkBodyText`: no U+0000, no unpaired surrogate), so a rejected seed adds
 * nothing; the 400 names the item. Returns how many were added.
 */
export async function seedState(state: EmulatorState, seed: Seed): Promise<number> {
  if (typeof seed !== 'object' || seed === null || Array.isArray(seed)) {
    throw errors.badRequest(
      'a seed is an object: { forwardingRules: [...], globalForwardingRules: [...], orders: [...] }',
    );
  }
  // The rule for request text holds for a seed from the options too: no store holds U+0000.
  checkBodyText(seed, 'seed');
  const rules = listOf(seed.forwardingRules, 'forwardingRules').map(checkRuleEntry);
  const globalRules = listOf(seed.globalForwardingRules, 'globalForwardingRules').map(
    checkGlobalRuleEntry,
  );
  const orders = listOf(seed.orders, 'orders').map(checkOrderSeed);
  // One seed describes a set of resources: a name given twice would silently replace the first.
  refuseTwice(rules, 'forwardingRules', (r) => `${r.project}/${r.region}/${r.rule.name}`);
  refuseTwice(globalRules, 'globalForwardingRules', (r) => `${r.project}/${r.rule.name}`);
  refuseTwice(orders, 'orders', (o) => `${o.packageName}/${o.orderId}`);
  for (const { project, region, rule } of rules)
    await state.forwardingRules.seed({ project, region }, rule);
  for (const { project, rule } of globalRules)
    await state.globalForwardingRules.seed({ project }, rule);
  for (const order of orders) await state.orders.add(order);
  return rules.length + globalRules.length + orders.length;
}

function checkRuleEntry(entry: unknown, index: number): Required<Seed>['forwardingRules'][number] {
  const checked = checkScopedRuleEntry(entry, index, 'forwardingRules');
  return checked as Required<Seed>['forwardingRules'][number];
}

function checkGlobalRuleEntry(
  entry: unknown,
  index: number,
): Required<Seed>['globalForwardingRules'][number] {
  const { project, rule } = checkScopedRuleEntry(entry, index, 'globalForwardingRules');
  return { project, rule };
}

/** A seeded rule of `list`: a project, a region unless global, and a rule the field rules accept. */
function checkScopedRuleEntry(
  entry: unknown,
  index: number,
  list: 'forwardingRules' | 'globalForwardingRules',
): { project: string; region?: string; rule: ForwardingRuleJson } {
  const { project, region, rule } = (entry ?? {}) as Record<string, unknown>;
  const name = (rule as { name?: unknown } | undefined)?.name;
  const regional = list === 'forwardingRules';
  if (
    typeof project !== 'string' ||
    (regional && typeof region !== 'string') ||
    typeof name !== 'string'
  ) {
    throw errors.badRequest(
      regional
        ? `seed.forwardingRules[${index}]: each seeded forwarding rule needs project, region and rule.name`
        : `seed.globalForwardingRules[${index}]: each seeded global forwarding rule needs project and rule.name`,
    );
  }
  const where = regional ? `${project}/${String(region)}/${name}` : `${project}/${name}`;
  try {
    const checked = checkSeededForwardingRule(rule);
    return regional
      ? { project, region: region as string, rule: checked }
      : { project, rule: checked };
  } catch (error) {
    if (!(error instanceof Refusal || error instanceof ApiError)) throw error;
    throw errors.badRequest(`seed.${list}[${index}] (${previewText(where)}): ${error.message}`);
  }
}

function listOf(value: unknown, name: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw errors.badRequest(`seed.${name} must be a list`);
  return value;
}

function refuseTwice<T>(items: readonly T[], list: string, keyOf: (item: T) => string): void {
  const first = new Map<string, number>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    const earlier = first.get(key);
    if (earlier !== undefined) {
      throw errors.badRequest(
        `seed.${list}[${index}] (${previewText(key)}) names the same resource as seed.${list}[${earlier}]`,
      );
    }
    first.set(key, index);
  });
}
