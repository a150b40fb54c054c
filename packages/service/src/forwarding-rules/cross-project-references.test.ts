import { describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/http-call.js';
import type { TokenGrant } from '../auth/auth.js';
import { createEmulator } from '../emulator.js';

// A caller with rights only in proj-a must not point a rule of proj-a at proj-b's resources.

type Json = Record<string, unknown>;
const RULES = 'http://x/compute/v1/projects/proj-a/regions/us-central1/forwardingRules';
const B = 'projects/proj-b/regions/us-central1';
const RULE_PERMISSIONS = [
  'compute.forwardingRules.create',
  'compute.forwardingRules.get',
  'compute.forwardingRules.update',
  'compute.networks.use',
  'compute.subnetworks.use',
];
const TOKENS: Record<string, TokenGrant> = {
  onlyA: {
    identity: 'a@example.com',
    scopes: ['compute'],
    permissions: { 'proj-a': RULE_PERMISSIONS },
  },
  aAndUseInB: {
    identity: 'ab@example.com',
    scopes: ['compute'],
    permissions: {
      'proj-a': RULE_PERMISSIONS,
      'proj-b': [
        'compute.networks.use',
        'compute.subnetworks.use',
        'compute.targetPools.use',
        'compute.regionBackendServices.use',
      ],
    },
  },
};

async function setUp() {
  const emulator = await createEmulator({ auth: { mode: 'strict', tokens: TOKENS } });
  // One caller per token: `onlyA` has rights in proj-a only, `aAndUseInB` may also use proj-b's.
  const as = (token: string) => caller<Json>(emulator, { token });
  return { onlyA: as('onlyA'), aAndUseInB: as('aAndUseInB') };
}

const internal = {
  loadBalancingScheme: 'INTERNAL',
  backendService: 'regions/us-central1/backendServices/bs',
  ports: ['80'],
};

const CASES: [string, Json, string][] = [
  [
    'network',
    { ...internal, network: 'projects/proj-b/global/networks/shared' },
    'compute.networks.use',
  ],
  [
    'subnetwork',
    { ...internal, subnetwork: `https://www.googleapis.com/compute/v1/${B}/subnetworks/s` },
    'compute.subnetworks.use',
  ],
  ['target', { target: `${B}/targetPools/tp` }, 'compute.targetPools.use'],
  [
    'backendService',
    { backendService: `${B}/backendServices/bs` },
    'compute.regionBackendServices.use',
  ],
];

describe('references into another project', () => {
  it.each(CASES)(
    'a %s in proj-b needs its .use permission in proj-b (403 naming it)',
    async (_field, fields, permission) => {
      const { onlyA, aAndUseInB } = await setUp();
      const denied = await onlyA('POST', RULES, { name: 'fr', ...fields });
      expect(denied.status, JSON.stringify(denied.json)).toBe(403);
      const message = (denied.json.error as { message: string }).message;
      expect(message).toContain(`'${permission}'`);
      expect(message).toContain("'projects/proj-b/");
      expect((await onlyA('GET', `${RULES}/fr`)).status).toBe(404);
      const allowed = await aAndUseInB('POST', RULES, { name: 'fr', ...fields });
      expect(allowed.status, JSON.stringify(allowed.json)).toBe(200);
    },
  );

  it.each(CASES)(
    'a %s URL that names proj-a earlier in its path still points into proj-b: 403',
    async (_field, fields, permission) => {
      // Validation reads the last `projects/…` of a URL's path, so the permission check must too.
      const [field, value] = Object.entries(fields).at(-1) as [string, string];
      const path = value.replace(/^https:\/\/[^/]+\/compute\/v1\//, '');
      const disguised = `https://evil.example/projects/proj-a/x/compute/v1/${path}`;
      const { onlyA } = await setUp();
      const denied = await onlyA('POST', RULES, {
        name: 'fr',
        ...fields,
        [field]: disguised,
      });
      expect(denied.status, JSON.stringify(denied.json)).toBe(403);
      expect((denied.json.error as { message: string }).message).toContain(`'${permission}'`);
    },
  );

  it('references inside the rule project need no extra permission for target and backendService', async () => {
    const { onlyA } = await setUp();
    const res = await onlyA('POST', RULES, {
      name: 'fr',
      target: 'regions/us-central1/targetPools/tp',
    });
    expect(res.status).toBe(200);
  });

  it('a Private Service Connect rule may name a service attachment of another project', async () => {
    const { onlyA } = await setUp();
    const res = await onlyA('POST', RULES, {
      name: 'psc',
      target: `${B}/serviceAttachments/sa`,
      network: 'global/networks/default',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  });

  it('a patch that moves the target into another project needs the permission there', async () => {
    const { onlyA, aAndUseInB } = await setUp();
    expect(
      (
        await onlyA('POST', RULES, {
          name: 'fr',
          target: 'regions/us-central1/targetPools/tp',
        })
      ).status,
    ).toBe(200);
    const denied = await onlyA('PATCH', `${RULES}/fr`, { target: `${B}/targetPools/tp` });
    expect(denied.status).toBe(403);
    const rule = (await onlyA('GET', `${RULES}/fr`)).json;
    expect(rule.target).toContain('proj-a');
    expect(
      (await aAndUseInB('PATCH', `${RULES}/fr`, { target: `${B}/targetPools/tp` })).status,
    ).toBe(200);
  });
});
