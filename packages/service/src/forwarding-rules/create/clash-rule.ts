// The clash rule: one address, protocol and ports per domain, and the base rule of steering rules.

import { scopedName } from '../../names/resource-names.js';
import {
  canonicalAddress,
  type IpRange,
  parseRange,
  rangesOverlap,
} from '../addresses/ip-addresses.js';
import type { ForwardingRuleJson } from '../forwarding-rule.js';
import type { ClashContext } from './body-reader.js';
import { invalid } from './errors.js';
import { GOOGLE_APIS_BUNDLES } from './patterns-and-limits.js';
import { portsKey, portsOf, portsOverlap } from './port-spans.js';
import { readReference, resourcePath } from './reference-paths.js';
import type { Kind, Scheme } from './rule-kinds.js';

/** The kind of a stored rule (a rule without a scheme is EXTERNAL unless it targets PSC). */
function kindOf(rule: Record<string, unknown>, project: string): Kind {
  const scheme = rule.loadBalancingScheme;
  if (typeof scheme === 'string' && scheme !== '') return scheme as Scheme;
  const target = typeof rule.target === 'string' ? rule.target : '';
  if (GOOGLE_APIS_BUNDLES.includes(target)) return 'PSC';
  return readReference(target, project)?.collection === 'serviceAttachments' ? 'PSC' : 'EXTERNAL';
}

/**
 * Where an address must be unique: external rules share the region, internal and PSC rules
 * their VPC network (the subnetwork stands for it when no network is known).
 */
function clashDomain(rule: Record<string, unknown>, project: string): string {
  const kind = kindOf(rule, project);
  if (kind === 'EXTERNAL' || kind === 'EXTERNAL_MANAGED') return 'external';
  const network =
    typeof rule.network === 'string' ? readReference(rule.network, project) : undefined;
  if (network) return `network ${network.project}/${network.name}`;
  const subnetwork =
    typeof rule.subnetwork === 'string' ? readReference(rule.subnetwork, project) : undefined;
  if (subnetwork) return `subnetwork ${resourcePath(subnetwork)}`;
  return `network ${project}/default`;
}

function sourceRangesOf(rule: Record<string, unknown>): IpRange[] {
  if (!Array.isArray(rule.sourceIpRanges)) return [];
  return rule.sourceIpRanges.flatMap((r) => {
    const range = typeof r === 'string' ? parseRange(r) : undefined;
    return range ? [range] : [];
  });
}

/**
 * The address under which the clash rule looks for a rule's rivals (canonical form), or
 * undefined when the rule takes part in no clash (no address yet, a range, a reference).
 *
 * @example
 * ```ts
 * clashAddressOf({ IPAddress: '2001:DB8::1' }); // '2001:db8::1'
 * ```
 */
export const clashAddressOf = (rule: Readonly<Record<string, unknown>>): string | undefined =>
  canonicalAddress(rule.IPAddress);

/**
 * Refuses a rule whose address, protocol and ports clash with an existing rule's in the same
 * domain (400, as Compute answers it), and returns the selfLink of the base rule of a steering
 * rule (one with sourceIpRanges): the rule with the same address, protocol and ports and no
 * sourceIpRanges. `sameAddress` holds the region's stored rules at {@link clashAddressOf} the
 * rule (a rule of the same name is skipped: it is the one being replaced, or a 409); only they
 * can clash, so no caller reads the whole region.
 *
 * @example
 * ```ts
 * const base = checkClash(rule, region.rulesAt(clashAddressOf(rule)!), { project, region, urls });
 * ```
 */
export function checkClash(
  rule: Record<string, unknown>,
  sameAddress: readonly ForwardingRuleJson[],
  ctx: ClashContext,
): string | undefined {
  const address = clashAddressOf(rule);
  if (address === undefined) return undefined;
  const protocol = rule.IPProtocol ?? 'TCP';
  const domain = clashDomain(rule, ctx.project);
  const ports = portsOf(rule);
  const sources = sourceRangesOf(rule);
  let base: string | undefined;
  for (const other of sameAddress) {
    if (other.name === rule.name) continue; // a duplicate name is 409, decided by the caller
    if (clashAddressOf(other) !== address) continue;
    if ((other.IPProtocol ?? 'TCP') !== protocol) continue;
    if (clashDomain(other, ctx.project) !== domain) continue;
    const otherPorts = portsOf(other);
    if (!portsOverlap(ports, otherPorts)) continue;
    const otherSources = sourceRangesOf(other);
    if (sources.length > 0 && otherSources.length === 0) {
      if (base === undefined && portsKey(ports) === portsKey(otherPorts)) {
        base =
          typeof other.selfLink === 'string'
            ? other.selfLink
            : ctx.urls.forwardingRule(ctx.project, ctx.region, other.name);
      }
      continue;
    }
    if (sources.length === 0 && otherSources.length > 0) continue; // a steering rule of ours
    if (sources.length > 0 && !sources.some((a) => otherSources.some((b) => rangesOverlap(a, b)))) {
      continue;
    }
    if (sources.length > 0) {
      throw invalid(
        'sourceIpRanges',
        '',
        `The source IP ranges overlap those of '${scopedName(ctx, 'forwardingRules', other.name)}', which has the same IP address, protocol and ports.`,
      );
    }
    throw invalid(
      'IPAddress',
      rule.IPAddress,
      'Specified IP address is in-use and would result in a conflict.',
    );
  }
  return base;
}
