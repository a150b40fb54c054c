// Stage 5: options only some kinds of rule take: global access, mirroring, PSC global access,
// serviceLabel and Service Directory registrations.
import type { BodyReader } from './body-reader.js';
import type { Destination } from './check-target-and-backend.js';
import { invalid } from './errors.js';
import {
  FORWARDING_RULE_LIMITS,
  NAME_PATTERN,
  REGION_NAME,
  RFC1035,
} from './patterns-and-limits.js';

/** What stage 5 learns. */
export interface RuleOptions {
  serviceLabel: string | undefined;
  registrations: Record<string, unknown>[] | undefined;
}

/** Checks the booleans, serviceLabel and serviceDirectoryRegistrations against the kind of rule. */
export function checkRuleOptions(r: BodyReader, dest: Destination): RuleOptions {
  const { str, list, flag } = r;
  const { kind } = dest;
  // booleans that only some kinds of rule take
  if (flag('allowGlobalAccess') && kind !== 'INTERNAL' && kind !== 'INTERNAL_MANAGED') {
    throw invalid(
      'allowGlobalAccess',
      true,
      'Global access is available only to INTERNAL and INTERNAL_MANAGED forwarding rules.',
    );
  }
  if (flag('isMirroringCollector') && kind !== 'INTERNAL') {
    throw invalid(
      'isMirroringCollector',
      true,
      'Only a forwarding rule with load balancing scheme INTERNAL can be a packet mirroring collector.',
    );
  }
  if (flag('allowPscGlobalAccess') && kind !== 'PSC') {
    throw invalid(
      'allowPscGlobalAccess',
      true,
      'allowPscGlobalAccess applies only to Private Service Connect forwarding rules.',
    );
  }

  // serviceLabel (→ serviceName) and Service Directory
  const serviceLabel = str('serviceLabel');
  if (serviceLabel !== undefined) {
    if (!RFC1035.test(serviceLabel)) {
      throw invalid('serviceLabel', serviceLabel, `Must be a match of regex '${NAME_PATTERN}'`);
    }
    if (kind !== 'INTERNAL') {
      throw invalid(
        'serviceLabel',
        serviceLabel,
        'A service label is used only by forwarding rules with load balancing scheme INTERNAL.',
      );
    }
  }
  const registrations = list<Record<string, unknown>>('serviceDirectoryRegistrations');
  if (
    registrations &&
    registrations.length > FORWARDING_RULE_LIMITS.serviceDirectoryRegistrations
  ) {
    throw invalid(
      'serviceDirectoryRegistrations',
      '',
      `Only a single entry is supported, not ${registrations.length}.`,
    );
  }
  registrations?.forEach((entry, i) => {
    for (const field of ['namespace', 'service']) {
      const value = entry[field];
      if (typeof value === 'string' && value !== '' && !RFC1035.test(value)) {
        throw invalid(
          `serviceDirectoryRegistrations[${i}].${field}`,
          value,
          `Must be a match of regex '${NAME_PATTERN}'`,
        );
      }
    }
    const region = entry.serviceDirectoryRegion;
    if (typeof region === 'string' && region !== '' && !REGION_NAME.test(region)) {
      throw invalid(
        `serviceDirectoryRegistrations[${i}].serviceDirectoryRegion`,
        region,
        'Must be a region name such as us-central1.',
      );
    }
  });

  return { serviceLabel, registrations };
}
