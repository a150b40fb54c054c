import { defineSchema, type ResourceSchema, t } from '@listkit/query';

/**
 * The enum values of Compute Engine v1 forwarding rules (from the client protos).
 *
 * @example
 * ```ts
 * FORWARDING_RULE_ENUMS.IPProtocol.includes('TCP'); // true
 * ```
 */
export const FORWARDING_RULE_ENUMS = {
  IPProtocol: ['AH', 'ESP', 'ICMP', 'L3_DEFAULT', 'SCTP', 'TCP', 'UDP'],
  loadBalancingScheme: [
    'EXTERNAL',
    'EXTERNAL_MANAGED',
    'INTERNAL',
    'INTERNAL_MANAGED',
    'INTERNAL_SELF_MANAGED',
    'INVALID',
  ],
  networkTier: ['FIXED_STANDARD', 'PREMIUM', 'STANDARD', 'STANDARD_OVERRIDES_FIXED_STANDARD'],
  ipVersion: ['IPV4', 'IPV6', 'UNSPECIFIED_VERSION'],
  pscConnectionStatus: [
    'ACCEPTED',
    'CLOSED',
    'NEEDS_ATTENTION',
    'PENDING',
    'REJECTED',
    'STATUS_UNSPECIFIED',
  ],
  filterMatchCriteria: ['MATCH_ALL', 'MATCH_ANY', 'NOT_SET'],
  externalManagedBackendBucketMigrationState: ['PREPARE', 'TEST_ALL_TRAFFIC', 'TEST_BY_PERCENTAGE'],
} as const;

const E = FORWARDING_RULE_ENUMS;

/**
 * The filterable, sortable shape of a Compute Engine regional forwarding rule. `name` is the
 * unique key; Compute Engine sorts only by `name` and `creationTimestamp`.
 *
 * @example
 * ```ts
 * compileFilter('loadBalancingScheme = EXTERNAL AND labels.env:*', forwardingRuleSchema);
 * ```
 */
export const forwardingRuleSchema: ResourceSchema = defineSchema({
  key: 'name',
  // "Currently, only sorting by name or creationTimestamp desc is supported."
  orderings: ['', 'name', 'creationTimestamp desc'],
  fields: {
    kind: t.string(),
    id: t.int64(),
    creationTimestamp: t.timestamp({ sortable: true }),
    name: t.string({ sortable: true }),
    description: t.string(),
    region: t.string(),
    IPAddress: t.string(),
    IPProtocol: t.enum(E.IPProtocol),
    portRange: t.string(),
    ports: t.repeated(t.string()),
    allPorts: t.bool(),
    target: t.string(),
    backendService: t.string(),
    selfLink: t.string(),
    selfLinkWithId: t.string(),
    loadBalancingScheme: t.enum(E.loadBalancingScheme),
    subnetwork: t.string(),
    network: t.string(),
    serviceDirectoryRegistrations: t.repeated(
      t.message({ namespace: t.string(), service: t.string(), serviceDirectoryRegion: t.string() }),
    ),
    serviceLabel: t.string(),
    serviceName: t.string(),
    networkTier: t.enum(E.networkTier),
    labels: t.map(t.string()),
    labelFingerprint: t.string(),
    attachedExtensions: t.repeated(t.message({ reference: t.string() })),
    ipVersion: t.enum(E.ipVersion),
    fingerprint: t.string(),
    allowGlobalAccess: t.bool(),
    metadataFilters: t.repeated(
      t.message({
        filterMatchCriteria: t.enum(E.filterMatchCriteria),
        filterLabels: t.repeated(t.message({ name: t.string(), value: t.string() })),
      }),
    ),
    isMirroringCollector: t.bool(),
    sourceIpRanges: t.repeated(t.string()),
    pscConnectionId: t.int64(),
    pscConnectionStatus: t.enum(E.pscConnectionStatus),
    baseForwardingRule: t.string(),
    allowPscGlobalAccess: t.bool(),
    noAutomateDnsZone: t.bool(),
    ipCollection: t.string(),
    externalManagedBackendBucketMigrationState: t.enum(
      E.externalManagedBackendBucketMigrationState,
    ),
    externalManagedBackendBucketMigrationTestingPercentage: t.double(),
  },
});

/**
 * The schema of the aggregated list (every region of a project): the same fields, keyed by
 * `selfLink` since names repeat across regions; the default order is by region, then name.
 */
export const aggregatedForwardingRuleSchema: ResourceSchema = defineSchema({
  ...forwardingRuleSchema,
  key: 'selfLink',
});
