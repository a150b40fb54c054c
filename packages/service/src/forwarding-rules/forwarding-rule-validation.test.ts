import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import { createEmulator, type Emulator } from '../emulator.js';
import { EMPTY_LABELS_FINGERPRINT } from './fingerprint.js';
import { FORWARDING_RULE_ENUMS } from './forwarding-rule-schema.js';
import {
  CLIENT_FIELDS,
  FORWARDING_RULE_LIMITS,
  OUTPUT_ONLY_FIELDS,
} from './forwarding-rule-validation.js';

type Json = Record<string, unknown>;

const REGION = 'us-central1';
const P = 'https://www.googleapis.com/compute/v1/projects/p';
const R = `${P}/regions/${REGION}`;
const TARGET_POOL = `projects/p/regions/${REGION}/targetPools/pool`;
const BACKEND = `projects/p/regions/${REGION}/backendServices/bs`;
const SUBNET = `regions/${REGION}/subnetworks/sub`;
const HTTP_PROXY = `regions/${REGION}/targetHttpProxies/hp`;
const ATTACHMENT = `projects/prod/regions/${REGION}/serviceAttachments/sa`;

/** An EXTERNAL rule to a target pool (the scheme is the default). */
const ext = (extra: Json = {}): Json => ({ name: 'fr', target: TARGET_POOL, ...extra });
/** A backend service-based EXTERNAL passthrough rule. */
const extBs = (extra: Json = {}): Json => ({ name: 'fr', backendService: BACKEND, ...extra });
/** An IPv6 backend service-based EXTERNAL passthrough rule (needs a subnetwork). */
const ext6 = (extra: Json = {}): Json => extBs({ ipVersion: 'IPV6', subnetwork: SUBNET, ...extra });
/** An internal passthrough rule. */
const int = (extra: Json = {}): Json => ({
  name: 'fr',
  loadBalancingScheme: 'INTERNAL',
  backendService: BACKEND,
  ...extra,
});
/** A proxy rule (regional application load balancer). */
const proxy = (scheme: string, extra: Json = {}): Json => ({
  name: 'fr',
  loadBalancingScheme: scheme,
  target: HTTP_PROXY,
  portRange: '80',
  ...extra,
});
/** A Private Service Connect rule to the Google APIs bundle all-apis. */
const apis = (extra: Json = {}): Json => ({
  name: 'apis1',
  target: 'all-apis',
  network: 'global/networks/vpc',
  IPAddress: '10.0.0.5',
  ...extra,
});
/** A Private Service Connect rule to a published service. */
const psc = (extra: Json = {}): Json => ({
  name: 'fr',
  target: ATTACHMENT,
  network: 'global/networks/vpc',
  ...extra,
});

const a = (n: number) => 'a'.repeat(n);
const labelsOf = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
const filterLabels = (n: number, label: Json = { name: 'n', value: 'v' }) =>
  Array.from({ length: n }, () => label);
const filters = (labels: unknown[]) => [{ filterMatchCriteria: 'MATCH_ANY', filterLabels: labels }];
const ranges = (n: number) => Array.from({ length: n }, (_, i) => `10.${i}.0.0/16`);

/** One insert and what must come of it. */
interface Row {
  case: string;
  body: unknown;
  /** Rules inserted first (each must be accepted). */
  before?: Json[];
  /** The region of the request path (default us-central1). */
  region?: string;
  /** The region the `before` rules go to (default: `region`). */
  beforeRegion?: string;
  status: number;
  reason?: string;
  /** The field the error names: `error.errors[0].location` is `resource.<field>`, and the message names it. */
  field?: string;
  /** Text the message must contain (errors without a location). */
  says?: string;
  /** What GET answers for an accepted rule (toMatchObject). */
  stored?: Json;
  /** Fields GET must not answer. */
  absent?: string[];
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await createEmulator();
});
beforeEach(() => emulator.reset());

const rulesUrl = (region = REGION) =>
  `http://x/compute/v1/projects/p/regions/${region}/forwardingRules`;
const insert = (body: unknown, region?: string) =>
  call<Json>(emulator, 'POST', rulesUrl(region), {
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const get = (name: string, region?: string) =>
  call<Json>(emulator, 'GET', `${rulesUrl(region)}/${name}`);

async function check(row: Row): Promise<void> {
  for (const rule of row.before ?? []) {
    const res = await insert(rule, row.beforeRegion ?? row.region);
    expect(res.status, `before: ${JSON.stringify(res.json)}`).toBe(200);
  }
  const res = await insert(row.body, row.region);
  const name = (row.body as Json | undefined)?.name;
  if (row.status === 200) {
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ kind: 'compute#operation', operationType: 'insert' });
    const stored = await get(String(name), row.region);
    expect(stored.status).toBe(200);
    expect(stored.json).toMatchObject(row.stored ?? {});
    for (const field of row.absent ?? []) expect(stored.json[field], field).toBeUndefined();
    return;
  }
  expect(res.status, JSON.stringify(res.json)).toBe(row.status);
  const error = res.json.error as { code: number; message: string; errors: Json[] };
  expect(error.code).toBe(row.status);
  expect(error.errors).toHaveLength(1);
  expect(error.errors[0]!.message).toBe(error.message);
  if (row.reason) expect(error.errors[0]!.reason).toBe(row.reason);
  if (row.field !== undefined) {
    expect(error.errors[0]!.location).toBe(`resource.${row.field}`);
    expect(error.message).toContain(`'resource.${row.field}'`);
  }
  if (row.says) expect(error.message).toContain(row.says);
  // a refused insert creates nothing
  if (
    typeof name === 'string' &&
    /^[a-z][-a-z0-9]*$/.test(name) &&
    !row.before?.some((b) => b.name === name)
  ) {
    expect((await get(name, row.region)).status).toBe(404);
  }
}

const table = (rows: Row[]) => it.each(rows)('$case → $status', check);

describe('the body as JSON', () => {
  table([
    {
      case: 'no body',
      body: undefined,
      status: 400,
      reason: 'required',
      says: "Required field 'resource' not specified",
    },
    { case: 'an array', body: [ext()], status: 400, reason: 'badRequest' },
    {
      case: 'an unknown field',
      body: ext({ foo: 1 }),
      status: 400,
      reason: 'badRequest',
      says: `Invalid JSON payload received. Unknown name "foo" at 'resource': Cannot find field.`,
    },
    {
      case: 'an unknown field in serviceDirectoryRegistrations[0]',
      body: int({ serviceDirectoryRegistrations: [{ namespace: 'ns', zone: 'x' }] }),
      status: 400,
      reason: 'badRequest',
      says: `Unknown name "zone" at 'resource.serviceDirectoryRegistrations[0]'`,
    },
    {
      case: 'an unknown field in a filter label',
      body: ext({ metadataFilters: filters([{ name: 'n', value: 'v', op: 'eq' }]) }),
      status: 400,
      reason: 'badRequest',
      says: `Unknown name "op" at 'resource.metadataFilters[0].filterLabels[0]'`,
    },
    {
      case: 'name as a number',
      body: { name: 5 },
      status: 400,
      reason: 'invalid',
      field: 'name',
      says: "Invalid value at 'resource.name' (TYPE_STRING), 5",
    },
    {
      case: 'portRange as a number',
      body: ext({ portRange: 70000 }),
      status: 400,
      field: 'portRange',
      says: '(TYPE_STRING), 70000',
    },
    {
      case: 'allPorts as a string',
      body: extBs({ allPorts: 'true' }),
      status: 400,
      field: 'allPorts',
      says: 'TYPE_BOOL',
    },
    { case: 'ports as a string', body: extBs({ ports: '80' }), status: 400, field: 'ports' },
    { case: 'ports[0] as a number', body: extBs({ ports: [80] }), status: 400, field: 'ports[0]' },
    {
      case: 'description as an object',
      body: ext({ description: {} }),
      status: 400,
      field: 'description',
    },
    {
      case: 'IPProtocol as a number',
      body: ext({ IPProtocol: 6 }),
      status: 400,
      field: 'IPProtocol',
      says: 'TYPE_ENUM',
    },
    { case: 'labels as a list', body: ext({ labels: ['env'] }), status: 400, field: 'labels' },
    {
      case: 'a label value as a number',
      body: ext({ labels: { env: 1 } }),
      status: 400,
      field: 'labels.env',
    },
    {
      case: 'sourceIpRanges[1] as a number',
      body: ext({ sourceIpRanges: ['1.2.3.4', 5] }),
      status: 400,
      field: 'sourceIpRanges[1]',
    },
    {
      case: 'metadataFilters as a string',
      body: ext({ metadataFilters: 'x' }),
      status: 400,
      field: 'metadataFilters',
      says: 'TYPE_MESSAGE',
    },
    {
      case: 'serviceDirectoryRegistrations[0] as a number',
      body: int({ serviceDirectoryRegistrations: [5] }),
      status: 400,
      field: 'serviceDirectoryRegistrations[0]',
    },
    {
      case: 'the migration percentage as a word',
      body: ext({ externalManagedBackendBucketMigrationTestingPercentage: 'half' }),
      status: 400,
      field: 'externalManagedBackendBucketMigrationTestingPercentage',
      says: 'TYPE_FLOAT',
    },
    {
      case: 'an output-only id that is no uint64',
      body: ext({ id: 'abc' }),
      status: 400,
      field: 'id',
      says: 'TYPE_UINT64',
    },
    {
      case: 'null fields (unset in proto3 JSON)',
      body: ext({ portRange: null, description: null, labels: null, IPAddress: null }),
      status: 200,
      stored: { description: '' },
      absent: ['portRange', 'labels'],
    },
    {
      case: 'empty strings (unset)',
      body: ext({ portRange: '', loadBalancingScheme: '', IPProtocol: '', serviceLabel: '' }),
      status: 200,
      stored: { loadBalancingScheme: 'EXTERNAL', IPProtocol: 'TCP' },
      absent: ['portRange', 'serviceLabel'],
    },
  ]);
});

describe('defaults, normalisation and output-only fields', () => {
  table([
    {
      case: 'a minimal external rule gets the recorded defaults',
      body: ext(),
      status: 200,
      stored: {
        kind: 'compute#forwardingRule',
        name: 'fr',
        description: '',
        IPProtocol: 'TCP',
        loadBalancingScheme: 'EXTERNAL',
        networkTier: 'PREMIUM',
        target: `${R}/targetPools/pool`,
        region: R,
        selfLink: `${R}/forwardingRules/fr`,
        labelFingerprint: EMPTY_LABELS_FINGERPRINT,
      },
      absent: ['labels', 'allPorts', 'network', 'ipVersion', 'serviceName', 'baseForwardingRule'],
    },
    {
      case: 'a full reference with another host is kept as given',
      body: ext({ target: `https://compute.googleapis.com/compute/v1/${TARGET_POOL}` }),
      status: 200,
      stored: { target: `https://compute.googleapis.com/compute/v1/${TARGET_POOL}` },
    },
    {
      case: 'output-only fields in the body are ignored',
      body: ext({
        kind: 'compute#somethingElse',
        id: '123',
        creationTimestamp: '2000-01-01T00:00:00Z',
        selfLink: 'https://evil.example/x',
        selfLinkWithId: 'https://evil.example/y',
        serviceName: 'x.internal',
        pscConnectionId: '7',
        pscConnectionStatus: 'ACCEPTED',
        baseForwardingRule: 'https://evil.example/z',
        attachedExtensions: [{ reference: 'ext' }],
        labelFingerprint: 'AAAAAAAAAAA=',
        fingerprint: 'AAAAAAAAAAA=',
      }),
      status: 200,
      stored: { kind: 'compute#forwardingRule', selfLink: `${R}/forwardingRules/fr` },
      absent: [
        'serviceName',
        'pscConnectionId',
        'pscConnectionStatus',
        'baseForwardingRule',
        'attachedExtensions',
      ],
    },
    {
      case: 'region given as the path’s region name',
      body: ext({ region: REGION }),
      status: 200,
      stored: { region: R },
    },
    { case: 'region given as the path’s region URL', body: ext({ region: R }), status: 200 },
    {
      case: 'region given as a relative path',
      body: ext({ region: `projects/p/regions/${REGION}` }),
      status: 200,
    },
    {
      case: 'region of another region',
      body: ext({ region: 'europe-west1' }),
      status: 400,
      reason: 'invalid',
      field: 'region',
    },
    {
      case: 'region of another project',
      body: ext({ region: `projects/q/regions/${REGION}` }),
      status: 400,
      field: 'region',
    },
    {
      case: 'region URL of another region',
      body: ext({ region: `${P}/regions/asia-east1` }),
      status: 400,
      field: 'region',
    },
    {
      case: 'a false boolean is omitted',
      body: ext({
        allowGlobalAccess: false,
        isMirroringCollector: false,
        noAutomateDnsZone: false,
      }),
      status: 200,
      absent: ['allowGlobalAccess', 'isMirroringCollector', 'noAutomateDnsZone'],
    },
  ]);
});

describe('name', () => {
  table([
    {
      case: 'missing',
      body: { target: TARGET_POOL },
      status: 400,
      reason: 'required',
      field: 'name',
      says: "Required field 'resource.name' not specified",
    },
    { case: 'empty', body: ext({ name: '' }), status: 400, reason: 'required', field: 'name' },
    { case: '1 character', body: ext({ name: 'a' }), status: 200 },
    { case: '63 characters', body: ext({ name: a(63) }), status: 200 },
    {
      case: '64 characters',
      body: ext({ name: a(64) }),
      status: 400,
      reason: 'invalid',
      field: 'name',
      says: "Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'",
    },
    { case: 'with hyphens and digits', body: ext({ name: 'web-1-a' }), status: 200 },
    { case: 'an uppercase letter', body: ext({ name: 'Web' }), status: 400, field: 'name' },
    { case: 'a leading digit', body: ext({ name: '1web' }), status: 400, field: 'name' },
    { case: 'a trailing hyphen', body: ext({ name: 'web-' }), status: 400, field: 'name' },
    { case: 'an underscore', body: ext({ name: 'web_1' }), status: 400, field: 'name' },
    {
      case: 'a duplicate',
      before: [ext()],
      body: ext(),
      status: 409,
      reason: 'alreadyExists',
      says: 'already exists',
    },
    { case: 'PSC to Google APIs: 1 character', body: apis({ name: 'a' }), status: 200 },
    {
      case: 'PSC to Google APIs: 20 characters',
      body: apis({ name: `a${'1'.repeat(19)}` }),
      status: 200,
    },
    {
      case: 'PSC to Google APIs: 21 characters',
      body: apis({ name: `a${'1'.repeat(20)}` }),
      status: 400,
      field: 'name',
      says: "'(?:[a-z][a-z0-9]{0,19})'",
    },
    {
      case: 'PSC to Google APIs: a hyphen',
      body: apis({ name: 'apis-1' }),
      status: 400,
      field: 'name',
    },
    {
      case: 'PSC to Google APIs: a leading digit',
      body: apis({ name: '1apis' }),
      status: 400,
      field: 'name',
    },
    { case: 'PSC to a service attachment: 63 characters', body: psc({ name: a(63) }), status: 200 },
  ]);
});

describe('enums', () => {
  const E = FORWARDING_RULE_ENUMS;
  table([
    ...['AH', 'ESP', 'ICMP', 'SCTP', 'TCP', 'UDP'].map((p) => ({
      case: `IPProtocol ${p}`,
      body: ext({ IPProtocol: p }),
      status: 200,
      stored: { IPProtocol: p },
    })),
    {
      case: 'IPProtocol L3_DEFAULT (with allPorts)',
      body: extBs({ IPProtocol: 'L3_DEFAULT', allPorts: true }),
      status: 200,
      stored: { IPProtocol: 'L3_DEFAULT', allPorts: true },
    },
    {
      case: 'IPProtocol in lowercase',
      body: ext({ IPProtocol: 'tcp' }),
      status: 400,
      reason: 'invalid',
      field: 'IPProtocol',
      says: `Must be one of [${E.IPProtocol.join(', ')}]`,
    },
    { case: 'IPProtocol GRE', body: ext({ IPProtocol: 'GRE' }), status: 400, field: 'IPProtocol' },
    {
      case: 'loadBalancingScheme absent → EXTERNAL',
      body: ext(),
      status: 200,
      stored: { loadBalancingScheme: 'EXTERNAL' },
    },
    {
      case: 'loadBalancingScheme EXTERNAL',
      body: ext({ loadBalancingScheme: 'EXTERNAL' }),
      status: 200,
    },
    {
      case: 'loadBalancingScheme INTERNAL',
      body: int(),
      status: 200,
      stored: { loadBalancingScheme: 'INTERNAL' },
    },
    {
      case: 'loadBalancingScheme INTERNAL_MANAGED',
      body: proxy('INTERNAL_MANAGED'),
      status: 200,
      stored: { loadBalancingScheme: 'INTERNAL_MANAGED' },
    },
    {
      case: 'loadBalancingScheme EXTERNAL_MANAGED',
      body: proxy('EXTERNAL_MANAGED'),
      status: 200,
      stored: { loadBalancingScheme: 'EXTERNAL_MANAGED' },
    },
    {
      case: 'loadBalancingScheme INTERNAL_SELF_MANAGED (global only)',
      body: ext({ loadBalancingScheme: 'INTERNAL_SELF_MANAGED', target: undefined }),
      status: 400,
      field: 'loadBalancingScheme',
      says: 'global',
    },
    {
      case: 'loadBalancingScheme INVALID',
      body: ext({ loadBalancingScheme: 'INVALID' }),
      status: 400,
      field: 'loadBalancingScheme',
    },
    {
      case: 'loadBalancingScheme in lowercase',
      body: ext({ loadBalancingScheme: 'external' }),
      status: 400,
      field: 'loadBalancingScheme',
    },
    {
      case: 'networkTier absent → PREMIUM',
      body: ext(),
      status: 200,
      stored: { networkTier: 'PREMIUM' },
    },
    {
      case: 'networkTier PREMIUM',
      body: ext({ networkTier: 'PREMIUM' }),
      status: 200,
      stored: { networkTier: 'PREMIUM' },
    },
    {
      case: 'networkTier STANDARD',
      body: ext({ networkTier: 'STANDARD' }),
      status: 200,
      stored: { networkTier: 'STANDARD' },
    },
    {
      case: 'networkTier FIXED_STANDARD (output only)',
      body: ext({ networkTier: 'FIXED_STANDARD' }),
      status: 400,
      field: 'networkTier',
    },
    {
      case: 'networkTier STANDARD_OVERRIDES_FIXED_STANDARD (output only)',
      body: ext({ networkTier: 'STANDARD_OVERRIDES_FIXED_STANDARD' }),
      status: 400,
      field: 'networkTier',
    },
    {
      case: 'networkTier GOLD',
      body: ext({ networkTier: 'GOLD' }),
      status: 400,
      field: 'networkTier',
    },
    {
      case: 'networkTier STANDARD on an INTERNAL rule',
      body: int({ networkTier: 'STANDARD' }),
      status: 400,
      field: 'networkTier',
    },
    {
      case: 'networkTier STANDARD on a PSC rule',
      body: psc({ networkTier: 'STANDARD' }),
      status: 400,
      field: 'networkTier',
    },
    {
      case: 'ipVersion IPV4',
      body: ext({ ipVersion: 'IPV4' }),
      status: 200,
      stored: { ipVersion: 'IPV4' },
    },
    { case: 'ipVersion IPV6', body: ext6(), status: 200, stored: { ipVersion: 'IPV6' } },
    {
      case: 'ipVersion UNSPECIFIED_VERSION (= unset)',
      body: ext({ ipVersion: 'UNSPECIFIED_VERSION' }),
      status: 200,
      absent: ['ipVersion'],
    },
    { case: 'ipVersion IPV5', body: ext({ ipVersion: 'IPV5' }), status: 400, field: 'ipVersion' },
    {
      case: 'metadataFilters[0].filterMatchCriteria MATCH_SOME',
      body: ext({
        metadataFilters: [{ filterMatchCriteria: 'MATCH_SOME', filterLabels: filterLabels(1) }],
      }),
      status: 400,
      field: 'metadataFilters[0].filterMatchCriteria',
    },
    {
      case: 'externalManagedBackendBucketMigrationState DONE',
      body: ext({ externalManagedBackendBucketMigrationState: 'DONE' }),
      status: 400,
      field: 'externalManagedBackendBucketMigrationState',
    },
  ]);
});

describe('IPAddress and ipVersion', () => {
  table([
    {
      case: 'an IPv4 address',
      body: ext({ IPAddress: '203.0.113.10' }),
      status: 200,
      stored: { IPAddress: '203.0.113.10' },
    },
    {
      case: 'an IPv6 address, in canonical form',
      body: ext6({ IPAddress: '2001:DB8:0:0::01' }),
      status: 200,
      stored: { IPAddress: '2001:db8::1' },
    },
    {
      case: 'an IPv6 range',
      body: ext6({ IPAddress: '2001:db8:0:0:1::/96' }),
      status: 200,
      stored: { IPAddress: '2001:db8:0:0:1::/96' },
    },
    {
      case: 'absent: an ephemeral one is assigned',
      body: ext(),
      status: 200,
      stored: { IPAddress: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) },
    },
    {
      case: 'an octet above 255',
      body: ext({ IPAddress: '256.1.1.1' }),
      status: 400,
      reason: 'invalid',
      field: 'IPAddress',
      says: 'Must be a literal IP address or URL referencing an Address resource.',
    },
    { case: 'three octets', body: ext({ IPAddress: '1.2.3' }), status: 400, field: 'IPAddress' },
    {
      case: 'a leading zero',
      body: ext({ IPAddress: '01.2.3.4' }),
      status: 400,
      field: 'IPAddress',
    },
    {
      case: 'an IPv4 range',
      body: ext({ IPAddress: '1.2.3.0/24' }),
      status: 400,
      field: 'IPAddress',
    },
    { case: 'words', body: ext({ IPAddress: 'not an ip!' }), status: 400, field: 'IPAddress' },
    {
      case: 'an address name (no such address)',
      body: ext({ IPAddress: 'my-address' }),
      status: 404,
      reason: 'notFound',
      says: `The resource 'projects/p/regions/${REGION}/addresses/my-address' was not found`,
    },
    {
      case: 'an address path (no such address)',
      body: ext({ IPAddress: `projects/q/regions/${REGION}/addresses/x` }),
      status: 404,
      says: `'projects/q/regions/${REGION}/addresses/x'`,
    },
    {
      case: 'an address URL (no such address)',
      body: ext({ IPAddress: `${R}/addresses/x` }),
      status: 404,
    },
    {
      case: 'ipVersion IPV6 with an IPv4 address',
      body: ext6({ IPAddress: '203.0.113.1' }),
      status: 400,
      field: 'ipVersion',
    },
    {
      case: 'ipVersion IPV4 with an IPv6 address',
      body: ext({ ipVersion: 'IPV4', IPAddress: '2001:db8::1' }),
      status: 400,
      field: 'ipVersion',
    },
  ]);
});

describe('target and backendService', () => {
  table([
    {
      case: 'a target pool in the region',
      body: ext(),
      status: 200,
      stored: { target: `${R}/targetPools/pool` },
    },
    {
      case: 'a target pool in another region',
      body: ext({ target: 'regions/europe-west1/targetPools/pool' }),
      status: 400,
      reason: 'invalid',
      field: 'target',
      says: REGION,
    },
    {
      case: 'a target instance in a zone of the region',
      body: ext({ target: `zones/${REGION}-a/targetInstances/ti` }),
      status: 200,
      stored: { target: `${P}/zones/${REGION}-a/targetInstances/ti` },
    },
    {
      case: 'a target instance in a zone of another region',
      body: ext({ target: 'zones/europe-west1-b/targetInstances/ti' }),
      status: 400,
      field: 'target',
    },
    {
      case: 'a target instance on an INTERNAL rule (protocol forwarding)',
      body: int({ backendService: undefined, target: `zones/${REGION}-b/targetInstances/ti` }),
      status: 200,
    },
    {
      case: 'a VPN gateway',
      body: ext({ IPProtocol: 'ESP', target: `regions/${REGION}/targetVpnGateways/vpn` }),
      status: 200,
    },
    {
      case: 'a global target proxy',
      body: proxy('EXTERNAL_MANAGED', { target: 'global/targetHttpProxies/hp' }),
      status: 400,
      field: 'target',
      says: 'Invalid target type TARGET_HTTP_PROXY for forwarding rule in scope REGION',
    },
    {
      case: 'a regional collection that is no target',
      body: ext({ target: `regions/${REGION}/instances/vm` }),
      status: 400,
      field: 'target',
    },
    {
      case: 'a collection named like an Object property',
      body: ext({ target: `regions/${REGION}/constructor/x` }),
      status: 400,
      field: 'target',
    },
    {
      case: 'a bare name',
      body: ext({ target: 'pool' }),
      status: 400,
      field: 'target',
      says: 'The URL is malformed.',
    },
    ...[
      ['a name with _ and !', `${R}/targetPools/T_T!`],
      ['a name with a space', `${R}/targetPools/a b`],
      ['a name holding U+FFFF', `${R}/targetPools/po\uffffol`],
      ['a name in capitals', `${R}/targetPools/Pool`],
      ['a name ending in -', `${R}/targetPools/pool-`],
      ['a region that is no name', 'regions/US_CENTRAL1/targetPools/pool'],
      ['a project that is no id', 'projects/P!/regions/us-central1/targetPools/pool'],
      [
        'a full URL whose name is no name',
        `https://compute.googleapis.com/compute/v1/${R}/targetPools/a b`,
      ],
    ].map(([what, target]) => ({
      case: `a target whose segment breaks the naming rule: ${what}`,
      body: ext({ target }),
      status: 400,
      field: 'target',
      says: 'The URL is malformed.',
    })),
    {
      case: 'a target pool on an INTERNAL rule',
      body: int({ backendService: undefined, target: TARGET_POOL }),
      status: 400,
      field: 'target',
      says: 'TARGET_POOL',
    },
    {
      case: 'a target proxy on an EXTERNAL rule',
      body: ext({ target: HTTP_PROXY }),
      status: 400,
      field: 'target',
    },
    {
      case: 'a target HTTPS proxy on an INTERNAL_MANAGED rule',
      body: proxy('INTERNAL_MANAGED', {
        target: `regions/${REGION}/targetHttpsProxies/p`,
        portRange: '443',
      }),
      status: 200,
    },
    {
      case: 'a target TCP proxy on an EXTERNAL_MANAGED rule',
      body: proxy('EXTERNAL_MANAGED', { target: `regions/${REGION}/targetTcpProxies/p` }),
      status: 200,
    },
    {
      case: 'target and backendService together',
      body: ext({ backendService: BACKEND }),
      status: 400,
      field: 'backendService',
      says: 'mutually exclusive',
    },
    {
      case: 'a backendService on an EXTERNAL rule',
      body: extBs(),
      status: 200,
      stored: { backendService: `${R}/backendServices/bs`, loadBalancingScheme: 'EXTERNAL' },
    },
    {
      case: 'a backendService on an INTERNAL rule',
      body: int(),
      status: 200,
      stored: { backendService: `${R}/backendServices/bs` },
    },
    {
      case: 'a global backendService',
      body: extBs({ backendService: 'global/backendServices/bs' }),
      status: 400,
      field: 'backendService',
    },
    {
      case: 'a backendService in another region',
      body: extBs({ backendService: 'regions/asia-east1/backendServices/bs' }),
      status: 400,
      field: 'backendService',
    },
    {
      case: 'a malformed backendService',
      body: extBs({ backendService: 'bs' }),
      status: 400,
      field: 'backendService',
      says: 'The URL is malformed.',
    },
    {
      case: 'a backendService on an INTERNAL_MANAGED rule',
      body: proxy('INTERNAL_MANAGED', { target: undefined, backendService: BACKEND }),
      status: 400,
      field: 'backendService',
    },
    {
      case: 'a backendService on a PSC rule',
      body: psc({ backendService: BACKEND }),
      status: 400,
      field: 'backendService',
    },
    {
      case: 'neither (accepted: the emulator does not require one)',
      body: { name: 'fr' },
      status: 200,
      absent: ['target', 'backendService'],
    },
  ]);
});

describe('Private Service Connect', () => {
  table([
    {
      case: 'to a service attachment: no scheme, TCP, PREMIUM',
      body: psc(),
      status: 200,
      // Recorded real traffic: a PSC target comes back exactly as sent, not expanded.
      stored: {
        target: ATTACHMENT,
        IPProtocol: 'TCP',
        networkTier: 'PREMIUM',
      },
      absent: ['loadBalancingScheme'],
    },
    {
      case: 'to a service attachment named by full URL: the URL comes back as sent',
      body: psc({ target: `https://compute.googleapis.com/compute/v1/${ATTACHMENT}` }),
      status: 200,
      stored: { target: `https://compute.googleapis.com/compute/v1/${ATTACHMENT}` },
    },
    {
      case: 'to a service attachment with an empty scheme',
      body: psc({ loadBalancingScheme: '' }),
      status: 200,
      absent: ['loadBalancingScheme'],
    },
    {
      case: 'to a service attachment with a scheme',
      body: psc({ loadBalancingScheme: 'INTERNAL' }),
      status: 400,
      field: 'loadBalancingScheme',
    },
    {
      case: 'to a service attachment in another region',
      body: psc({ target: 'projects/prod/regions/europe-west1/serviceAttachments/sa' }),
      status: 400,
      field: 'target',
    },
    {
      case: 'to a service attachment without network: the default one',
      body: psc({ network: undefined }),
      status: 200,
      stored: { network: `${P}/global/networks/default` },
    },
    {
      case: 'to a service attachment with labels',
      body: psc({ labels: { env: 'prod' } }),
      status: 400,
      field: 'labels',
      says: 'Invalid field set in Private Service Connect Forwarding Rule',
    },
    { case: 'to a service attachment with empty labels', body: psc({ labels: {} }), status: 200 },
    {
      case: 'to a service attachment with a portRange',
      body: psc({ portRange: '80' }),
      status: 400,
      field: 'portRange',
    },
    {
      case: 'allowPscGlobalAccess on a PSC rule',
      body: psc({ allowPscGlobalAccess: true }),
      status: 200,
      stored: { allowPscGlobalAccess: true },
    },
    {
      case: 'allowPscGlobalAccess on an EXTERNAL rule',
      body: ext({ allowPscGlobalAccess: true }),
      status: 400,
      field: 'allowPscGlobalAccess',
    },
    {
      case: 'to all-apis: the bundle is kept as given',
      body: apis(),
      status: 200,
      stored: { target: 'all-apis', network: `${P}/global/networks/vpc`, IPAddress: '10.0.0.5' },
      absent: ['loadBalancingScheme'],
    },
    {
      case: 'to vpc-sc',
      body: apis({ target: 'vpc-sc' }),
      status: 200,
      stored: { target: 'vpc-sc' },
    },
    {
      case: 'to Google APIs without network',
      body: apis({ network: undefined }),
      status: 400,
      reason: 'required',
      field: 'network',
    },
    {
      case: 'to Google APIs without IPAddress',
      body: apis({ IPAddress: undefined }),
      status: 400,
      reason: 'required',
      field: 'IPAddress',
    },
    {
      case: 'to Google APIs with a scheme',
      body: apis({ loadBalancingScheme: 'EXTERNAL' }),
      status: 400,
      field: 'loadBalancingScheme',
    },
  ]);
});

describe('network, subnetwork and ipCollection', () => {
  table([
    {
      case: 'INTERNAL without network or subnetwork: the default network',
      body: int(),
      status: 200,
      stored: { network: `${P}/global/networks/default` },
      absent: ['subnetwork'],
    },
    {
      case: 'INTERNAL with a subnetwork only',
      body: int({ subnetwork: SUBNET }),
      status: 200,
      stored: { subnetwork: `${R}/subnetworks/sub` },
      absent: ['network'],
    },
    {
      case: 'INTERNAL with network and subnetwork',
      body: int({ network: 'global/networks/vpc', subnetwork: SUBNET }),
      status: 200,
      stored: { network: `${P}/global/networks/vpc`, subnetwork: `${R}/subnetworks/sub` },
    },
    {
      case: 'INTERNAL_MANAGED without network: the default network',
      body: proxy('INTERNAL_MANAGED'),
      status: 200,
      stored: { network: `${P}/global/networks/default` },
    },
    { case: 'EXTERNAL without network: none', body: ext(), status: 200, absent: ['network'] },
    {
      case: 'a bare network name',
      body: int({ network: 'default' }),
      status: 400,
      field: 'network',
      says: 'The URL is malformed.',
    },
    {
      case: 'a subnetwork URL as network',
      body: int({ network: SUBNET }),
      status: 400,
      field: 'network',
    },
    {
      case: 'a subnetwork in another region',
      body: int({ subnetwork: 'regions/europe-west1/subnetworks/sub' }),
      status: 400,
      field: 'subnetwork',
    },
    {
      case: 'a global subnetwork path',
      body: int({ subnetwork: 'global/subnetworks/sub' }),
      status: 400,
      field: 'subnetwork',
    },
    {
      case: 'a subnetwork on an IPv4 EXTERNAL rule',
      body: ext({ subnetwork: SUBNET }),
      status: 400,
      field: 'subnetwork',
    },
    {
      case: 'a subnetwork on an EXTERNAL_MANAGED rule',
      body: proxy('EXTERNAL_MANAGED', { subnetwork: SUBNET }),
      status: 400,
      field: 'subnetwork',
    },
    {
      case: 'an IPv6 EXTERNAL rule without subnetwork',
      body: extBs({ ipVersion: 'IPV6' }),
      status: 400,
      reason: 'required',
      field: 'subnetwork',
    },
    {
      case: 'an IPv6 EXTERNAL rule (by its address) without subnetwork',
      body: extBs({ IPAddress: '2001:db8::7' }),
      status: 400,
      field: 'subnetwork',
    },
    {
      case: 'ipCollection on an IPv6 EXTERNAL rule',
      body: ext6({ ipCollection: `regions/${REGION}/publicDelegatedPrefixes/pdp` }),
      status: 200,
      stored: { ipCollection: `${R}/publicDelegatedPrefixes/pdp` },
    },
    {
      case: 'ipCollection on an IPv4 rule',
      body: ext({ ipCollection: `regions/${REGION}/publicDelegatedPrefixes/pdp` }),
      status: 400,
      field: 'ipCollection',
    },
    {
      case: 'ipCollection in another region',
      body: ext6({ ipCollection: 'regions/asia-east1/publicDelegatedPrefixes/pdp' }),
      status: 400,
      field: 'ipCollection',
    },
    {
      case: 'ipCollection of another collection',
      body: ext6({ ipCollection: `regions/${REGION}/addresses/pdp` }),
      status: 400,
      field: 'ipCollection',
    },
  ]);
});

describe('portRange, ports and allPorts', () => {
  table([
    {
      case: 'portRange 90 → 90-90',
      body: ext({ portRange: '90' }),
      status: 200,
      stored: { portRange: '90-90' },
    },
    {
      case: 'portRange 80-90',
      body: ext({ portRange: '80-90' }),
      status: 200,
      stored: { portRange: '80-90' },
    },
    {
      case: 'portRange 1',
      body: ext({ portRange: '1' }),
      status: 200,
      stored: { portRange: '1-1' },
    },
    {
      case: 'portRange 65535',
      body: ext({ portRange: '65535' }),
      status: 200,
      stored: { portRange: '65535-65535' },
    },
    { case: 'portRange 1-65535', body: ext({ portRange: '1-65535' }), status: 200 },
    {
      case: 'portRange 080 (leading zero)',
      body: ext({ portRange: '080' }),
      status: 200,
      stored: { portRange: '80-80' },
    },
    {
      case: 'portRange 0',
      body: ext({ portRange: '0' }),
      status: 400,
      reason: 'invalid',
      field: 'portRange',
      says: "'resource.portRange': '0'",
    },
    { case: 'portRange 65536', body: ext({ portRange: '65536' }), status: 400, field: 'portRange' },
    {
      case: 'portRange 70000',
      body: ext({ portRange: '70000' }),
      status: 400,
      field: 'portRange',
      says: "Invalid value for field 'resource.portRange': '70000'.",
    },
    {
      case: 'portRange 90-80 (low > high)',
      body: ext({ portRange: '90-80' }),
      status: 400,
      field: 'portRange',
    },
    { case: 'portRange 80-', body: ext({ portRange: '80-' }), status: 400, field: 'portRange' },
    { case: 'portRange http', body: ext({ portRange: 'http' }), status: 400, field: 'portRange' },
    {
      case: 'portRange with a space',
      body: ext({ portRange: ' 80' }),
      status: 400,
      field: 'portRange',
    },
    {
      case: 'ports on a backend service rule',
      body: extBs({ ports: ['80', '443'] }),
      status: 200,
      stored: { ports: ['80', '443'] },
    },
    { case: '5 ports', body: int({ ports: ['1', '2', '3', '4', '5'] }), status: 200 },
    {
      case: '6 ports',
      body: int({ ports: ['1', '2', '3', '4', '5', '6'] }),
      status: 400,
      field: 'ports',
      says: 'At most 5',
    },
    {
      case: 'a port range in ports',
      body: int({ ports: ['8000-8080'] }),
      status: 200,
      stored: { ports: ['8000-8080'] },
    },
    { case: 'ports[1] is 0', body: int({ ports: ['80', '0'] }), status: 400, field: 'ports[1]' },
    { case: 'ports[0] is 65536', body: int({ ports: ['65536'] }), status: 400, field: 'ports[0]' },
    {
      case: 'portRange and ports',
      body: extBs({ portRange: '80', ports: ['80'] }),
      status: 400,
      field: 'ports',
      says: 'mutually exclusive',
    },
    {
      case: 'allPorts and portRange',
      body: extBs({ portRange: '80', allPorts: true }),
      status: 400,
      field: 'allPorts',
    },
    {
      case: 'allPorts and ports',
      body: int({ ports: ['80'], allPorts: true }),
      status: 400,
      field: 'allPorts',
    },
    {
      case: 'allPorts on an INTERNAL rule',
      body: int({ allPorts: true }),
      status: 200,
      stored: { allPorts: true },
    },
    {
      case: 'allPorts on a target instance',
      body: ext({ target: `zones/${REGION}-a/targetInstances/ti`, allPorts: true }),
      status: 200,
    },
    {
      case: 'allPorts false is omitted',
      body: ext({ allPorts: false }),
      status: 200,
      absent: ['allPorts'],
    },
    {
      case: 'L3_DEFAULT without allPorts',
      body: extBs({ IPProtocol: 'L3_DEFAULT' }),
      status: 400,
      field: 'allPorts',
      says: 'L3_DEFAULT',
    },
    {
      case: 'L3_DEFAULT with allPorts false',
      body: int({ IPProtocol: 'L3_DEFAULT', allPorts: false }),
      status: 400,
      field: 'allPorts',
    },
    {
      case: 'L3_DEFAULT with ports',
      body: int({ IPProtocol: 'L3_DEFAULT', ports: ['80'] }),
      status: 400,
      field: 'ports',
    },
    {
      case: 'L3_DEFAULT with portRange',
      body: extBs({ IPProtocol: 'L3_DEFAULT', portRange: '80' }),
      status: 400,
      field: 'portRange',
    },
    {
      case: 'portRange with ESP',
      body: ext({ IPProtocol: 'ESP', portRange: '500' }),
      status: 400,
      field: 'portRange',
      says: 'TCP, UDP or SCTP',
    },
    {
      case: 'ports with ICMP',
      body: extBs({ IPProtocol: 'ICMP', ports: ['1'] }),
      status: 400,
      field: 'ports',
    },
    {
      case: 'allPorts with AH',
      body: extBs({ IPProtocol: 'AH', allPorts: true }),
      status: 400,
      field: 'allPorts',
    },
    { case: 'portRange with SCTP', body: ext({ IPProtocol: 'SCTP', portRange: '9' }), status: 200 },
    {
      case: 'ports on a target pool rule',
      body: ext({ ports: ['80'] }),
      status: 400,
      field: 'ports',
    },
    {
      case: 'ports on a proxy rule',
      body: proxy('INTERNAL_MANAGED', { portRange: undefined, ports: ['80'] }),
      status: 400,
      field: 'ports',
    },
    {
      case: 'allPorts on a target pool rule',
      body: ext({ allPorts: true }),
      status: 400,
      field: 'allPorts',
    },
    {
      case: 'portRange on an internal passthrough rule',
      body: int({ portRange: '80' }),
      status: 400,
      field: 'portRange',
    },
    {
      case: 'UDP on an INTERNAL rule',
      body: int({ IPProtocol: 'UDP', ports: ['53'] }),
      status: 200,
    },
    {
      case: 'ESP on an INTERNAL rule',
      body: int({ IPProtocol: 'ESP' }),
      status: 400,
      field: 'IPProtocol',
    },
    {
      case: 'UDP on an INTERNAL_MANAGED rule',
      body: proxy('INTERNAL_MANAGED', { IPProtocol: 'UDP' }),
      status: 400,
      field: 'IPProtocol',
    },
  ]);
});

describe('booleans that only some rules take', () => {
  table([
    {
      case: 'allowGlobalAccess on INTERNAL',
      body: int({ allowGlobalAccess: true }),
      status: 200,
      stored: { allowGlobalAccess: true },
    },
    {
      case: 'allowGlobalAccess on INTERNAL_MANAGED',
      body: proxy('INTERNAL_MANAGED', { allowGlobalAccess: true }),
      status: 200,
    },
    {
      case: 'allowGlobalAccess on EXTERNAL',
      body: ext({ allowGlobalAccess: true }),
      status: 400,
      field: 'allowGlobalAccess',
    },
    {
      case: 'isMirroringCollector on INTERNAL',
      body: int({ isMirroringCollector: true }),
      status: 200,
      stored: { isMirroringCollector: true },
    },
    {
      case: 'isMirroringCollector on EXTERNAL',
      body: ext({ isMirroringCollector: true }),
      status: 400,
      field: 'isMirroringCollector',
    },
    {
      case: 'noAutomateDnsZone',
      body: psc({ noAutomateDnsZone: true }),
      status: 200,
      stored: { noAutomateDnsZone: true },
    },
  ]);
});

describe('serviceLabel and serviceName', () => {
  table([
    {
      case: 'an INTERNAL rule with a serviceLabel',
      body: int({ serviceLabel: 'svc' }),
      status: 200,
      stored: { serviceLabel: 'svc', serviceName: `svc.fr.il4.${REGION}.lb.p.internal` },
    },
    {
      case: 'a serviceLabel of 63 characters',
      body: int({ serviceLabel: a(63) }),
      status: 200,
      stored: { serviceName: `${a(63)}.fr.il4.${REGION}.lb.p.internal` },
    },
    {
      case: 'a serviceLabel of 64 characters',
      body: int({ serviceLabel: a(64) }),
      status: 400,
      field: 'serviceLabel',
    },
    {
      case: 'a serviceLabel in uppercase',
      body: int({ serviceLabel: 'Svc' }),
      status: 400,
      field: 'serviceLabel',
    },
    {
      case: 'a serviceLabel on an EXTERNAL rule',
      body: extBs({ serviceLabel: 'svc' }),
      status: 400,
      field: 'serviceLabel',
    },
    {
      case: 'a serviceLabel on an INTERNAL_MANAGED rule',
      body: proxy('INTERNAL_MANAGED', { serviceLabel: 'svc' }),
      status: 400,
      field: 'serviceLabel',
    },
    {
      case: 'an INTERNAL rule without a serviceLabel has no serviceName',
      body: int(),
      status: 200,
      absent: ['serviceLabel', 'serviceName'],
    },
  ]);
});

describe('serviceDirectoryRegistrations', () => {
  table([
    {
      case: 'one entry on an INTERNAL rule (kept as given)',
      body: int({ serviceDirectoryRegistrations: [{ namespace: 'ns', service: 'svc' }] }),
      status: 200,
      stored: { serviceDirectoryRegistrations: [{ namespace: 'ns', service: 'svc' }] },
    },
    {
      case: 'two entries',
      body: int({ serviceDirectoryRegistrations: [{ namespace: 'a' }, { namespace: 'b' }] }),
      status: 400,
      field: 'serviceDirectoryRegistrations',
      says: 'Only a single entry is supported',
    },
    {
      case: 'PSC to Google APIs: the region defaults to us-central1',
      body: apis({ serviceDirectoryRegistrations: [{ namespace: 'ns' }] }),
      status: 200,
      stored: {
        serviceDirectoryRegistrations: [{ namespace: 'ns', serviceDirectoryRegion: 'us-central1' }],
      },
    },
    {
      case: 'PSC to Google APIs: a region given is kept',
      body: apis({
        serviceDirectoryRegistrations: [
          { namespace: 'ns', serviceDirectoryRegion: 'europe-west1' },
        ],
      }),
      status: 200,
      stored: {
        serviceDirectoryRegistrations: [
          { namespace: 'ns', serviceDirectoryRegion: 'europe-west1' },
        ],
      },
    },
    {
      case: 'a namespace that is no RFC 1035 name',
      body: int({ serviceDirectoryRegistrations: [{ namespace: 'Bad_NS' }] }),
      status: 400,
      field: 'serviceDirectoryRegistrations[0].namespace',
    },
    {
      case: 'a service of 64 characters',
      body: int({ serviceDirectoryRegistrations: [{ service: a(64) }] }),
      status: 400,
      field: 'serviceDirectoryRegistrations[0].service',
    },
    {
      case: 'a region that is no region name',
      body: apis({ serviceDirectoryRegistrations: [{ serviceDirectoryRegion: 'the moon' }] }),
      status: 400,
      field: 'serviceDirectoryRegistrations[0].serviceDirectoryRegion',
    },
  ]);
});

describe('sourceIpRanges', () => {
  table([
    {
      case: 'addresses and ranges of both families',
      body: ext({ sourceIpRanges: ['10.0.0.0/8', '1.2.3.4', '2001:db8::/32'] }),
      status: 200,
      stored: { sourceIpRanges: ['10.0.0.0/8', '1.2.3.4', '2001:db8::/32'] },
    },
    { case: '64 ranges', body: ext({ sourceIpRanges: ranges(64) }), status: 200 },
    {
      case: '65 ranges',
      body: ext({ sourceIpRanges: ranges(65) }),
      status: 400,
      field: 'sourceIpRanges',
      says: 'At most 64',
    },
    {
      case: 'a prefix of 33',
      body: ext({ sourceIpRanges: ['10.0.0.0/33'] }),
      status: 400,
      field: 'sourceIpRanges[0]',
    },
    {
      case: 'an IPv6 prefix of 129',
      body: ext({ sourceIpRanges: ['1.2.3.4', '2001:db8::/129'] }),
      status: 400,
      field: 'sourceIpRanges[1]',
    },
    {
      case: 'three octets',
      body: ext({ sourceIpRanges: ['1.2.3'] }),
      status: 400,
      field: 'sourceIpRanges[0]',
    },
    {
      case: 'on an INTERNAL rule',
      body: int({ sourceIpRanges: ['10.0.0.0/8'] }),
      status: 400,
      field: 'sourceIpRanges',
      says: 'EXTERNAL',
    },
    {
      case: 'on an EXTERNAL_MANAGED rule',
      body: proxy('EXTERNAL_MANAGED', { sourceIpRanges: ['10.0.0.0/8'] }),
      status: 400,
      field: 'sourceIpRanges',
    },
  ]);
});

describe('metadataFilters (limits checked, then refused: INTERNAL_SELF_MANAGED is global only)', () => {
  const refused = { status: 400, field: 'metadataFilters', says: 'INTERNAL_SELF_MANAGED' };
  table([
    {
      case: '64 filter labels pass the limit',
      body: ext({ metadataFilters: filters(filterLabels(64)) }),
      ...refused,
    },
    {
      case: '65 filter labels',
      body: ext({ metadataFilters: filters(filterLabels(65)) }),
      status: 400,
      field: 'metadataFilters[0].filterLabels',
    },
    {
      case: 'no filter labels',
      body: ext({ metadataFilters: filters([]) }),
      status: 400,
      field: 'metadataFilters[0].filterLabels',
    },
    {
      case: 'filter labels missing',
      body: ext({ metadataFilters: [{ filterMatchCriteria: 'MATCH_ALL' }] }),
      status: 400,
      field: 'metadataFilters[0].filterLabels',
    },
    {
      case: 'a name of 1024 characters passes',
      body: ext({ metadataFilters: filters([{ name: a(1024), value: 'v' }]) }),
      ...refused,
    },
    {
      case: 'a name of 1025 characters',
      body: ext({ metadataFilters: filters([{ name: a(1025), value: 'v' }]) }),
      status: 400,
      field: 'metadataFilters[0].filterLabels[0].name',
    },
    {
      case: 'an empty name',
      body: ext({ metadataFilters: filters([{ name: '', value: 'v' }]) }),
      status: 400,
      field: 'metadataFilters[0].filterLabels[0].name',
    },
    {
      case: 'a value of 1024 characters passes',
      body: ext({ metadataFilters: filters([{ name: 'n', value: a(1024) }]) }),
      ...refused,
    },
    {
      case: 'an empty value passes',
      body: ext({ metadataFilters: filters([{ name: 'n', value: '' }]) }),
      ...refused,
    },
    {
      case: 'a value of 1025 characters',
      body: ext({ metadataFilters: filters([{ name: 'n', value: a(1025) }]) }),
      status: 400,
      field: 'metadataFilters[0].filterLabels[0].value',
    },
    {
      case: 'the second filter checked too',
      body: ext({ metadataFilters: [...filters(filterLabels(1)), ...filters([])] }),
      status: 400,
      field: 'metadataFilters[1].filterLabels',
    },
    {
      case: 'an empty list is unset',
      body: ext({ metadataFilters: [] }),
      status: 200,
      absent: ['metadataFilters'],
    },
  ]);
});

describe('backend bucket migration (a new rule may only take the first step)', () => {
  const STATE = 'externalManagedBackendBucketMigrationState';
  const PCT = 'externalManagedBackendBucketMigrationTestingPercentage';
  table([
    {
      case: 'PREPARE on an EXTERNAL rule',
      body: ext({ [STATE]: 'PREPARE' }),
      status: 200,
      stored: { [STATE]: 'PREPARE' },
      absent: [PCT],
    },
    {
      case: 'PREPARE on an INTERNAL rule',
      body: int({ [STATE]: 'PREPARE' }),
      status: 400,
      field: STATE,
    },
    {
      case: 'PREPARE on an EXTERNAL_MANAGED rule',
      body: proxy('EXTERNAL_MANAGED', { [STATE]: 'PREPARE' }),
      status: 400,
      field: STATE,
    },
    {
      case: 'TEST_ALL_TRAFFIC',
      body: ext({ [STATE]: 'TEST_ALL_TRAFFIC' }),
      status: 400,
      field: STATE,
      says: 'PREPARE',
    },
    {
      case: 'TEST_BY_PERCENTAGE, 0 (in range)',
      body: ext({ [STATE]: 'TEST_BY_PERCENTAGE', [PCT]: 0 }),
      status: 400,
      field: STATE,
    },
    {
      case: 'TEST_BY_PERCENTAGE, 100 (in range)',
      body: ext({ [STATE]: 'TEST_BY_PERCENTAGE', [PCT]: 100 }),
      status: 400,
      field: STATE,
    },
    {
      case: 'TEST_BY_PERCENTAGE, 101',
      body: ext({ [STATE]: 'TEST_BY_PERCENTAGE', [PCT]: 101 }),
      status: 400,
      field: PCT,
      says: '[0, 100]',
    },
    {
      case: 'TEST_BY_PERCENTAGE, -1',
      body: ext({ [STATE]: 'TEST_BY_PERCENTAGE', [PCT]: -1 }),
      status: 400,
      field: PCT,
    },
    {
      case: 'TEST_BY_PERCENTAGE, "101" as a string',
      body: ext({ [STATE]: 'TEST_BY_PERCENTAGE', [PCT]: '101' }),
      status: 400,
      field: PCT,
    },
    {
      case: 'a percentage with PREPARE',
      body: ext({ [STATE]: 'PREPARE', [PCT]: 50 }),
      status: 400,
      field: PCT,
      says: 'TEST_BY_PERCENTAGE',
    },
    { case: 'a percentage without a state', body: ext({ [PCT]: 50 }), status: 400, field: PCT },
  ]);
});

describe('labels (validated like GCE labels, then ignored on insert)', () => {
  const ignored = {
    status: 200,
    absent: ['labels'],
    stored: { labelFingerprint: EMPTY_LABELS_FINGERPRINT },
  };
  table([
    { case: 'valid labels', body: ext({ labels: { env: 'prod', team: '' } }), ...ignored },
    { case: '64 labels', body: ext({ labels: labelsOf(64) }), ...ignored },
    {
      case: '65 labels',
      body: ext({ labels: labelsOf(65) }),
      status: 400,
      field: 'labels',
      says: 'at most 64',
    },
    { case: 'a key of 63 characters', body: ext({ labels: { [a(63)]: 'v' } }), ...ignored },
    {
      case: 'a key of 64 characters',
      body: ext({ labels: { [a(64)]: 'v' } }),
      status: 400,
      field: 'labels',
      says: 'Label key',
    },
    {
      case: 'a key in uppercase',
      body: ext({ labels: { Env: 'prod' } }),
      status: 400,
      field: 'labels',
    },
    {
      case: 'a key with a leading digit',
      body: ext({ labels: { '1env': 'prod' } }),
      status: 400,
      field: 'labels',
    },
    { case: 'an empty key', body: ext({ labels: { '': 'prod' } }), status: 400, field: 'labels' },
    {
      case: 'international lowercase characters',
      body: ext({ labels: { ключ: 'значение' } }),
      ...ignored,
    },
    { case: 'a value of 63 characters', body: ext({ labels: { env: a(63) } }), ...ignored },
    {
      case: 'a value of 64 characters',
      body: ext({ labels: { env: a(64) } }),
      status: 400,
      field: 'labels',
      says: 'Label value',
    },
    {
      case: 'a value in uppercase',
      body: ext({ labels: { env: 'Prod' } }),
      status: 400,
      field: 'labels',
    },
    {
      case: 'a value with a dot',
      body: ext({ labels: { env: 'v1.2' } }),
      status: 400,
      field: 'labels',
    },
  ]);
});

describe('the address, protocol and ports clash', () => {
  const IP = '203.0.113.10';
  const base = ext({ name: 'base', IPAddress: IP, portRange: '80' });
  const internal = (name: string, network?: string) =>
    int({ name, IPAddress: '10.1.0.5', ports: ['80'], ...(network ? { network } : {}) });
  const clash = {
    status: 400,
    reason: 'invalid',
    field: 'IPAddress',
    says: `Invalid value for field 'resource.IPAddress': '${IP}'. Specified IP address is in-use and would result in a conflict.`,
  };
  table([
    {
      case: 'external: same address, protocol and an overlapping range',
      before: [base],
      body: ext({ IPAddress: IP, portRange: '70-80' }),
      ...clash,
    },
    {
      case: 'external: the same range',
      before: [base],
      body: ext({ IPAddress: IP, portRange: '80' }),
      ...clash,
    },
    {
      case: 'external: no ports (every port) against 80',
      before: [base],
      body: ext({ IPAddress: IP }),
      ...clash,
    },
    {
      case: 'external: ports [80, 443] on a backend service against 80',
      before: [base],
      body: extBs({ IPAddress: IP, ports: ['443', '80'] }),
      ...clash,
    },
    {
      case: 'external: an adjacent range',
      before: [base],
      body: ext({ IPAddress: IP, portRange: '81-90' }),
      status: 200,
    },
    {
      case: 'external: another protocol',
      before: [base],
      body: ext({ IPAddress: IP, portRange: '80', IPProtocol: 'UDP' }),
      status: 200,
    },
    {
      case: 'external: L3_DEFAULT beside TCP',
      before: [base],
      body: extBs({ IPAddress: IP, IPProtocol: 'L3_DEFAULT', allPorts: true }),
      status: 200,
    },
    {
      case: 'external: another address',
      before: [base],
      body: ext({ IPAddress: '203.0.113.11', portRange: '80' }),
      status: 200,
    },
    {
      case: 'external: the same address in another region',
      before: [base],
      beforeRegion: REGION,
      body: ext({
        IPAddress: IP,
        portRange: '80',
        target: 'regions/europe-west1/targetPools/pool',
      }),
      region: 'europe-west1',
      status: 200,
    },
    {
      case: 'external: EXTERNAL_MANAGED shares the region',
      before: [base],
      body: proxy('EXTERNAL_MANAGED', { IPAddress: IP }),
      ...clash,
    },
    {
      case: 'a duplicate name is 409, not a clash',
      before: [base],
      body: base,
      status: 409,
      reason: 'alreadyExists',
    },
    {
      case: 'IPv6: the same address written differently',
      before: [ext6({ name: 'v6', IPAddress: '2001:db8::5', ports: ['80'] })],
      body: ext6({ IPAddress: '2001:DB8:0:0::5', ports: ['80'] }),
      status: 400,
      field: 'IPAddress',
    },
    {
      case: 'internal: the same network',
      before: [internal('one', 'global/networks/a')],
      body: internal('fr', `${P}/global/networks/a`),
      status: 400,
      field: 'IPAddress',
    },
    {
      case: 'internal: other networks',
      before: [internal('one', 'global/networks/a')],
      body: internal('fr', 'global/networks/b'),
      status: 200,
    },
    {
      case: 'internal: both on the default network',
      before: [internal('one')],
      body: internal('fr'),
      status: 400,
      field: 'IPAddress',
    },
    {
      case: 'internal: a named network and the default one',
      before: [internal('one', 'global/networks/a')],
      body: internal('fr'),
      status: 200,
    },
    {
      case: 'internal against external',
      before: [ext({ name: 'one', IPAddress: '10.1.0.5' })],
      body: internal('fr'),
      status: 200,
    },
    {
      case: 'rules without an address never clash',
      before: [ext({ name: 'one', portRange: '80' }), ext({ name: 'two', portRange: '80' })],
      body: ext({ portRange: '80' }),
      status: 200,
    },
  ]);

  it('gives each rule without an address a fresh one', async () => {
    for (const name of ['one', 'two', 'three'])
      expect((await insert(ext({ name, portRange: '80' }))).status).toBe(200);
    const addresses = await Promise.all(
      ['one', 'two', 'three'].map(async (n) => (await get(n)).json.IPAddress),
    );
    expect(new Set(addresses).size).toBe(3);
  });

  const steering = (name: string, sourceIpRanges: string[], portRange = '80') =>
    ext({ name, IPAddress: IP, portRange, sourceIpRanges });
  table([
    {
      case: 'steering: a rule with sourceIpRanges shares the base’s address and ports',
      before: [base],
      body: steering('fr', ['10.0.0.0/8']),
      status: 200,
      stored: { baseForwardingRule: `${R}/forwardingRules/base`, sourceIpRanges: ['10.0.0.0/8'] },
    },
    {
      case: 'steering: overlapping ports but other settings: no base',
      before: [base],
      body: steering('fr', ['10.0.0.0/8'], '80-81'),
      status: 200,
      absent: ['baseForwardingRule'],
    },
    {
      case: 'steering: no base rule at all',
      body: steering('fr', ['10.0.0.0/8']),
      status: 200,
      absent: ['baseForwardingRule'],
    },
    {
      case: 'steering: two rules with disjoint sources',
      before: [base, steering('one', ['10.0.0.0/8'])],
      body: steering('fr', ['192.168.0.0/16']),
      status: 200,
      stored: { baseForwardingRule: `${R}/forwardingRules/base` },
    },
    {
      case: 'steering: two rules with overlapping sources',
      before: [base, steering('one', ['10.0.0.0/8'])],
      body: steering('fr', ['10.1.2.3']),
      status: 400,
      field: 'sourceIpRanges',
      says: 'forwardingRules/one',
    },
    {
      case: 'steering: a base created after its steering rule',
      before: [steering('one', ['10.0.0.0/8'])],
      body: ext({ IPAddress: IP, portRange: '80' }),
      status: 200,
      absent: ['baseForwardingRule'],
    },
  ]);
});

describe('the field lists', () => {
  it('cover every ForwardingRule field of the v1 proto, once', () => {
    // real-clients.md §5.2: all ForwardingRule JSON field names in the 7.8.0 proto.
    const proto =
      `IPAddress IPProtocol allPorts allowGlobalAccess allowPscGlobalAccess attachedExtensions
      backendService baseForwardingRule creationTimestamp description
      externalManagedBackendBucketMigrationState externalManagedBackendBucketMigrationTestingPercentage
      fingerprint id ipCollection ipVersion isMirroringCollector kind labelFingerprint labels
      loadBalancingScheme metadataFilters name network networkTier noAutomateDnsZone portRange ports
      pscConnectionId pscConnectionStatus region selfLink selfLinkWithId serviceDirectoryRegistrations
      serviceLabel serviceName sourceIpRanges subnetwork target`.split(/\s+/);
    const both = [...CLIENT_FIELDS].filter((f) => OUTPUT_ONLY_FIELDS.has(f));
    expect(both).toEqual([]);
    expect([...CLIENT_FIELDS, ...OUTPUT_ONLY_FIELDS].sort()).toEqual([...proto].sort());
  });

  it('keep the limits of spec §8', () => {
    expect(FORWARDING_RULE_LIMITS).toMatchObject({
      name: 63,
      pscGoogleApisName: 20,
      serviceLabel: 63,
      sourceIpRanges: 64,
      filterLabels: 64,
      filterLabelName: 1024,
      filterLabelValue: 1024,
      serviceDirectoryRegistrations: 1,
      migrationPercentage: { min: 0, max: 100 },
    });
  });
});
