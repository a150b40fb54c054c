// Stage 1: the rule's name, the region it names, and every enum value.
import { scopeParent } from '../../names/resource-names.js';
import { FORWARDING_RULE_ENUMS } from '../forwarding-rule-schema.js';
import type { BodyReader } from './body-reader.js';
import { invalid, required } from './errors.js';
import {
  GOOGLE_APIS_BUNDLES,
  NAME_PATTERN,
  PSC_GOOGLE_APIS_NAME,
  PSC_GOOGLE_APIS_NAME_PATTERN,
  RFC1035,
} from './patterns-and-limits.js';

/** What stage 1 learns: the name, the target as text, and the enum fields read. */
export interface NameAndEnums {
  name: string;
  targetText: string | undefined;
  /** The target is a Google APIs bundle (`all-apis`, `vpc-sc`): a PSC rule to Google APIs. */
  googleApis: boolean;
  protocol: string;
  schemeText: string | undefined;
  tier: string | undefined;
  ipVersion: string | undefined;
  migrationState: string | undefined;
  metadataFilters: Record<string, unknown>[] | undefined;
}

/** Checks the name (RFC 1035, or 1-20 characters for PSC to Google APIs), region and enums. */
export function checkNameRegionAndEnums(r: BodyReader): NameAndEnums {
  const { str, list, enumValue, ctx } = r;
  const targetText = str('target');
  const googleApis = targetText !== undefined && GOOGLE_APIS_BUNDLES.includes(targetText);

  // name
  const name = str('name');
  if (name === undefined) throw required('name');
  if (googleApis) {
    if (!PSC_GOOGLE_APIS_NAME.test(name)) {
      throw invalid(
        'name',
        name,
        `Must be a match of regex '${PSC_GOOGLE_APIS_NAME_PATTERN}': a Private Service Connect forwarding rule to Google APIs has a name of 1-20 lowercase letters and digits starting with a letter.`,
      );
    }
  } else if (!RFC1035.test(name)) {
    throw invalid('name', name, `Must be a match of regex '${NAME_PATTERN}'`);
  }

  // region: output only, taken from the path; a body that names another one is refused, and a
  // global rule has none.
  const bodyRegion = str('region');
  if (bodyRegion !== undefined && ctx.region === undefined) {
    throw invalid('region', bodyRegion, 'A global forwarding rule has no region.');
  }
  if (bodyRegion !== undefined) {
    const segments = bodyRegion.replace(/\/+$/, '').split('/');
    const at = segments.lastIndexOf('projects');
    if (
      segments[segments.length - 1] !== ctx.region ||
      (at >= 0 && segments[at + 1] !== ctx.project)
    ) {
      throw invalid(
        'region',
        bodyRegion,
        `The region of a forwarding rule comes from the request path: ${scopeParent(ctx)}.`,
      );
    }
  }

  // enums
  const E = FORWARDING_RULE_ENUMS;
  const protocol = enumValue('IPProtocol', E.IPProtocol) ?? 'TCP';
  const schemeText = enumValue('loadBalancingScheme', E.loadBalancingScheme);
  const global = ctx.region === undefined;
  if ((schemeText === 'INTERNAL_SELF_MANAGED' && !global) || schemeText === 'INVALID') {
    throw invalid(
      'loadBalancingScheme',
      schemeText,
      schemeText === 'INVALID'
        ? 'INVALID is not a load balancing scheme a client may set.'
        : 'INTERNAL_SELF_MANAGED is only supported by global forwarding rules.',
    );
  }
  const tier = enumValue('networkTier', E.networkTier);
  if (global && tier !== undefined && tier !== 'PREMIUM') {
    throw invalid('networkTier', tier, 'The network tier of a global forwarding rule is PREMIUM.');
  }
  if (tier !== undefined && tier !== 'PREMIUM' && tier !== 'STANDARD') {
    throw invalid(
      'networkTier',
      tier,
      'The network tier of a regional forwarding rule is PREMIUM or STANDARD.',
    );
  }
  const ipVersionText = enumValue('ipVersion', E.ipVersion);
  const ipVersion = ipVersionText === 'UNSPECIFIED_VERSION' ? undefined : ipVersionText;
  const migrationState = enumValue(
    'externalManagedBackendBucketMigrationState',
    E.externalManagedBackendBucketMigrationState,
  );
  const metadataFilters = list<Record<string, unknown>>('metadataFilters');
  metadataFilters?.forEach((filter, i) => {
    const criteria = filter.filterMatchCriteria;
    if (
      typeof criteria === 'string' &&
      !(E.filterMatchCriteria as readonly string[]).includes(criteria)
    ) {
      throw invalid(
        `metadataFilters[${i}].filterMatchCriteria`,
        criteria,
        `Must be one of [${E.filterMatchCriteria.join(', ')}].`,
      );
    }
  });

  return {
    name,
    targetText,
    googleApis,
    protocol,
    schemeText,
    tier,
    ipVersion,
    migrationState,
    metadataFilters,
  };
}
