// Create validation of forwarding rules. The stages live in forwarding-rule-create/, one file
// each, in the order they run: shape, name-region-enums, target-and-backend, addresses, ports,
// rule-options, ranges-filters-labels, answer-rule, clash-rule.
import { fieldsWhere } from './forwarding-rule-fields.js';

export type { InsertContext } from './create/body-reader.js';
export type { DestinationStage } from './create/check-target-and-backend.js';
export {
  DEFAULT_SERVICE_DIRECTORY_REGION,
  FORWARDING_RULE_LIMITS,
  GOOGLE_APIS_BUNDLES,
} from './create/patterns-and-limits.js';
export { normalizePortRange } from './create/port-spans.js';
export { prepareForwardingRule } from './create/prepare-forwarding-rule.js';
export { checkSeededForwardingRule } from './create/seeded-rule.js';
export { parseForwardingRuleShape } from './create/shape.js';

/** Fields the server sets; a client may send them, and they are ignored (as Compute does). */
export const OUTPUT_ONLY_FIELDS: ReadonlySet<string> = fieldsWhere((f) => f.setBy === 'output');

/** Fields a client may set on create. */
export const CLIENT_FIELDS: ReadonlySet<string> = fieldsWhere((f) => f.setBy === 'client');
