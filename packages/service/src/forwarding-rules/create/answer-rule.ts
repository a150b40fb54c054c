// The last stage: the rule as Compute Engine answers it.
import { answeredReference } from '../references.js';
import type { BodyReader } from './body-reader.js';
import type { Addressing } from './check-addresses.js';
import type { NameAndEnums } from './check-name-region-enums.js';
import type { Ports } from './check-ports.js';
import type { RuleOptions } from './check-rule-options.js';
import type { Destination } from './check-target-and-backend.js';
import { DEFAULT_SERVICE_DIRECTORY_REGION } from './patterns-and-limits.js';

/** Everything the stages learnt about a valid body. */
export interface CheckedBody {
  known: NameAndEnums;
  dest: Destination;
  addressing: Addressing;
  ports: Ports;
  options: RuleOptions;
  sourceIpRanges: string[] | undefined;
}

/**
 * The client part of the new rule, normalised as Compute answers it: defaults filled,
 * references expanded or echoed (answeredReference), false booleans and labels left out,
 * `serviceName` derived.
 */
export function answerRule(r: BodyReader, checked: CheckedBody): Record<string, unknown> {
  const { str, flag, ctx } = r;
  const { name, protocol, targetText, tier, ipVersion, migrationState, googleApis } = checked.known;
  const { kind, backendText } = checked.dest;
  const { address, networkText, subnetworkText, ipCollectionText } = checked.addressing;
  const { portRange, ports, allPorts } = checked.ports;
  const { serviceLabel, registrations } = checked.options;
  const { sourceIpRanges } = checked;
  const rule: Record<string, unknown> = { name, description: str('description') ?? '' };
  if (address !== undefined) rule.IPAddress = address;
  rule.IPProtocol = protocol;
  if (portRange !== undefined) rule.portRange = portRange;
  if (ports) rule.ports = ports;
  if (allPorts) rule.allPorts = true;
  if (targetText !== undefined) {
    rule.target = answeredReference('target', targetText, ctx.project, ctx.urls);
  }
  if (backendText !== undefined) {
    rule.backendService = answeredReference('backendService', backendText, ctx.project, ctx.urls);
  }
  if (kind !== 'PSC') rule.loadBalancingScheme = kind;
  if (networkText !== undefined) {
    rule.network = answeredReference('network', networkText, ctx.project, ctx.urls);
  } else if (
    subnetworkText === undefined &&
    (kind === 'INTERNAL' ||
      kind === 'INTERNAL_MANAGED' ||
      kind === 'INTERNAL_SELF_MANAGED' ||
      kind === 'PSC')
  ) {
    rule.network = `${ctx.urls.project(ctx.project)}/global/networks/default`;
  }
  if (subnetworkText !== undefined) {
    rule.subnetwork = answeredReference('subnetwork', subnetworkText, ctx.project, ctx.urls);
  }
  if (ipCollectionText !== undefined) {
    rule.ipCollection = answeredReference('ipCollection', ipCollectionText, ctx.project, ctx.urls);
  }
  if (registrations) {
    rule.serviceDirectoryRegistrations = registrations.map((entry) => {
      const out: Record<string, string> = {};
      for (const field of ['namespace', 'service', 'serviceDirectoryRegion']) {
        const value = entry[field];
        if (typeof value === 'string' && value !== '') out[field] = value;
      }
      if (googleApis && out.serviceDirectoryRegion === undefined) {
        out.serviceDirectoryRegion = DEFAULT_SERVICE_DIRECTORY_REGION;
      }
      return out;
    });
  }
  if (serviceLabel !== undefined) {
    rule.serviceLabel = serviceLabel;
    // Only INTERNAL rules take a service label, and only regional rules are INTERNAL.
    rule.serviceName = `${serviceLabel}.${name}.il4.${ctx.region}.lb.${ctx.project}.internal`;
  }
  if (checked.known.metadataFilters) rule.metadataFilters = checked.known.metadataFilters;
  rule.networkTier = tier ?? 'PREMIUM';
  if (ipVersion !== undefined) rule.ipVersion = ipVersion;
  // proto3 JSON: a false boolean is the default and is omitted from answers.
  for (const field of [
    'allowGlobalAccess',
    'isMirroringCollector',
    'allowPscGlobalAccess',
    'noAutomateDnsZone',
  ]) {
    if (flag(field)) rule[field] = true;
  }
  if (sourceIpRanges) rule.sourceIpRanges = sourceIpRanges;
  if (migrationState !== undefined) {
    rule.externalManagedBackendBucketMigrationState = migrationState;
  }

  return rule;
}
