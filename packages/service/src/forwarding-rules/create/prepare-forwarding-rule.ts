import { type Refusal, refuse } from '../../core/refusal.js';
import type { ForwardingRuleJson } from '../forwarding-rule.js';
import { answerRule } from './answer-rule.js';
import { bodyReader, type InsertContext } from './body-reader.js';
import { checkAddresses } from './check-addresses.js';
import { checkNameRegionAndEnums } from './check-name-region-enums.js';
import { checkPorts } from './check-ports.js';
import { checkRangesFiltersAndLabels } from './check-ranges-filters-labels.js';
import { checkRuleOptions } from './check-rule-options.js';
import { checkTargetAndBackend, type DestinationStage } from './check-target-and-backend.js';
import { checkClash } from './clash-rule.js';
import { parseForwardingRuleShape } from './shape.js';

/**
 * Validates an insert body and returns the client part of the new rule, normalised the way
 * Compute Engine answers it (defaults filled, references expanded or echoed, `portRange: "90"`
 * as `"90-90"`, false booleans omitted, labels dropped: they are set through setLabels,
 * output-only fields dropped, `serviceName` and `baseForwardingRule` derived). Throws an
 * {@link Refusal} (400 naming the field; 404 for an address reference, as the emulator holds no
 * addresses) for anything the real API rejects. The stages run in a fixed order and the first
 * failure answers; docs/coverage.md lists every rule.
 *
 * @example
 * ```ts
 * prepareForwardingRule({ name: 'web', target: 'regions/r/targetPools/p' }, ctx).portRange;
 * ```
 */
export function prepareForwardingRule(
  body: unknown,
  ctx: InsertContext,
  destination: DestinationStage = checkTargetAndBackend,
): ForwardingRuleJson {
  if (body === undefined) {
    throw refuse.required("Required field 'resource' not specified", 'resource');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw refuse.badRequest(
      'Invalid JSON payload received. The request body must be a ForwardingRule object.',
    );
  }
  const r = bodyReader(parseForwardingRuleShape(body), ctx);
  const known = checkNameRegionAndEnums(r);
  const dest = destination(r, known);
  const addressing = checkAddresses(r, known, dest);
  const ports = checkPorts(r, known, dest);
  const options = checkRuleOptions(r, dest);
  const sourceIpRanges = checkRangesFiltersAndLabels(r, known, dest);
  const rule = answerRule(r, { known, dest, addressing, ports, options, sourceIpRanges });
  if (ctx.sameAddress) {
    const base = checkClash(rule, ctx.sameAddress, ctx);
    if (base !== undefined) rule.baseForwardingRule = base;
  }
  return rule as ForwardingRuleJson;
}
