// Global forwarding rules and global operations, driven by the real @google-cloud/compute clients
// (GlobalForwardingRulesClient, GlobalOperationsClient) and by plain fetch for the wire shapes
// recorded from the real API (Config Connector's globalcomputeforwardingrule*-direct/_http.log).
// Like the regional suites, this file runs over memory, PGlite and PostgreSQL (vitest.config.ts).
import type { protos } from '@google-cloud/compute';
import {
  createEmulator,
  type Emulator,
  type ForwardingRuleJson,
  sampleForwardingRules,
} from '@listkit/service';
import { GoogleError } from 'google-gax';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectedNames } from '../support/expected-names.js';
import { call, caller } from '../support/http-call.js';
import {
  computeClients,
  FAKE_TOKEN,
  globalComputeClients,
  newRequestId,
  pollOperation,
  startClean,
  thrown,
} from '../support/real-clients.js';
import { onStore } from '../support/test-store.js';

type Operation = protos.google.cloud.compute.v1.IOperation;

const project = 'global-project';
const region = 'us-central1';
const BASE = 'https://www.googleapis.com/compute/v1/';
const GLOBAL_URL = `${BASE}projects/${project}/global`;
const REGION_URL = `${BASE}projects/${project}/regions/${region}`;
const proxy = (name: string) => `projects/${project}/global/targetHttpProxies/${name}`;

/** A global external Application Load Balancer's rule, as a user of the Node client writes it. */
const ruleBody = (name: string, extra: object = {}) => ({
  name,
  IPProtocol: 'TCP',
  portRange: '80',
  labels: {},
  loadBalancingScheme: 'EXTERNAL_MANAGED',
  target: proxy('hp1'),
  ...extra,
});

/** What a decoded optional field holds when the answer did not carry it. */
const absent = (value: unknown) => value ?? undefined;

describe(onStore('GlobalForwardingRulesClient and GlobalOperationsClient'), () => {
  let emulator: Emulator;
  let clients: ReturnType<typeof globalComputeClients>;
  let regional: ReturnType<typeof computeClients>;

  beforeAll(async () => {
    emulator = await createEmulator({ waitTimeoutMs: 1_500 });
    const url = await emulator.listen(0);
    clients = globalComputeClients(url);
    regional = computeClients(url);
  });
  afterAll(async () => {
    await clients?.close();
    await regional?.close();
    await emulator?.close();
  });
  beforeEach(() => startClean(emulator));

  const insert = async (name: string, requestId?: string, body: object = ruleBody(name)) => {
    const [lro] = await clients.rules.insert({
      project,
      ...(requestId ? { requestId } : {}),
      forwardingRuleResource: body,
    });
    return lro.latestResponse as Operation;
  };

  /** Polls a global operation until DONE; every answer it saw. */
  const pollUntilDone = (first: Operation) =>
    pollOperation(first, (op) => clients.operations.wait({ project, operation: op.name! }));

  const get = async (name: string) => {
    const [rule] = await clients.rules.get({ project, forwardingRule: name });
    return rule;
  };

  it('insert answers a RUNNING global operation (no region, no zone); wait completes it; get answers the rule', async () => {
    const first = await insert('gfr-1', newRequestId());
    expect(first).toMatchObject({
      kind: 'compute#operation',
      operationType: 'insert',
      status: 'RUNNING',
      progress: 0,
      targetLink: `${GLOBAL_URL}/forwardingRules/gfr-1`,
    });
    expect(first.name).toMatch(/^operation-\d+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+$/);
    expect(first.selfLink).toBe(`${GLOBAL_URL}/operations/${first.name}`);
    expect(absent(first.region)).toBeUndefined();
    expect(absent(first.zone)).toBeUndefined();
    expect(first.targetId).toMatch(/^\d+$/);

    const seen = await pollUntilDone(first);
    expect(seen).toHaveLength(2); // one wait
    const done = seen[1]!;
    expect(done).toMatchObject({ name: first.name, status: 'DONE', progress: 100 });
    expect(done.endTime).toBeTruthy();
    expect(done.error).toBeFalsy();
    expect(absent(done.region)).toBeUndefined();
    const [again] = await clients.operations.get({ project, operation: first.name! });
    expect(again).toMatchObject({ status: 'DONE', targetId: first.targetId });

    const rule = await get('gfr-1');
    expect(rule).toMatchObject({
      kind: 'compute#forwardingRule',
      name: 'gfr-1',
      portRange: '80-80',
      networkTier: 'PREMIUM',
      IPProtocol: 'TCP',
      loadBalancingScheme: 'EXTERNAL_MANAGED',
      target: `${BASE}${proxy('hp1')}`,
      selfLink: `${GLOBAL_URL}/forwardingRules/gfr-1`,
      labelFingerprint: '42WmSpB8rSM=',
    });
    expect(rule.id).toBe(first.targetId);
    expect(absent(rule.region)).toBeUndefined();
    // Recorded: a global rule's answer carries no selfLinkWithId (a regional one does).
    expect(absent(rule.selfLinkWithId)).toBeUndefined();
    expect(rule.fingerprint).toMatch(/^[A-Za-z0-9+/]{11}=$/);
    expect(rule.IPAddress).toBeTruthy(); // an ephemeral address
    expect(rule.labels ?? {}).toEqual({}); // labels are set through setLabels, not insert
  });

  it("under { mode: 'polls', polls: 3 } wait sees RUNNING with rising progress, then DONE", async () => {
    emulator.state.operationPolicy = { mode: 'polls', polls: 3 };
    const seen = await pollUntilDone(await insert('gfr-polls', newRequestId()));
    expect(seen.map((op) => op.status)).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'DONE']);
    const progress = seen.map((op) => op.progress ?? 0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(seen[2]!.progress).toBeGreaterThan(seen[1]!.progress!);
  });

  it('a retry with the same requestId returns the same operation and creates nothing', async () => {
    emulator.state.operationPolicy = { mode: 'polls', polls: 2 };
    const requestId = newRequestId();
    const first = await insert('gfr-retry', requestId);
    const retry = await insert('gfr-retry', requestId);
    expect(retry).toMatchObject({ name: first.name, id: first.id, targetId: first.targetId });
    await pollUntilDone(first);
    const late = await insert('gfr-retry', requestId.toUpperCase());
    expect(late).toMatchObject({ name: first.name, status: 'DONE' });
    const [items] = await clients.rules.list({ project });
    expect(items.map((r) => r.name)).toEqual(['gfr-retry']);
  });

  it('delete answers a global delete operation; the rule is gone once it is DONE', async () => {
    await pollUntilDone(await insert('gfr-del', newRequestId()));
    const [lro] = await clients.rules.delete({
      project,
      forwardingRule: 'gfr-del',
      requestId: newRequestId(),
    });
    const op = lro.latestResponse as Operation;
    expect(op).toMatchObject({
      operationType: 'delete',
      status: 'RUNNING',
      targetLink: `${GLOBAL_URL}/forwardingRules/gfr-del`,
    });
    expect(op.selfLink).toBe(`${GLOBAL_URL}/operations/${op.name}`);
    await pollUntilDone(op);
    const error = await thrown(() => get('gfr-del'));
    expect(error).toBeInstanceOf(GoogleError);
    expect(error.code).toBe(5);
    expect(error.message).toBe(
      `The resource 'projects/${project}/global/forwardingRules/gfr-del' was not found`,
    );
  });

  it('a duplicate name is 409 (code 10) naming the global rule; a missing operation is 404 (code 5)', async () => {
    await insert('gfr-dup', newRequestId());
    const dup = await thrown(() => insert('gfr-dup', newRequestId()));
    expect(dup.code).toBe(10);
    expect(dup.message).toBe(
      `The resource 'projects/${project}/global/forwardingRules/gfr-dup' already exists`,
    );
    const missing = await thrown(() =>
      clients.operations.wait({ project, operation: 'operation-0-000000-0000-0000' }),
    );
    expect(missing.code).toBe(5);
    expect(missing.message).toBe(
      `The resource 'projects/${project}/global/operations/operation-0-000000-0000-0000' was not found`,
    );
  });

  describe('the global rules of the spec', () => {
    it.each([
      [
        'a regional target pool',
        `projects/${project}/regions/${region}/targetPools/tp1`,
        'TARGET_POOL',
      ],
      [
        'a zonal target instance',
        `projects/${project}/zones/${region}-a/targetInstances/ti`,
        'TARGET_INSTANCE',
      ],
      [
        'a regional target HTTP proxy',
        `projects/${project}/regions/${region}/targetHttpProxies/hp`,
        'TARGET_HTTP_PROXY',
      ],
    ])('refuses %s as the target: 400 (code 3) in the real words', async (_, target, type) => {
      const error = await thrown(() =>
        insert('gfr-bad', newRequestId(), ruleBody('gfr-bad', { target })),
      );
      expect(error.code).toBe(3);
      expect(error.message).toBe(
        `Invalid value for field 'resource.target': '${target}'. Invalid target type ${type} for forwarding rule in scope GLOBAL`,
      );
      const [items] = await clients.rules.list({ project });
      expect(items).toEqual([]);
    });

    it.each([
      ['targetHttpsProxies', 'EXTERNAL_MANAGED'],
      ['targetTcpProxies', 'EXTERNAL'],
      ['targetSslProxies', 'EXTERNAL_MANAGED'],
      ['targetGrpcProxies', 'INTERNAL_SELF_MANAGED'],
      ['targetHttpProxies', 'INTERNAL_SELF_MANAGED'],
    ])('accepts a global %s target with scheme %s', async (collection, scheme) => {
      const name = `gfr-${collection.toLowerCase()}`;
      const body = ruleBody(name, {
        target: `projects/${project}/global/${collection}/t`,
        loadBalancingScheme: scheme,
        ...(scheme === 'INTERNAL_SELF_MANAGED'
          ? { network: 'global/networks/default', IPAddress: '0.0.0.0' }
          : {}),
      });
      await pollUntilDone(await insert(name, newRequestId(), body));
      const rule = await get(name);
      expect(rule.target).toBe(`${GLOBAL_URL}/${collection}/t`);
      expect(rule.loadBalancingScheme).toBe(scheme);
    });

    it('accepts a Private Service Connect rule to the all-apis bundle (name 1-20 lowercase letters and digits)', async () => {
      const body = {
        name: 'pscapis1',
        target: 'all-apis',
        network: 'global/networks/default',
        IPAddress: '10.3.0.5',
      };
      await pollUntilDone(await insert('pscapis1', newRequestId(), body));
      const rule = await get('pscapis1');
      expect(rule.target).toBe('all-apis');
      expect(absent(rule.loadBalancingScheme)).toBeUndefined();
      const long = await thrown(() =>
        insert('x', newRequestId(), { ...body, name: 'a'.repeat(21) }),
      );
      expect(long.code).toBe(3);
      expect(long.message).toContain("'resource.name'");
    });

    it('a PSC rule to Google APIs: createPSCServiceEndpoint, pscConnectionId, the default Service Directory registration, no description; deletePscForwardingRule', async () => {
      const body = (name: string, extra: object = {}) => ({
        name,
        target: 'all-apis',
        network: 'global/networks/default',
        IPAddress: '10.3.0.5',
        ...extra,
      });
      const first = await insert('pscapis2', newRequestId(), body('pscapis2'));
      expect(first.operationType).toBe('createPSCServiceEndpoint');
      await pollUntilDone(first);
      const rule = await get('pscapis2');
      expect(rule.pscConnectionId).toMatch(/^[1-9]\d*$/);
      expect(absent(rule.description)).toBeUndefined();
      expect(rule.serviceDirectoryRegistrations).toHaveLength(1);
      const [registration] = rule.serviceDirectoryRegistrations!;
      expect(registration!.namespace).toMatch(/^goog-psc-default-\d+$/);
      expect(registration!.serviceDirectoryRegion).toBe('us-central1');
      expect(absent(registration!.service)).toBeUndefined();

      // vpc-sc, with a registration that names a service and a region: the namespace is the
      // network's (one per network), the rest as given.
      const second = await insert(
        'pscvpcsc',
        newRequestId(),
        body('pscvpcsc', {
          target: 'vpc-sc',
          IPAddress: '10.3.0.6',
          description: 'to Google APIs',
          serviceDirectoryRegistrations: [
            { service: 'apis', serviceDirectoryRegion: 'europe-west1' },
          ],
        }),
      );
      expect(second.operationType).toBe('createPSCServiceEndpoint');
      await pollUntilDone(second);
      const other = await get('pscvpcsc');
      expect(other.description).toBe('to Google APIs');
      expect(other.serviceDirectoryRegistrations).toEqual([
        expect.objectContaining({
          namespace: registration!.namespace,
          service: 'apis',
          serviceDirectoryRegion: 'europe-west1',
        }),
      ]);
      expect(other.pscConnectionId).not.toBe(rule.pscConnectionId);

      // A proxy rule without a description keeps Compute's "" and its insert type.
      const plain = await insert('gfr-plain', newRequestId());
      expect(plain.operationType).toBe('insert');
      await pollUntilDone(plain);
      expect((await get('gfr-plain')).description).toBe('');
      expect(absent((await get('gfr-plain')).pscConnectionId)).toBeUndefined();

      const [deleted] = await clients.rules.delete({ project, forwardingRule: 'pscapis2' });
      expect((deleted.latestResponse as Operation).operationType).toBe('deletePscForwardingRule');
      for (const name of ['psc-apis', 'PscApis', 'a'.repeat(21)]) {
        const refused = await thrown(() => insert(name, newRequestId(), body(name)));
        expect(refused.code).toBe(3);
        expect(refused.message).toContain("'resource.name'");
      }
    });

    it('a global external passthrough rule (backendService) has a name of 1-43 characters', async () => {
      const body = (name: string) => ({
        name,
        IPProtocol: 'TCP',
        ports: ['80'],
        loadBalancingScheme: 'EXTERNAL',
        backendService: `projects/${project}/global/backendServices/bs`,
      });
      const ok = `p${'a'.repeat(42)}`; // 43
      await pollUntilDone(await insert(ok, newRequestId(), body(ok)));
      expect((await get(ok)).backendService).toBe(`${GLOBAL_URL}/backendServices/bs`);
      const long = `p${'a'.repeat(43)}`; // 44: a valid name of a regional rule
      const error = await thrown(() => insert(long, newRequestId(), body(long)));
      expect(error.code).toBe(3);
      expect(error.message).toContain("'resource.name'");
      expect(error.message).toContain('1-43');
    });

    it('refuses a regional backend service, the STANDARD tier, sourceIpRanges and a region in the body', async () => {
      const refused = [
        {
          ...ruleBody('gfr-x', { target: undefined }),
          loadBalancingScheme: 'EXTERNAL',
          backendService: `projects/${project}/regions/${region}/backendServices/bs`,
        },
        ruleBody('gfr-x', { networkTier: 'STANDARD' }),
        ruleBody('gfr-x', { sourceIpRanges: ['10.0.0.0/8'] }),
        ruleBody('gfr-x', { region: `projects/${project}/regions/${region}` }),
      ];
      for (const body of refused) {
        const error = await thrown(() => insert('gfr-x', newRequestId(), body));
        expect(error.code, JSON.stringify(body)).toBe(3);
      }
      const [items] = await clients.rules.list({ project });
      expect(items).toEqual([]);
    });
  });

  describe('changing a global rule', () => {
    beforeEach(async () => {
      await pollUntilDone(await insert('gfr-a', newRequestId()));
    });

    it('setLabels with the fingerprint it read is DONE in its first answer; a stale one is 412 (code 9)', async () => {
      const rule = await get('gfr-a');
      const [lro] = await clients.rules.setLabels({
        project,
        resource: 'gfr-a',
        globalSetLabelsRequestResource: {
          labels: { env: 'prod' },
          labelFingerprint: rule.labelFingerprint,
        },
      });
      const op = lro.latestResponse as Operation;
      expect(op).toMatchObject({ operationType: 'setLabels', status: 'DONE', progress: 100 });
      expect(op.selfLink).toBe(`${GLOBAL_URL}/operations/${op.name}`);
      const after = await get('gfr-a');
      expect(after.labels).toEqual({ env: 'prod' });
      expect(after.labelFingerprint).not.toBe(rule.labelFingerprint);

      const stale = await thrown(() =>
        clients.rules.setLabels({
          project,
          resource: 'gfr-a',
          globalSetLabelsRequestResource: {
            labels: { env: 'dev' },
            labelFingerprint: rule.labelFingerprint, // the one before the change
          },
        }),
      );
      expect(stale.code).toBe(9);
      expect(String(stale.message)).toContain('Labels fingerprint');
      expect((await get('gfr-a')).labels).toEqual({ env: 'prod' });
    });

    it('setTarget with a requestId runs a SetTarget operation to DONE; a retry answers the same operation', async () => {
      emulator.state.operationPolicy = { mode: 'polls', polls: 2 };
      const requestId = newRequestId();
      const request = {
        project,
        forwardingRule: 'gfr-a',
        requestId,
        targetReferenceResource: { target: proxy('hp2') },
      };
      const [lro] = await clients.rules.setTarget(request);
      const first = lro.latestResponse as Operation;
      expect(first).toMatchObject({ operationType: 'SetTarget', status: 'RUNNING' });
      expect(absent(first.region)).toBeUndefined();
      expect((await pollUntilDone(first)).at(-1)!.status).toBe('DONE');
      expect((await get('gfr-a')).target).toBe(`${BASE}${proxy('hp2')}`);
      const [retry] = await clients.rules.setTarget(request);
      expect((retry.latestResponse as Operation).name).toBe(first.name);
    });

    it('setTarget to a regional target is refused with 400 (code 3) and changes nothing', async () => {
      const target = `projects/${project}/regions/${region}/targetPools/tp`;
      const error = await thrown(() =>
        clients.rules.setTarget({
          project,
          forwardingRule: 'gfr-a',
          targetReferenceResource: { target },
        }),
      );
      expect(error.code).toBe(3);
      expect(error.message).toContain(
        'Invalid target type TARGET_POOL for forwarding rule in scope GLOBAL',
      );
      expect((await get('gfr-a')).target).toBe(`${BASE}${proxy('hp1')}`);
    });

    it('patch with the current fingerprint runs to DONE; a stale fingerprint is 412 (code 9)', async () => {
      emulator.state.operationPolicy = { mode: 'polls', polls: 2 };
      const rule = await get('gfr-a');
      const [lro] = await clients.rules.patch({
        project,
        forwardingRule: 'gfr-a',
        requestId: newRequestId(),
        forwardingRuleResource: { description: 'patched', fingerprint: rule.fingerprint },
      });
      const op = lro.latestResponse as Operation;
      expect(op).toMatchObject({ operationType: 'patch', status: 'RUNNING' });
      await pollUntilDone(op);
      const after = await get('gfr-a');
      expect(after.description).toBe('patched');
      expect(after.fingerprint).not.toBe(rule.fingerprint);
      const stale = await thrown(() =>
        clients.rules.patch({
          project,
          forwardingRule: 'gfr-a',
          forwardingRuleResource: { description: 'again', fingerprint: rule.fingerprint },
        }),
      );
      expect(stale.code).toBe(9);
      const tier = await thrown(() =>
        clients.rules.patch({
          project,
          forwardingRule: 'gfr-a',
          forwardingRuleResource: { networkTier: 'STANDARD' },
        }),
      );
      expect(tier.code).toBe(3);
      expect((await get('gfr-a')).description).toBe('patched');
    });
  });

  it('GlobalOperationsClient lists with a filter and orderBy, and deletes', async () => {
    emulator.state.operationPolicy = { mode: 'polls', polls: 2 };
    const done = await insert('gfr-op-a', newRequestId());
    await pollUntilDone(done);
    const running = await insert('gfr-op-b', newRequestId());
    const names = async (filter: string) => {
      const [ops] = await clients.operations.list({
        project,
        filter,
        orderBy: 'creationTimestamp desc',
      });
      return ops.map((op) => op.name);
    };
    expect(await names('status = DONE')).toEqual([done.name]);
    expect(await names('status eq RUNNING')).toEqual([running.name]);
    expect((await names('operationType = insert')).sort()).toEqual(
      [done.name, running.name].sort(),
    );
    await clients.operations.delete({ project, operation: done.name! });
    const gone = await thrown(() => clients.operations.get({ project, operation: done.name! }));
    expect(gone.code).toBe(5);
  });

  it('global and regional rules of one name coexist and never appear in each other’s lists', async () => {
    emulator.state.operationPolicy = { mode: 'polls', polls: 2 };
    const [regionalLro] = await regional.rules.insert({
      project,
      region,
      forwardingRuleResource: {
        name: 'same',
        IPProtocol: 'TCP',
        portRange: '80',
        target: `projects/${project}/regions/${region}/targetPools/tp`,
      },
    });
    const regionalOp = regionalLro.latestResponse as Operation;
    const globalOp = await insert('same', newRequestId());
    await pollUntilDone(globalOp);
    await regional.operations.wait({ project, region, operation: regionalOp.name! });

    expect((await get('same')).selfLink).toBe(`${GLOBAL_URL}/forwardingRules/same`);
    const [inRegion] = await regional.rules.get({ project, region, forwardingRule: 'same' });
    expect(inRegion.selfLink).toBe(`${REGION_URL}/forwardingRules/same`);

    const [globalItems] = await clients.rules.list({ project });
    expect(globalItems.map((r) => r.selfLink)).toEqual([`${GLOBAL_URL}/forwardingRules/same`]);
    const [regionalItems] = await regional.rules.list({ project, region });
    expect(regionalItems.map((r) => r.selfLink)).toEqual([`${REGION_URL}/forwardingRules/same`]);

    // Operations too: each list holds its own scope's.
    const [globalOps] = await clients.operations.list({ project });
    expect(globalOps.map((o) => o.name)).toEqual([globalOp.name]);
    const [regionalOps] = await regional.operations.list({ project, region });
    expect(regionalOps.map((o) => o.name)).toEqual([regionalOp.name]);
    // A global operation is not found under the region, nor a regional one globally.
    expect(
      (await thrown(() => regional.operations.get({ project, region, operation: globalOp.name! })))
        .code,
    ).toBe(5);
    expect(
      (await thrown(() => clients.operations.get({ project, operation: regionalOp.name! }))).code,
    ).toBe(5);

    // The aggregated list shows both, the global one under the `global` key.
    const seen: string[] = [];
    for await (const [scope, list] of regional.rules.aggregatedListAsync({ project })) {
      for (const rule of list.forwardingRules ?? []) seen.push(`${scope}/${rule.name}`);
    }
    expect(seen.sort()).toEqual(['global/same', `regions/${region}/same`]);

    // Deleting the global rule leaves the regional one.
    const [del] = await clients.rules.delete({ project, forwardingRule: 'same' });
    await pollUntilDone(del.latestResponse as Operation);
    const [after] = await clients.rules.list({ project });
    expect(after).toEqual([]);
    const [still] = await regional.rules.list({ project, region });
    expect(still.map((r) => r.name)).toEqual(['same']);
  });
});

describe(
  onStore('listing 250 seeded global rules beside 250 regional rules of the same names'),
  () => {
    const seeded: ForwardingRuleJson[] = sampleForwardingRules(250, { project });
    let emulator: Emulator;
    let clients: ReturnType<typeof globalComputeClients>;

    beforeAll(async () => {
      emulator = await createEmulator({
        seed: {
          globalForwardingRules: seeded.map((rule) => ({ project, rule })),
          forwardingRules: seeded.map((rule) => ({ project, region, rule })),
        },
      });
      clients = globalComputeClients(await emulator.listen(0));
    });
    afterAll(async () => {
      await clients?.close();
      await emulator?.close();
    });

    const expected = (filter: string, orderBy: string) => expectedNames(seeded, filter, orderBy);

    const cases: [filter: string, orderBy: string][] = [
      ['', ''],
      ['name = "web-*"', 'creationTimestamp desc'],
      ['name eq "web-.*"', 'name'],
      ['(name eq "api-.*")(loadBalancingScheme eq EXTERNAL)', 'creationTimestamp desc'],
      ['labels.env = prod AND IPProtocol = TCP', ''],
    ];

    it.each(cases)('listAsync filter %j orderBy %j in pages of 40', async (filter, orderBy) => {
      const names: string[] = [];
      for await (const rule of clients.rules.listAsync({
        project,
        maxResults: 40,
        ...(filter ? { filter } : {}),
        ...(orderBy ? { orderBy } : {}),
      })) {
        expect(rule.selfLink).toBe(`${GLOBAL_URL}/forwardingRules/${rule.name}`);
        expect(absent(rule.region)).toBeUndefined();
        names.push(rule.name!);
      }
      const want = expected(filter, orderBy);
      expect(want.length).toBeGreaterThan(0);
      expect(names).toEqual(want);
    });

    it('pages by hand with maxResults and pageToken; the last page has no nextPageToken', async () => {
      const pages: number[] = [];
      const names: string[] = [];
      let request: protos.google.cloud.compute.v1.IListGlobalForwardingRulesRequest | null = {
        project,
        maxResults: 50,
      };
      let last: protos.google.cloud.compute.v1.IForwardingRuleList | undefined;
      while (request) {
        if (pages.length > 10) throw new Error('paging does not end');
        const [items, next, raw]: [
          protos.google.cloud.compute.v1.IForwardingRule[],
          protos.google.cloud.compute.v1.IListGlobalForwardingRulesRequest | null,
          protos.google.cloud.compute.v1.IForwardingRuleList,
        ] = await clients.rules.list(request, { autoPaginate: false });
        pages.push(items.length);
        names.push(...items.map((r) => r.name!));
        if (next) expect(raw.nextPageToken).toBeTruthy();
        expect(raw).toMatchObject({
          kind: 'compute#forwardingRuleList',
          id: `projects/${project}/global/forwardingRules`,
          selfLink: `${GLOBAL_URL}/forwardingRules`,
        });
        request = next;
        last = raw;
      }
      expect(pages).toEqual([50, 50, 50, 50, 50]);
      expect(absent(last?.nextPageToken)).toBeUndefined();
      expect(names).toEqual(expected('', 'name'));
    });

    it('a page token of the regional list is refused by the global list (400, code 3)', async () => {
      const res = await call<{ nextPageToken: string }>(
        emulator.url!,
        'GET',
        `/compute/v1/projects/${project}/regions/${region}/forwardingRules?maxResults=5`,
        { token: FAKE_TOKEN },
      );
      const token = res.json.nextPageToken;
      expect(token).toBeTruthy();
      const error = await thrown(() =>
        clients.rules.list({ project, pageToken: token }, { autoPaginate: false }),
      );
      expect(error.code).toBe(3);
    });

    it('refuses a bad filter and an unsupported orderBy as the regional list does (code 3)', async () => {
      const filter = await thrown(() => clients.rules.list({ project, filter: 'name = (' }));
      expect(filter.code).toBe(3);
      expect(filter.message).toContain("Invalid value for field 'filter'");
      const order = await thrown(() => clients.rules.list({ project, orderBy: 'name desc' }));
      expect(order.code).toBe(3);
      expect(order.message).toContain("Invalid value for field 'orderBy'");
    });
  },
);

describe(
  onStore(
    'the wire shapes recorded from the real API (Config Connector, globalcomputeforwardingrule-direct)',
  ),
  () => {
    let emulator: Emulator;
    let url: string;
    const P = 'kcc-project';
    const RULES = `/compute/v1/projects/${P}/global/forwardingRules`;
    const FULL = `${BASE}projects/${P}/global`;
    // Over the emulator's socket, as the recorded clients spoke to the real API.
    const send = caller(() => url, { token: FAKE_TOKEN });
    const OPERATION_KEYS = [
      'id',
      'insertTime',
      'kind',
      'name',
      'operationType',
      'progress',
      'selfLink',
      'startTime',
      'status',
      'targetId',
      'targetLink',
      'user',
    ];

    beforeAll(async () => {
      emulator = await createEmulator();
      url = await emulator.listen(0);
    });
    afterAll(async () => {
      await emulator?.close();
    });

    it('insert, its operation, get, setLabels, setTarget, delete and a missing rule, key for key', async () => {
      const name = 'computeforwardingrule-recorded';
      const insert = await send('POST', RULES, {
        IPAddress: '8.8.8.8',
        description: 'A global forwarding rule',
        labels: { 'cnrm-test': 'true', foo: 'bar' },
        loadBalancingScheme: 'INTERNAL_SELF_MANAGED',
        name,
        network: `projects/${P}/global/networks/default`,
        portRange: '80',
        target: `${FULL}/targetHttpProxies/computetargethttpproxy-1`,
      });
      expect(insert.status).toBe(200);
      expect(Object.keys(insert.json).sort()).toEqual(OPERATION_KEYS);
      expect(insert.json).toMatchObject({
        kind: 'compute#operation',
        operationType: 'insert',
        progress: 0,
        status: 'RUNNING',
        selfLink: `${FULL}/operations/${insert.json.name}`,
        targetLink: `${FULL}/forwardingRules/${name}`,
      });

      const polled = await send(
        'GET',
        `/compute/v1/projects/${P}/global/operations/${insert.json.name}`,
      );
      expect(Object.keys(polled.json).sort()).toEqual([...OPERATION_KEYS, 'endTime'].sort());
      expect(polled.json).toMatchObject({ status: 'DONE', progress: 100, operationType: 'insert' });

      const got = await send('GET', `${RULES}/${name}`);
      expect(Object.keys(got.json).sort()).toEqual(
        [
          'IPAddress',
          'IPProtocol',
          'creationTimestamp',
          'description',
          'fingerprint',
          'id',
          'kind',
          'labelFingerprint',
          'loadBalancingScheme',
          'name',
          'network',
          'networkTier',
          'portRange',
          'selfLink',
          'target',
        ].sort(),
      );
      expect(got.json).toMatchObject({
        IPAddress: '8.8.8.8',
        IPProtocol: 'TCP',
        kind: 'compute#forwardingRule',
        loadBalancingScheme: 'INTERNAL_SELF_MANAGED',
        network: `${FULL}/networks/default`,
        networkTier: 'PREMIUM',
        portRange: '80-80',
        selfLink: `${FULL}/forwardingRules/${name}`,
        target: `${FULL}/targetHttpProxies/computetargethttpproxy-1`,
      });
      expect(got.json.id).toBe(insert.json.targetId);

      const labels = await send('POST', `${RULES}/${name}/setLabels`, {
        labelFingerprint: got.json.labelFingerprint,
        labels: { 'cnrm-test': 'true', foo: 'bar' },
      });
      expect(Object.keys(labels.json).sort()).toEqual([...OPERATION_KEYS, 'endTime'].sort());
      expect(labels.json).toMatchObject({
        operationType: 'setLabels',
        status: 'DONE',
        progress: 100,
      });
      expect((await send('GET', `${RULES}/${name}`)).json.labels).toEqual({
        'cnrm-test': 'true',
        foo: 'bar',
      });

      const target = await send('POST', `${RULES}/${name}/setTarget`, {
        target: `${FULL}/targetHttpProxies/computetargethttpproxy-2`,
      });
      expect(Object.keys(target.json).sort()).toEqual(OPERATION_KEYS);
      expect(target.json).toMatchObject({ operationType: 'SetTarget', status: 'RUNNING' });

      const deleted = await send('DELETE', `${RULES}/${name}`);
      expect(Object.keys(deleted.json).sort()).toEqual(OPERATION_KEYS);
      expect(deleted.json).toMatchObject({
        operationType: 'delete',
        status: 'RUNNING',
        progress: 0,
      });

      const missing = await send('GET', `${RULES}/${name}`);
      const message = `The resource 'projects/${P}/global/forwardingRules/${name}' was not found`;
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({
        error: {
          code: 404,
          message,
          errors: [{ domain: 'global', message, reason: 'notFound' }],
        },
      });
    });

    // The endpoint's recorded traffic (issue 37): an insert without description, the operation
    // types of an endpoint, and the fields the server adds, key for key.
    it('a PSC endpoint to Google APIs: insert, its operation, get and delete, key for key', async () => {
      const name = 'pscrecorded1';
      const insert = await send('POST', RULES, {
        IPAddress: '10.8.0.2',
        name,
        network: `projects/${P}/global/networks/computenetwork-psc`,
        target: 'all-apis',
      });
      expect(insert.status).toBe(200);
      expect(Object.keys(insert.json).sort()).toEqual(OPERATION_KEYS);
      expect(insert.json).toMatchObject({
        operationType: 'createPSCServiceEndpoint',
        status: 'RUNNING',
        progress: 0,
        targetLink: `${FULL}/forwardingRules/${name}`,
      });
      const polled = await send(
        'GET',
        `/compute/v1/projects/${P}/global/operations/${insert.json.name}`,
      );
      expect(polled.json).toMatchObject({
        operationType: 'createPSCServiceEndpoint',
        status: 'DONE',
      });

      const got = await send('GET', `${RULES}/${name}`);
      expect(Object.keys(got.json).sort()).toEqual(
        [
          'IPAddress',
          'IPProtocol',
          'creationTimestamp',
          'fingerprint',
          'id',
          'kind',
          'labelFingerprint',
          'name',
          'network',
          'networkTier',
          'pscConnectionId',
          'selfLink',
          'serviceDirectoryRegistrations',
          'target',
        ].sort(),
      );
      expect(got.json).toMatchObject({
        IPAddress: '10.8.0.2',
        target: 'all-apis',
        network: `${FULL}/networks/computenetwork-psc`,
      });
      expect(got.json.pscConnectionId).toMatch(/^\d+$/);
      expect(got.json.serviceDirectoryRegistrations).toEqual([
        {
          namespace: expect.stringMatching(/^goog-psc-computenetwork-psc-\d+$/),
          serviceDirectoryRegion: 'us-central1',
        },
      ]);
      // The list answers the rule as get does.
      const listed = await send('GET', RULES);
      expect(listed.json.items).toEqual([got.json]);

      const deleted = await send('DELETE', `${RULES}/${name}`);
      expect(Object.keys(deleted.json).sort()).toEqual(OPERATION_KEYS);
      expect(deleted.json).toMatchObject({ operationType: 'deletePscForwardingRule', progress: 0 });
    });
  },
);
