import { poolKindOf } from './addresses/address-pool.js';
import type { ClashContext } from './create/body-reader.js';
import { checkClash } from './create/clash-rule.js';
import type { ForwardingRuleJson } from './forwarding-rule.js';
import type { ScopeCheck } from './forwarding-rule-store.js';

/** Asks the store for an ephemeral address of the rule's pool when the rule has none. */
const allocationOf = (rule: Readonly<ForwardingRuleJson>) =>
  rule.IPAddress === undefined ? { allocate: poolKindOf(rule) } : {};

/**
 * The emulator's {@link ScopeCheck} for writing `rule` through a store: an ephemeral address
 * from the rule's pool when it has none, then the clash rule over the rules at its address
 * (`baseForwardingRule` set for a steering rule), then `finish` on the rule as it will be stored
 * (for what depends on every field, such as the fingerprint).
 *
 * @example
 * ```ts
 * await store.rules.insert(parent, rule, {
 *   operation,
 *   check: scopeCheckFor(rule, { project, region, urls }, withFingerprints),
 * });
 * ```
 */
export function scopeCheckFor(
  rule: Readonly<ForwardingRuleJson>,
  ctx: ClashContext,
  finish: (rule: ForwardingRuleJson) => ForwardingRuleJson = (r) => r,
): ScopeCheck {
  return {
    ...allocationOf(rule),
    check: (candidate, sameAddress) => {
      const base = checkClash(candidate, sameAddress, ctx);
      return finish(base === undefined ? candidate : { ...candidate, baseForwardingRule: base });
    },
  };
}

/**
 * The former name of {@link scopeCheckFor}, from when only regions had forwarding rules.
 *
 * @deprecated Use {@link scopeCheckFor}: the same check serves regional and global rules.
 * @example
 * ```ts
 * const check = scopeCheckFor(rule, { project, region, urls });
 * ```
 */
export const regionCheckFor = scopeCheckFor;

/**
 * The {@link ScopeCheck} of a rule stored as given (seed data): an ephemeral address when it has
 * none, then `finish`. No clash rule: a seed loads a known state.
 *
 * @example
 * ```ts
 * await store.rules.put(parent, rule, allocationFor(rule, withFingerprints));
 * ```
 */
export function allocationFor(
  rule: Readonly<ForwardingRuleJson>,
  finish: (rule: ForwardingRuleJson) => ForwardingRuleJson = (r) => r,
): ScopeCheck {
  return { ...allocationOf(rule), check: (stored) => finish(stored) };
}

/**
 * The {@link ScopeCheck} of a change of a stored rule (patch, setTarget): `refuse` gets the
 * changed rule and the region's other rules at its address, and throws to refuse the change;
 * the rule is stored as it is.
 *
 * @example
 * ```ts
 * changeCheckFor((rule, sameAddress) => checkPatchedRule(rule, { ...where, urls, sameAddress }));
 * ```
 */
export function changeCheckFor(
  refuse: (rule: ForwardingRuleJson, sameAddress: readonly ForwardingRuleJson[]) => void,
): ScopeCheck {
  return {
    check: (stored, sameAddress) => {
      refuse(stored, sameAddress);
      return stored;
    },
  };
}
