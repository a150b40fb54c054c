// One declarative table of the ForwardingRule fields. The filter schema, the body's JSON shape,
// the client / output-only field lists, the patch rules and the docs/coverage.md field table are
// all derived from it.
import { type FieldType, t } from '@listkit/query';

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

/** A proto3 JSON scalar as the body carries it. */
export type Scalar = 'string' | 'enum' | 'bool' | 'uint64' | 'float';
/** The JSON shape of a message: its fields by name. */
export interface MessageShape {
  readonly [field: string]: Shape;
}
/** The JSON shape of a field. */
export type Shape =
  | Scalar
  | { readonly repeated: Scalar | { readonly message: MessageShape } }
  | { readonly map: 'string' }
  | { readonly message: MessageShape };

/**
 * What PATCH does with a field: `patchable` (JSON merge patch), `immutable` (may be repeated
 * unchanged), `migration` (through the migration state machine), `ignored` (labels: setLabels
 * changes them), `output` (server-set, ignored).
 */
export type OnPatch = 'patchable' | 'immutable' | 'migration' | 'ignored' | 'output';

/** One field of the table. */
export interface FieldSpec {
  /** Its JSON shape in a request body (the shape stage checks it). */
  readonly shape: Shape;
  /** Who sets it: the client, or the server only (output only; ignored in bodies). */
  readonly setBy: 'client' | 'output';
  /** What the server fills when the client sends nothing. */
  readonly serverDefault?: string;
  /** The limits create enforces, in words (the numbers are FORWARDING_RULE_LIMITS). */
  readonly limits?: string;
  /** A reference to another resource, and how Compute answers it. */
  readonly reference?: 'expanded' | 'echoed for PSC, else expanded' | 'URL (server-set)';
  readonly onPatch: OnPatch;
  /** How list filters see it; `sortable` when orderBy may name it. */
  readonly filter: FieldType;
}

const TEXT = 'at most 2048 characters';
const output = (shape: Shape, filter: FieldType, more: Partial<FieldSpec> = {}): FieldSpec => ({
  shape,
  setBy: 'output',
  onPatch: 'output',
  filter,
  ...more,
});
const client = (shape: Shape, filter: FieldType, more: Partial<FieldSpec> = {}): FieldSpec => ({
  shape,
  setBy: 'client',
  onPatch: 'immutable',
  filter,
  ...more,
});
const REGISTRATION: MessageShape = {
  namespace: 'string',
  service: 'string',
  serviceDirectoryRegion: 'string',
};
const METADATA_FILTER: MessageShape = {
  filterMatchCriteria: 'enum',
  filterLabels: { repeated: { message: { name: 'string', value: 'string' } } },
};

/**
 * Every field of a Compute Engine v1 ForwardingRule, in the proto's order.
 *
 * @example
 * ```ts
 * FORWARDING_RULE_FIELDS.description.onPatch; // 'patchable'
 * ```
 */
export const FORWARDING_RULE_FIELDS: Readonly<Record<string, FieldSpec>> = {
  kind: output('string', t.string(), { serverDefault: 'compute#forwardingRule' }),
  id: output('uint64', t.int64()),
  // "Currently, only sorting by name or creationTimestamp desc is supported."
  creationTimestamp: output('string', t.timestamp({ sortable: true })),
  name: client('string', t.string({ sortable: true }), {
    limits: 'required; RFC 1035, 1-63 (1-20 lowercase letters and digits for PSC to Google APIs)',
  }),
  description: client('string', t.string(), {
    serverDefault: '""',
    limits: TEXT,
    onPatch: 'patchable',
  }),
  // Output only in Compute's words, but a body may repeat the path's region (clients copy GET
  // answers): create accepts an agreeing one and refuses any other, so it is listed as a client field.
  region: client('string', t.string(), {
    reference: 'URL (server-set)',
    limits: "the request path's region, if given",
  }),
  IPAddress: client('string', t.string(), {
    serverDefault: 'an ephemeral address',
    limits: 'a literal IPv4 or IPv6 address (or IPv6 range)',
  }),
  IPProtocol: client('enum', t.enum(E.IPProtocol), { serverDefault: 'TCP' }),
  portRange: client('string', t.string(), { limits: '`\\d+(?:-\\d+)?`, 1-65535' }),
  ports: client({ repeated: 'string' }, t.repeated(t.string()), { limits: 'at most 5' }),
  allPorts: client('bool', t.bool()),
  target: client('string', t.string(), {
    reference: 'echoed for PSC, else expanded',
    onPatch: 'patchable',
    limits: TEXT,
  }),
  backendService: client('string', t.string(), { reference: 'expanded', limits: TEXT }),
  selfLink: output('string', t.string(), { reference: 'URL (server-set)' }),
  selfLinkWithId: output('string', t.string(), { reference: 'URL (server-set)' }),
  loadBalancingScheme: client('enum', t.enum(E.loadBalancingScheme), { onPatch: 'migration' }),
  subnetwork: client('string', t.string(), { reference: 'expanded', limits: TEXT }),
  network: client('string', t.string(), {
    reference: 'expanded',
    serverDefault: 'the default network (internal and PSC rules)',
    limits: TEXT,
  }),
  serviceDirectoryRegistrations: client(
    { repeated: { message: REGISTRATION } },
    t.repeated(
      t.message({ namespace: t.string(), service: t.string(), serviceDirectoryRegion: t.string() }),
    ),
    { limits: 'at most 1' },
  ),
  serviceLabel: client('string', t.string(), { limits: 'RFC 1035, 1-63' }),
  serviceName: output('string', t.string()),
  networkTier: client('enum', t.enum(E.networkTier), {
    serverDefault: 'PREMIUM',
    onPatch: 'patchable',
  }),
  labels: client({ map: 'string' }, t.map(t.string()), {
    limits: 'the label rule (forwarding-rules/labels.ts); ignored on insert',
    onPatch: 'ignored',
  }),
  labelFingerprint: output('string', t.string()),
  attachedExtensions: output(
    { repeated: { message: { reference: 'string' } } },
    t.repeated(t.message({ reference: t.string() })),
  ),
  ipVersion: client('enum', t.enum(E.ipVersion)),
  fingerprint: output('string', t.string()),
  allowGlobalAccess: client('bool', t.bool(), { onPatch: 'patchable' }),
  metadataFilters: client(
    { repeated: { message: METADATA_FILTER } },
    t.repeated(
      t.message({
        filterMatchCriteria: t.enum(E.filterMatchCriteria),
        filterLabels: t.repeated(t.message({ name: t.string(), value: t.string() })),
      }),
    ),
    { limits: '1-64 filterLabels of 1-1024 characters', onPatch: 'patchable' },
  ),
  isMirroringCollector: client('bool', t.bool()),
  sourceIpRanges: client({ repeated: 'string' }, t.repeated(t.string()), {
    limits: 'at most 64 addresses or CIDR ranges',
    onPatch: 'patchable',
  }),
  pscConnectionId: output('uint64', t.int64()),
  pscConnectionStatus: output('enum', t.enum(E.pscConnectionStatus)),
  baseForwardingRule: output('string', t.string(), { reference: 'URL (server-set)' }),
  allowPscGlobalAccess: client('bool', t.bool(), { onPatch: 'patchable' }),
  noAutomateDnsZone: client('bool', t.bool(), { onPatch: 'patchable' }),
  ipCollection: client('string', t.string(), { reference: 'expanded', limits: TEXT }),
  externalManagedBackendBucketMigrationState: client(
    'enum',
    t.enum(E.externalManagedBackendBucketMigrationState),
    { onPatch: 'migration' },
  ),
  externalManagedBackendBucketMigrationTestingPercentage: client('float', t.double(), {
    limits: '0-100',
    onPatch: 'migration',
  }),
};

/** The names of the fields whose spec satisfies `test`. */
export function fieldsWhere(test: (spec: FieldSpec) => boolean): Set<string> {
  return new Set(
    Object.entries(FORWARDING_RULE_FIELDS)
      .filter(([, spec]) => test(spec))
      .map(([name]) => name),
  );
}
