import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import { createEmulator, type Emulator } from '../emulator.js';

// The create rules of a global forwarding rule, row by row, through the HTTP interface: the
// global target stage (check-global-target.ts) and the scope's differences in the shared stages.

type Json = Record<string, unknown>;

const P = 'https://www.googleapis.com/compute/v1/projects/p';
const G = `${P}/global`;
const RULES = 'http://x/compute/v1/projects/p/global/forwardingRules';
const proxy = (collection: string) => `projects/p/global/${collection}/t`;
/** A global external Application Load Balancer's rule. */
const alb = (extra: Json = {}): Json => ({
  name: 'gfr',
  loadBalancingScheme: 'EXTERNAL_MANAGED',
  target: proxy('targetHttpProxies'),
  portRange: '443',
  ...extra,
});
/** A global external passthrough Network Load Balancer's rule. */
const passthrough = (extra: Json = {}): Json => ({
  name: 'gfr',
  backendService: 'projects/p/global/backendServices/bs',
  ports: ['80'],
  ...extra,
});

interface Row {
  case: string;
  body: Json;
  status: number;
  /** The field the error names (`resource.<field>`). */
  field?: string;
  /** Text the message must contain. */
  says?: string;
  /** What GET answers for an accepted rule. */
  stored?: Json;
}

const rows: Row[] = [
  {
    case: 'an external application load balancer rule, answered without region or selfLinkWithId',
    body: alb(),
    status: 200,
    stored: {
      target: `${G}/targetHttpProxies/t`,
      portRange: '443-443',
      networkTier: 'PREMIUM',
      selfLink: `${G}/forwardingRules/gfr`,
    },
  },
  {
    case: 'a classic (EXTERNAL) rule to a target SSL proxy',
    body: alb({ loadBalancingScheme: 'EXTERNAL', target: proxy('targetSslProxies') }),
    status: 200,
  },
  {
    case: 'a Traffic Director rule with metadataFilters, which regional rules refuse',
    body: alb({
      loadBalancingScheme: 'INTERNAL_SELF_MANAGED',
      target: proxy('targetGrpcProxies'),
      IPAddress: '0.0.0.0',
      network: 'global/networks/default',
      metadataFilters: [
        { filterMatchCriteria: 'MATCH_ANY', filterLabels: [{ name: 'PLANET', value: 'MARS' }] },
      ],
    }),
    status: 200,
    stored: {
      metadataFilters: [
        { filterMatchCriteria: 'MATCH_ANY', filterLabels: [{ name: 'PLANET', value: 'MARS' }] },
      ],
      network: `${G}/networks/default`,
    },
  },
  {
    case: 'a cross-region internal rule with a subnetwork of any region',
    body: alb({
      loadBalancingScheme: 'INTERNAL_MANAGED',
      subnetwork: 'regions/europe-west1/subnetworks/s',
    }),
    status: 200,
  },
  {
    case: 'a passthrough rule of 43 characters',
    body: passthrough({ name: `p${'a'.repeat(42)}` }),
    status: 200,
    stored: { backendService: `${G}/backendServices/bs`, loadBalancingScheme: 'EXTERNAL' },
  },
  {
    case: 'a passthrough rule of 44 characters',
    body: passthrough({ name: `p${'a'.repeat(43)}` }),
    status: 400,
    field: 'name',
    says: '1-43 characters long, not 44',
  },
  {
    case: 'a proxy rule of 63 characters (the 43 limit is the passthrough rules’)',
    body: alb({ name: `p${'a'.repeat(62)}` }),
    status: 200,
  },
  {
    case: 'a regional target pool',
    body: alb({ target: 'projects/p/regions/r/targetPools/tp' }),
    status: 400,
    field: 'target',
    says: 'Invalid target type TARGET_POOL for forwarding rule in scope GLOBAL',
  },
  {
    case: 'a service attachment (PSC to published services is regional)',
    body: { name: 'gfr', target: 'projects/p/regions/r/serviceAttachments/sa' },
    status: 400,
    field: 'target',
    says: 'Invalid target type SERVICE_ATTACHMENT for forwarding rule in scope GLOBAL',
  },
  {
    case: 'a malformed target',
    body: alb({ target: 'not a url' }),
    status: 400,
    field: 'target',
    says: 'The URL is malformed.',
  },
  ...['T_T!', 'a b', 'p\uffff'].map((name) => ({
    case: `a target proxy named ${JSON.stringify(name)} (Compute's naming rule)`,
    body: alb({ target: `projects/p/global/targetHttpProxies/${name}` }),
    status: 400,
    field: 'target',
    says: 'The URL is malformed.',
  })),
  {
    case: 'a gRPC proxy with an external scheme',
    body: alb({ target: proxy('targetGrpcProxies') }),
    status: 400,
    field: 'target',
    says: 'cannot be used with load balancing scheme EXTERNAL_MANAGED',
  },
  {
    case: 'neither target nor backendService',
    body: { name: 'gfr' },
    status: 400,
    field: 'target',
  },
  {
    case: 'both target and backendService',
    body: alb({ backendService: 'projects/p/global/backendServices/bs' }),
    status: 400,
    field: 'backendService',
  },
  {
    case: 'a regional backend service',
    body: passthrough({ backendService: 'projects/p/regions/r/backendServices/bs' }),
    status: 400,
    field: 'backendService',
  },
  {
    case: 'a backend service on an INTERNAL_MANAGED rule',
    body: passthrough({ loadBalancingScheme: 'INTERNAL_MANAGED' }),
    status: 400,
    field: 'backendService',
  },
  {
    case: 'the STANDARD tier',
    body: alb({ networkTier: 'STANDARD' }),
    status: 400,
    field: 'networkTier',
    says: 'The network tier of a global forwarding rule is PREMIUM.',
  },
  {
    case: 'a region in the body',
    body: alb({ region: 'us-central1' }),
    status: 400,
    field: 'region',
  },
  {
    case: 'sourceIpRanges (regional EXTERNAL rules only)',
    body: passthrough({ sourceIpRanges: ['10.0.0.0/8'] }),
    status: 400,
    field: 'sourceIpRanges',
  },
  {
    case: 'UDP to a target proxy',
    body: alb({ IPProtocol: 'UDP' }),
    status: 400,
    field: 'IPProtocol',
  },
  {
    case: 'a named address, looked up among the global addresses',
    body: alb({ IPAddress: 'my-address' }),
    status: 404,
    says: "The resource 'projects/p/global/addresses/my-address' was not found",
  },
];

describe('global forwarding rule create rules', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await createEmulator();
  });
  beforeEach(() => emulator.reset());

  it.each(rows)('$case → $status', async (row) => {
    const res = await call<Json>(emulator, 'POST', RULES, { body: JSON.stringify(row.body) });
    expect(res.status, JSON.stringify(res.json)).toBe(row.status);
    if (row.status === 200) {
      const got = await call<Json>(emulator, 'GET', `${RULES}/${String(row.body.name)}`);
      expect(got.json).toMatchObject(row.stored ?? {});
      expect(got.json).not.toHaveProperty('region');
      expect(got.json).not.toHaveProperty('selfLinkWithId');
      return;
    }
    const error = res.json.error as { message: string; errors: Json[] };
    if (row.field) expect(error.errors[0]!.location).toBe(`resource.${row.field}`);
    if (row.says) expect(error.message).toContain(row.says);
  });
});
