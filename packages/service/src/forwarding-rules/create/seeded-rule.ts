import { isRfc3339 } from '../../core/rfc3339.js';
import { canonicalAddress } from '../addresses/ip-addresses.js';
import type { ForwardingRuleJson } from '../forwarding-rule.js';
import { FORWARDING_RULE_ENUMS } from '../forwarding-rule-schema.js';
import { checkLabels } from '../labels.js';
import { invalid, required } from './errors.js';
import { NAME_PATTERN, RFC1035 } from './patterns-and-limits.js';
import { parseForwardingRuleShape } from './shape.js';

/**
 * Checks a rule given whole (a seed), as the API would have stored it: its shape, and the rules
 * of each field on its own (name, enum values, labels, a literal IPAddress, an RFC 3339
 * creationTimestamp). Rules between fields are not applied: a seed describes a state, as a
 * snapshot of a real project would. Returns the rule with `null`s dropped and uint64s as strings.
 */
export function checkSeededForwardingRule(rule: unknown): ForwardingRuleJson {
  const input = parseForwardingRuleShape(rule);
  const name = input.name;
  if (typeof name !== 'string' || name === '') throw required('name');
  if (!RFC1035.test(name))
    throw invalid('name', name, `Must be a match of regex '${NAME_PATTERN}'`);
  for (const [field, values] of Object.entries(FORWARDING_RULE_ENUMS)) {
    const value = input[field];
    if (
      typeof value === 'string' &&
      value !== '' &&
      !(values as readonly string[]).includes(value)
    ) {
      throw invalid(field, value, `Must be one of [${values.join(', ')}].`);
    }
  }
  if (typeof input.IPAddress === 'string' && canonicalAddress(input.IPAddress) === undefined) {
    throw invalid('IPAddress', input.IPAddress, 'Must be a literal IP address.');
  }
  const created = input.creationTimestamp;
  if (typeof created === 'string' && !isRfc3339(created)) {
    throw invalid('creationTimestamp', created, 'Must be an RFC 3339 timestamp.');
  }
  checkLabels((input.labels as Record<string, string> | undefined) ?? {}, 'resource.labels');
  return input as ForwardingRuleJson;
}
