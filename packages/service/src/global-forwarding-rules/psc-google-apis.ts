// What Compute adds to a global Private Service Connect rule to Google APIs (`target: all-apis`
// or `vpc-sc`), as Config Connector's recordings and the ForwardingRule reference show: a
// connection id, a Service Directory registration with the documented defaults, no empty
// description, and operations of their own types.
import { newNumericId } from '../core/ids.js';
import {
  DEFAULT_SERVICE_DIRECTORY_REGION,
  isGoogleApisTarget,
} from '../forwarding-rules/create/patterns-and-limits.js';
import type { ForwardingRuleJson } from '../forwarding-rules/forwarding-rule.js';
import type { ScopeWrites } from '../forwarding-rules/forwarding-rules.js';

/** The operation types Compute gives the writes of a PSC rule to Google APIs. */
const PSC_OPERATION_TYPES: Readonly<Record<string, string>> = {
  insert: 'createPSCServiceEndpoint',
  delete: 'deletePscForwardingRule',
};

/**
 * A stable decimal id for a network URL (the emulator holds no networks): FNV-1a over the URL's
 * path from `projects/`, so a network named by a relative path or a full URL gets one id, and
 * every endpoint on it one Service Directory namespace.
 */
function networkIdOf(network: string): string {
  const path = network.slice(Math.max(0, network.indexOf('projects/')));
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < path.length; i++) {
    hash ^= BigInt(path.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return (1_000_000_000_000_000_000n + (hash % 8_000_000_000_000_000_000n)).toString();
}

/**
 * The Service Directory registration of an endpoint as Compute answers it: the namespace
 * defaults to `goog-psc-<network name>-<network id>` and the region to `us-central1` (the
 * field's documentation in compute.proto); a service is kept when the rule gave one.
 */
function registrationOf(rule: ForwardingRuleJson): Record<string, string> {
  const given = (rule.serviceDirectoryRegistrations as Record<string, string>[] | undefined)?.[0];
  const network = String(rule.network);
  return {
    namespace: given?.namespace ?? `goog-psc-${network.split('/').pop()}-${networkIdOf(network)}`,
    ...(given?.service ? { service: given.service } : {}),
    serviceDirectoryRegion: given?.serviceDirectoryRegion ?? DEFAULT_SERVICE_DIRECTORY_REGION,
  };
}

/**
 * The global scope's additions to a new rule and its operations: a PSC rule to Google APIs gets
 * `pscConnectionId` (a decimal string), `serviceDirectoryRegistrations` with the defaults filled,
 * no `description` when none was given (the real API answers such a rule without one, where other
 * rules carry `""`), and its insert and delete operations are `createPSCServiceEndpoint` and
 * `deletePscForwardingRule`. Every other global rule is left as it is.
 *
 * @example
 * ```ts
 * new ForwardingRules({ store, operations, clock, urls, scopeWrites: pscGoogleApisWrites });
 * ```
 */
export const pscGoogleApisWrites: ScopeWrites = {
  created(rule) {
    if (!isGoogleApisTarget(rule.target)) return rule;
    const { description, ...rest } = rule;
    return {
      ...rest,
      ...(description === '' || description === undefined ? {} : { description }),
      serviceDirectoryRegistrations: [registrationOf(rule)],
      pscConnectionId: newNumericId(),
    };
  },
  operationType(rule, operationType) {
    return isGoogleApisTarget(rule.target)
      ? (PSC_OPERATION_TYPES[operationType] ?? operationType)
      : operationType;
  },
};
