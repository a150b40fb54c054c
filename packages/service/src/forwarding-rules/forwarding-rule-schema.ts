import { defineSchema, type ResourceSchema } from '@listkit/query';
import { FORWARDING_RULE_FIELDS } from './forwarding-rule-fields.js';

export { FORWARDING_RULE_ENUMS } from './forwarding-rule-fields.js';

/**
 * The filterable, sortable shape of a Compute Engine regional forwarding rule, from the field
 * table (forwarding-rule-fields.ts). `name` is the unique key; Compute Engine sorts only by `name`
 * and `creationTimestamp`; no field is searchable (Compute refuses bare values).
 *
 * @example
 * ```ts
 * compileFilter('loadBalancingScheme = EXTERNAL AND labels.env:*', forwardingRuleSchema);
 * ```
 */
export const forwardingRuleSchema: ResourceSchema = defineSchema({
  key: 'name',
  // "Currently, only sorting by name or creationTimestamp desc is supported."
  orderings: ['', 'name', 'creationTimestamp desc'],
  fields: Object.fromEntries(
    Object.entries(FORWARDING_RULE_FIELDS).map(([name, spec]) => [name, spec.filter]),
  ),
});

/**
 * The schema of the aggregated list (every region of a project): the same fields, keyed by
 * `selfLink` since names repeat across regions; the default order is by region, then name.
 */
export const aggregatedForwardingRuleSchema: ResourceSchema = defineSchema({
  ...forwardingRuleSchema,
  key: 'selfLink',
});
