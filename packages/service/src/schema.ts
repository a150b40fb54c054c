// `@listkit/service/schema`: the browser-safe part of the service — the forwarding-rule schema and
// the sample data generator, with nothing that needs Node (the playground imports this entry).

export type { ForwardingRuleJson } from './compute/forwarding-rule.js';
export {
  FORWARDING_RULE_ENUMS,
  forwardingRuleSchema,
} from './compute/forwarding-rule-schema.js';
export { sampleForwardingRules } from './compute/sample-forwarding-rules.js';
