import { poolKindOf } from '../compute/address-pool.js';
import type { ForwardingRuleJson } from '../compute/forwarding-rule.js';
import type { ClashContext } from '../compute/forwarding-rule-create/body-reader.js';
import { checkClash } from '../compute/forwarding-rule-create/clash-rule.js';
import type { RegionCheck } from './store.js';

/**
 * The emulator's {@link RegionCheck} for writing `rule` through a store: an ephemeral address
 * from the rule's pool when it has none, then the clash rule over the rules at its address
 * (`baseForwardingRule` set for a steering rule), then `finish` on the rule as it will be stored
 * (for what depends on every field, such as the fingerprint).
 *
 * @example
 * ```ts
 * await store.rules.insert(parent, rule, {
 *   operation,
 *   check: regionCheckFor(rule, { project, region, urls }, withFingerprints),
 * });
 * ```
 */
export function regionCheckFor(
  rule: Readonly<ForwardingRuleJson>,
  ctx: ClashContext,
  finish: (rule: ForwardingRuleJson) => ForwardingRuleJson = (r) => r,
): RegionCheck {
  return {
    ...(rule.IPAddress === undefined ? { allocate: poolKindOf(rule) } : {}),
    check: (candidate, sameAddress) => {
      const base = checkClash(candidate, sameAddress, ctx);
      return finish(base === undefined ? candidate : { ...candidate, baseForwardingRule: base });
    },
  };
}
