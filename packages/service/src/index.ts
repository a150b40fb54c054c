// The public API of @listkit/service (the emulator grows here; see the open issues).
export {
  FORWARDING_RULE_ENUMS,
  forwardingRuleSchema,
} from './compute/forwarding-rule-schema.js';
export {
  type ForwardingRuleJson,
  sampleForwardingRules,
} from './compute/sample-forwarding-rules.js';
