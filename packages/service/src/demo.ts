// `pnpm start` until the emulator lands: filters generated forwarding rules with both filter
// languages and shows what an invalid filter reports.
import { compileFilter, ListkitError } from '@listkit/query';
import { forwardingRuleSchema } from './compute/forwarding-rule-schema.js';
import { sampleForwardingRules } from './compute/sample-forwarding-rules.js';

const rules = sampleForwardingRules(300);
const filters = [
  'loadBalancingScheme = EXTERNAL AND labels.env = "prod"',
  'name = web-* OR name = api-*',
  'creationTimestamp > 2025-06-01T00:00:00Z AND NOT labels:team',
  'ports:443',
  'name eq "web-.*-us-central1-.*"',
  '(labels.env eq prod)(IPProtocol ne TCP)',
  'loadBalancingScheme = EXTERNL',
];

console.log(`listkit demo: ${rules.length} generated forwarding rules\n`);
for (const filter of filters) {
  try {
    const compiled = compileFilter(filter, forwardingRuleSchema);
    const matches = rules.filter((r) => compiled.matches(r));
    const names = matches.slice(0, 3).map((r) => r.name);
    console.log(
      `${compiled.style.padEnd(7)} ${filter}\n        ${matches.length} match: ${names.join(', ')}${matches.length > 3 ? ', …' : ''}\n`,
    );
    compiled.dispose();
  } catch (error) {
    if (!(error instanceof ListkitError)) throw error;
    console.log(`error   ${error.code}\n${error.format().replace(/^/gm, '        ')}\n`);
  }
}
