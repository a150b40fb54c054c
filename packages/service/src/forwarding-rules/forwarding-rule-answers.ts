import { listResponseType, type MessageType, t } from '@listkit/query';
import { COMPUTE_WARNING } from '../operations/operation-answers.js';
import { forwardingRuleSchema } from './forwarding-rule-schema.js';

// The types of the forwarding-rule methods' answers: what a `fields` selection (a partial
// response) is checked against. A rule's fields are the field table's (forwarding-rule-fields.ts).

/**
 * A ForwardingRule (the answer of `get`).
 *
 * @example
 * ```ts
 * apiCall(state, { method: 'compute.forwardingRules.get', scopes, answer: FORWARDING_RULE });
 * ```
 */
export const FORWARDING_RULE: MessageType = t.message(forwardingRuleSchema.fields);

/**
 * A ForwardingRuleList (the answer of `list`).
 *
 * @example
 * ```ts
 * compileFieldMask('items(name,labels),nextPageToken', FORWARDING_RULE_LIST);
 * ```
 */
export const FORWARDING_RULE_LIST: MessageType = listResponseType(forwardingRuleSchema, {
  fields: { kind: t.string(), id: t.string(), selfLink: t.string(), warning: COMPUTE_WARNING },
});

/**
 * A ForwardingRuleAggregatedList (the answer of `aggregatedList`): the rules by scope
 * (`regions/r`, `global`).
 *
 * @example
 * ```ts
 * compileFieldMask('items.*.forwardingRules.name', FORWARDING_RULE_AGGREGATED_LIST);
 * ```
 */
export const FORWARDING_RULE_AGGREGATED_LIST: MessageType = t.message({
  kind: t.string(),
  id: t.string(),
  items: t.map(
    t.message({ forwardingRules: t.repeated(FORWARDING_RULE), warning: COMPUTE_WARNING }),
  ),
  nextPageToken: t.string(),
  selfLink: t.string(),
  unreachables: t.repeated(t.string()),
  warning: COMPUTE_WARNING,
});
