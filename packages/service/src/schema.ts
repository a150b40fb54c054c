// `@listkit/service/schema`: the browser-safe part of the service — the forwarding-rule schema and
// the sample data generator (and its seeded generator, which the playground's datasets and
// `listkit conform` share), with nothing that needs Node (the playground imports this entry).

export { seededRandom } from './core/seeded-random.js';
export type { ForwardingRuleJson } from './forwarding-rules/forwarding-rule.js';
export {
  FORWARDING_RULE_ENUMS,
  forwardingRuleSchema,
} from './forwarding-rules/forwarding-rule-schema.js';
export { sampleForwardingRules } from './forwarding-rules/sample-forwarding-rules.js';
