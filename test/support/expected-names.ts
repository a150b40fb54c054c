// The test oracle for forwarding-rule lists: what a list should answer, computed in memory with
// the same query library the emulator uses.
import { compileFilter, parseOrderBy } from '@listkit/query';
import { type ForwardingRuleJson, forwardingRuleSchema } from '@listkit/service';

/** The names of `rules` that `filter` matches, in `orderBy`'s order. */
export function expectedNames(
  rules: readonly ForwardingRuleJson[],
  filter: string,
  orderBy: string,
): string[] {
  const where = compileFilter(filter, forwardingRuleSchema);
  const order = parseOrderBy(orderBy, forwardingRuleSchema);
  return rules
    .filter((r) => where.matches(r))
    .sort(order.compare)
    .map((r) => r.name);
}
