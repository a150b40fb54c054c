import { describe, expect, it } from 'vitest';
import { call, caller } from '../../../../test/support/http-call.js';
import { createEmulator, type Emulator } from '../emulator.js';
import { EMPTY_LABELS_FINGERPRINT } from './fingerprint.js';
import { MIGRATION_TRANSITIONS, type MigrationState } from './migration-state-machine.js';

const BASE = 'http://emulator/compute/v1/projects/p/regions/us-central1/forwardingRules';
type Json = Record<string, unknown>;

async function setUp(rule: Json = {}) {
  const emulator = await createEmulator();
  const send = caller<Json>(emulator);
  const created = await send('POST', BASE, {
    name: 'fr-1',
    IPProtocol: 'TCP',
    portRange: '80',
    ...rule,
  });
  expect(created.status).toBe(200);
  const get = async () => (await send('GET', `${BASE}/fr-1`)).json;
  const patch = (body: Json) => send('PATCH', `${BASE}/fr-1`, body);
  const setLabels = (body: Json) => send('POST', `${BASE}/fr-1/setLabels`, body);
  return { emulator, get, patch, setLabels };
}

const reasonOf = (body: Json) => (body.error as { errors: { reason: string }[] }).errors[0]?.reason;
const messageOf = (body: Json) => (body.error as { message: string }).message;

describe('setLabels', () => {
  it('changes the labels and both fingerprints, and its operation is DONE at once', async () => {
    const { get, setLabels } = await setUp({ labels: { ignored: 'on-insert' } });
    const before = await get();
    expect(before.labels).toBeUndefined(); // labels in an insert body are ignored
    expect(before.labelFingerprint).toBe(EMPTY_LABELS_FINGERPRINT);
    const res = await setLabels({
      labels: { env: 'prod' },
      labelFingerprint: before.labelFingerprint,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      kind: 'compute#operation',
      operationType: 'setLabels',
      status: 'DONE',
      progress: 100,
    });
    const after = await get();
    expect(after.labels).toEqual({ env: 'prod' });
    expect(after.labelFingerprint).not.toBe(before.labelFingerprint);
    expect(after.fingerprint).not.toBe(before.fingerprint);
  });

  it('gives an empty label set the constant fingerprint again', async () => {
    const { get, setLabels } = await setUp();
    await setLabels({ labels: { a: 'b' }, labelFingerprint: EMPTY_LABELS_FINGERPRINT });
    const withLabels = await get();
    await setLabels({ labels: {}, labelFingerprint: withLabels.labelFingerprint });
    const after = await get();
    expect(after.labels).toBeUndefined();
    expect(after.labelFingerprint).toBe(EMPTY_LABELS_FINGERPRINT);
  });

  it.each([
    ['missing labelFingerprint', { labels: { a: 'b' } }, 412, 'conditionNotMet'],
    [
      'stale labelFingerprint',
      { labels: { a: 'b' }, labelFingerprint: 'AAAAAAAAAAA=' },
      412,
      'conditionNotMet',
    ],
    [
      'label key with capitals',
      { labels: { Env: 'x' }, labelFingerprint: EMPTY_LABELS_FINGERPRINT },
      400,
      'invalid',
    ],
    [
      'label value too long',
      { labels: { a: 'x'.repeat(64) }, labelFingerprint: EMPTY_LABELS_FINGERPRINT },
      400,
      'invalid',
    ],
    [
      'unknown field',
      { labels: {}, labelFingerprint: EMPTY_LABELS_FINGERPRINT, extra: 1 },
      400,
      'badRequest',
    ],
  ])('%s → %i and nothing changes', async (_what, body, status, reason) => {
    const { get, setLabels } = await setUp();
    const before = await get();
    const res = await setLabels(body);
    expect(res.status).toBe(status);
    expect(reasonOf(res.json)).toBe(reason);
    expect(await get()).toEqual(before);
  });

  it('lets exactly one of concurrent setLabels with the same fingerprint win', async () => {
    const { get, setLabels } = await setUp();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        setLabels({ labels: { n: String(i) }, labelFingerprint: EMPTY_LABELS_FINGERPRINT }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(19);
    expect(Object.keys((await get()).labels as Json)).toEqual(['n']);
  });
});

describe('patch', () => {
  it('changes a patchable field; the operation is RUNNING first; the fingerprint changes', async () => {
    const { get, patch } = await setUp({
      loadBalancingScheme: 'INTERNAL',
      allowGlobalAccess: true,
    });
    const before = await get();
    const res = await patch({ allowGlobalAccess: false, fingerprint: before.fingerprint });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ operationType: 'patch', status: 'RUNNING', progress: 0 });
    const after = await get();
    expect(after.allowGlobalAccess).toBeUndefined(); // false is omitted, as the real API does
    expect(after.fingerprint).not.toBe(before.fingerprint);
  });

  it('accepts a patch without a fingerprint', async () => {
    const { get, patch } = await setUp();
    expect((await patch({ description: 'now described' })).status).toBe(200);
    expect((await get()).description).toBe('now described');
  });

  it('refuses a stale fingerprint and changes nothing', async () => {
    const { get, patch } = await setUp();
    const before = await get();
    const res = await patch({ description: 'x', fingerprint: 'AAAAAAAAAAA=' });
    expect(res.status).toBe(412);
    expect(reasonOf(res.json)).toBe('conditionNotMet');
    expect(await get()).toEqual(before);
  });

  it('lets exactly one of concurrent patches with the same fingerprint win', async () => {
    const { get, patch } = await setUp();
    const { fingerprint } = await get();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => patch({ description: `writer ${i}`, fingerprint })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(19);
  });

  it.each([
    ['IPAddress', { IPAddress: '203.0.113.99' }, {}],
    ['name', { name: 'fr-2' }, {}],
    ['region', { region: 'europe-west1' }, {}],
    ['portRange', { portRange: '81' }, {}],
    ['IPProtocol', { IPProtocol: 'UDP' }, {}],
    ['noAutomateDnsZone', { noAutomateDnsZone: false }, { noAutomateDnsZone: true }],
    ['allowGlobalAccess', { allowGlobalAccess: true }, { loadBalancingScheme: 'INTERNAL_MANAGED' }],
  ])('refuses to change the immutable field %s, naming it', async (field, body, rule) => {
    const { get, patch } = await setUp(rule);
    const before = await get();
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(messageOf(res.json)).toContain(field);
    expect(await get()).toEqual(before);
  });

  it('ignores labels in a patch body (they change through setLabels)', async () => {
    const { get, patch } = await setUp();
    const before = await get();
    expect((await patch({ labels: { a: 'b' }, description: 'd' })).status).toBe(200);
    const after = await get();
    expect(after.labels).toBeUndefined();
    expect(after.labelFingerprint).toBe(before.labelFingerprint);
  });

  it('accepts immutable fields repeated with their current value (a full resource)', async () => {
    const { get, patch } = await setUp();
    const current = await get();
    const res = await patch({ ...current, description: 'full body' });
    expect(res.status).toBe(200);
    expect((await get()).description).toBe('full body');
  });

  it.each([
    [
      'a target in another region',
      { target: 'projects/p/regions/europe-west1/targetPools/tp' },
      'target',
    ],
    ['a source range that is not an address', { sourceIpRanges: ['not-an-ip'] }, 'sourceIpRanges'],
    ['a network tier the real API refuses', { networkTier: 'FIXED_STANDARD' }, 'networkTier'],
  ])('re-checks the create rules: refuses %s, naming the field', async (_what, body, field) => {
    const { get, patch } = await setUp({ target: 'projects/p/regions/us-central1/targetPools/tp' });
    const before = await get();
    const res = await patch(body);
    expect(res.status).toBe(400);
    expect(messageOf(res.json)).toContain(field);
    expect(await get()).toEqual(before);
  });

  it('may set noAutomateDnsZone once', async () => {
    const { get, patch } = await setUp();
    expect((await patch({ noAutomateDnsZone: true })).status).toBe(200);
    expect((await get()).noAutomateDnsZone).toBe(true);
  });
});

describe('the migration state machine', () => {
  const STATES: (MigrationState | 'unset')[] = [
    'unset',
    'PREPARE',
    'TEST_BY_PERCENTAGE',
    'TEST_ALL_TRAFFIC',
  ];

  /** Walks a fresh EXTERNAL rule to `state` through allowed patches. */
  async function ruleIn(state: MigrationState | 'unset') {
    const setup = await setUp({ loadBalancingScheme: 'EXTERNAL' });
    const path: Record<string, Json[]> = {
      unset: [],
      PREPARE: [{ externalManagedBackendBucketMigrationState: 'PREPARE' }],
      TEST_BY_PERCENTAGE: [
        { externalManagedBackendBucketMigrationState: 'PREPARE' },
        {
          externalManagedBackendBucketMigrationState: 'TEST_BY_PERCENTAGE',
          externalManagedBackendBucketMigrationTestingPercentage: 50,
        },
      ],
      TEST_ALL_TRAFFIC: [
        { externalManagedBackendBucketMigrationState: 'PREPARE' },
        { externalManagedBackendBucketMigrationState: 'TEST_ALL_TRAFFIC' },
      ],
    };
    for (const step of path[state]!) expect((await setup.patch(step)).status).toBe(200);
    return setup;
  }

  const transitions = STATES.flatMap((from) =>
    STATES.filter((to) => to !== 'unset' && to !== from).map((to) => ({
      from,
      to: to as MigrationState,
      allowed: MIGRATION_TRANSITIONS.some((t) => t.from === from && t.to === to),
    })),
  );

  it.each(transitions)('$from → $to (allowed: $allowed)', async ({ from, to, allowed }) => {
    const { get, patch } = await ruleIn(from);
    const before = await get();
    const body: Json = { externalManagedBackendBucketMigrationState: to };
    if (to === 'TEST_BY_PERCENTAGE')
      body.externalManagedBackendBucketMigrationTestingPercentage = 25;
    const res = await patch(body);
    if (allowed) {
      expect(res.status).toBe(200);
      expect((await get()).externalManagedBackendBucketMigrationState).toBe(to);
    } else {
      expect(res.status).toBe(400);
      expect(messageOf(res.json)).toContain(`from ${from} to ${to}`);
      expect(await get()).toEqual(before);
    }
  });

  it('allows exactly the transitions of the table (7 rows)', () => {
    expect(transitions.filter((t) => t.allowed)).toHaveLength(MIGRATION_TRANSITIONS.length);
    expect(MIGRATION_TRANSITIONS).toHaveLength(7);
  });

  it('begins only from the EXTERNAL scheme', async () => {
    const { patch } = await setUp({ loadBalancingScheme: 'INTERNAL' });
    const res = await patch({ externalManagedBackendBucketMigrationState: 'PREPARE' });
    expect(res.status).toBe(400);
    expect(messageOf(res.json)).toContain('EXTERNAL');
  });

  it.each([
    ['missing', {}, 400],
    ['0', { externalManagedBackendBucketMigrationTestingPercentage: 0 }, 200],
    ['100', { externalManagedBackendBucketMigrationTestingPercentage: 100 }, 200],
    ['101', { externalManagedBackendBucketMigrationTestingPercentage: 101 }, 400],
    ['-1', { externalManagedBackendBucketMigrationTestingPercentage: -1 }, 400],
  ])('TEST_BY_PERCENTAGE with percentage %s → %i', async (_what, extra, status) => {
    const { patch } = await ruleIn('PREPARE');
    expect(
      (await patch({ externalManagedBackendBucketMigrationState: 'TEST_BY_PERCENTAGE', ...extra }))
        .status,
    ).toBe(status);
  });

  it('refuses a percentage outside TEST_BY_PERCENTAGE', async () => {
    const { patch } = await ruleIn('PREPARE');
    const res = await patch({ externalManagedBackendBucketMigrationTestingPercentage: 10 });
    expect(res.status).toBe(400);
    expect(messageOf(res.json)).toContain('only with the migration state TEST_BY_PERCENTAGE');
  });

  it('clears the percentage when leaving TEST_BY_PERCENTAGE', async () => {
    const { get, patch } = await ruleIn('TEST_BY_PERCENTAGE');
    await patch({ externalManagedBackendBucketMigrationState: 'TEST_ALL_TRAFFIC' });
    expect((await get()).externalManagedBackendBucketMigrationTestingPercentage).toBeUndefined();
  });

  it.each(['unset', 'PREPARE', 'TEST_BY_PERCENTAGE'] as const)(
    'refuses EXTERNAL_MANAGED in state %s',
    async (state) => {
      const { patch } = await ruleIn(state);
      const res = await patch({ loadBalancingScheme: 'EXTERNAL_MANAGED' });
      expect(res.status).toBe(400);
      expect(messageOf(res.json)).toContain('only in migration state TEST_ALL_TRAFFIC');
    },
  );

  it('moves to EXTERNAL_MANAGED in TEST_ALL_TRAFFIC, and rolls back only with TEST_ALL_TRAFFIC in the request', async () => {
    const { get, patch } = await ruleIn('TEST_ALL_TRAFFIC');
    expect((await patch({ loadBalancingScheme: 'EXTERNAL_MANAGED' })).status).toBe(200);
    expect(await get()).toMatchObject({
      loadBalancingScheme: 'EXTERNAL_MANAGED',
      externalManagedBackendBucketMigrationState: 'TEST_ALL_TRAFFIC',
    });
    const bare = await patch({ loadBalancingScheme: 'EXTERNAL' });
    expect(bare.status).toBe(400);
    expect(messageOf(bare.json)).toContain('TEST_ALL_TRAFFIC in the same request');
    const rollback = await patch({
      loadBalancingScheme: 'EXTERNAL',
      externalManagedBackendBucketMigrationState: 'TEST_ALL_TRAFFIC',
    });
    expect(rollback.status).toBe(200);
    expect((await get()).loadBalancingScheme).toBe('EXTERNAL');
  });

  it('refuses other scheme changes', async () => {
    const { patch } = await setUp({ loadBalancingScheme: 'EXTERNAL' });
    const res = await patch({ loadBalancingScheme: 'INTERNAL' });
    expect(res.status).toBe(400);
    expect(messageOf(res.json)).toContain('cannot change from EXTERNAL to INTERNAL');
  });
});

describe('the aggregated list', () => {
  async function seeded(): Promise<Emulator> {
    const emulator = await createEmulator();
    for (const [region, name] of [
      ['us-central1', 'web-1'],
      ['us-central1', 'api-1'],
      ['europe-west1', 'web-1'],
      ['asia-east1', 'db-1'],
    ] as const) {
      await call(emulator, 'POST', `/compute/v1/projects/p/regions/${region}/forwardingRules`, {
        token: 't',
        body: { name },
      });
    }
    return emulator;
  }
  const aggregated = (emulator: Emulator, query: string, project = 'p') =>
    call<Json>(
      emulator,
      'GET',
      `/compute/v1/projects/${project}/aggregated/forwardingRules${query}`,
      {
        token: 't',
      },
    );
  const names = (body: Json) =>
    Object.entries(body.items as Record<string, { forwardingRules: Json[] }>).flatMap(
      ([scope, group]) => group.forwardingRules.map((r) => `${scope}/${r.name}`),
    );

  it('groups rules by region, in region then name order', async () => {
    const { status, json: body } = await aggregated(
      await seeded(),
      '?includeAllScopes=True&returnPartialSuccess=True',
    );
    expect(status).toBe(200);
    expect(body.kind).toBe('compute#forwardingRuleAggregatedList');
    expect(names(body)).toEqual([
      'regions/asia-east1/db-1',
      'regions/europe-west1/web-1',
      'regions/us-central1/api-1',
      'regions/us-central1/web-1',
    ]);
  });

  it('filters, orders and pages with the same engine', async () => {
    const emulator = await seeded();
    expect(
      names(
        (await aggregated(emulator, '?filter=name%20%3D%20web-*&returnPartialSuccess=true')).json,
      ),
    ).toEqual(['regions/europe-west1/web-1', 'regions/us-central1/web-1']);
    const first = await aggregated(emulator, '?maxResults=3&orderBy=name');
    expect(names(first.json)).toEqual([
      'regions/us-central1/api-1',
      'regions/asia-east1/db-1',
      'regions/europe-west1/web-1',
    ]);
    const second = await aggregated(
      emulator,
      `?maxResults=3&orderBy=name&pageToken=${first.json.nextPageToken}`,
    );
    expect(names(second.json)).toEqual(['regions/us-central1/web-1']);
    expect(second.json.nextPageToken).toBeUndefined();
  });

  it('never shows another project', async () => {
    expect((await aggregated(await seeded(), '', 'other')).json.items).toEqual({});
  });

  it('follows deletes and patches', async () => {
    const emulator = await seeded();
    await call(
      emulator,
      'DELETE',
      '/compute/v1/projects/p/regions/us-central1/forwardingRules/web-1',
      {
        token: 't',
      },
    );
    await call(
      emulator,
      'PATCH',
      '/compute/v1/projects/p/regions/asia-east1/forwardingRules/db-1',
      {
        token: 't',
        body: { description: 'patched' },
      },
    );
    const { json: body } = await aggregated(emulator, '?filter=description%3Apatched');
    expect(names(body)).toEqual(['regions/asia-east1/db-1']);
    expect(names((await aggregated(emulator, '')).json)).toHaveLength(3);
  });
});
