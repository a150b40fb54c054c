// Drives the emulator with the real @google-cloud/compute client (REST transport) and the real
// googleapis client, pointed at a loopback emulator (see /work/shared/reference/real-clients.md).
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
import {
  computeClients,
  googleapisCompute,
  newRequestId,
  pollOperation,
  startClean,
  thrown,
} from '../support/real-clients.js';
import { onStore } from '../support/test-store.js';

type Operation = protos.google.cloud.compute.v1.IOperation;

const project = 'my-project';
const region = 'us-central1';
const BASE = 'https://www.googleapis.com/compute/v1/';
const REGION_URL = `${BASE}projects/${project}/regions/${region}`;

/** The body the tests insert: what a user of the Node client typically writes. */
const ruleBody = (name: string) => ({
  name,
  IPProtocol: 'TCP',
  portRange: '80',
  labels: {},
  target: `projects/${project}/regions/${region}/targetPools/tp1`,
});

describe(onStore('@google-cloud/compute: insert, operations and get'), () => {
  let emulator: Emulator;
  let clients: ReturnType<typeof computeClients>;

  beforeAll(async () => {
    emulator = await createEmulator({ waitTimeoutMs: 1_500 });
    clients = computeClients(await emulator.listen(0));
  });
  afterAll(async () => {
    await clients?.close();
    await emulator?.close();
  });
  beforeEach(() => startClean(emulator));

  const insert = async (name: string, requestId?: string, body: object = ruleBody(name)) => {
    const [lro] = await clients.rules.insert({
      project,
      region,
      ...(requestId ? { requestId } : {}),
      forwardingRuleResource: body,
    });
    return lro.latestResponse as Operation;
  };

  /** Polls a regional operation until DONE; every answer, the insert's first. */
  const pollUntilDone = (first: Operation) =>
    pollOperation(first, (op) =>
      clients.operations.wait({
        project,
        region: op.region!.split('/').pop()!,
        operation: op.name!,
      }),
    );

  const expectProgressingThenDone = (seen: Operation[]) => {
    const last = seen.at(-1)!;
    expect(seen.slice(0, -1).map((op) => op.status)).toEqual(
      seen.slice(0, -1).map(() => 'RUNNING'),
    );
    const progress = seen.map((op) => op.progress ?? 0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b)); // never decreases
    expect(last.status).toBe('DONE');
    expect(last.progress).toBe(100);
    expect(last.endTime).toBeTruthy();
    expect(last.error).toBeFalsy();
    expect(new Set(seen.map((op) => op.name)).size).toBe(1);
  };

  it('insert answers a RUNNING operation with full-URL links, and wait completes it (immediate)', async () => {
    const first = await insert('fr-1', newRequestId());
    expect(first).toMatchObject({
      kind: 'compute#operation',
      operationType: 'insert',
      status: 'RUNNING',
      progress: 0,
      region: REGION_URL,
      targetLink: `${REGION_URL}/forwardingRules/fr-1`,
    });
    expect(first.name).toMatch(/^operation-\d+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+$/);
    expect(first.selfLink).toBe(`${REGION_URL}/operations/${first.name}`);
    expect(first.id).toMatch(/^\d+$/);
    expect(first.targetId).toMatch(/^\d+$/);
    expect(first.user).toBeTruthy();

    const seen = await pollUntilDone(first);
    expect(seen).toHaveLength(2); // one wait
    expectProgressingThenDone(seen);
    // A DONE operation stays DONE when read again (regionOperations.get works too).
    const [again] = await clients.operations.get({ project, region, operation: first.name! });
    expect(again.status).toBe('DONE');
    expect(again.targetId).toBe(first.targetId);
  });

  it("under { mode: 'polls', polls: 3 } the loop sees RUNNING with rising progress, then DONE", async () => {
    emulator.state.operationPolicy = { mode: 'polls', polls: 3 };
    const seen = await pollUntilDone(await insert('fr-polls', newRequestId()));
    expect(seen.map((op) => op.status)).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'DONE']);
    expectProgressingThenDone(seen);
    expect(seen[1]!.progress).toBeGreaterThan(0);
    expect(seen[2]!.progress).toBeGreaterThan(seen[1]!.progress!);
  });

  it("under { mode: 'duration' } wait follows the emulator's clock", async () => {
    emulator.state.operationPolicy = { mode: 'duration', ms: 60_000 };
    const first = await insert('fr-duration', newRequestId());
    const wait = () => clients.operations.wait({ project, region, operation: first.name! });

    emulator.clock.advance(30_000); // half way
    const [half] = await wait(); // nothing more happens: wait gives up after waitTimeoutMs
    expect(half.status).toBe('RUNNING');
    expect(half.progress).toBeGreaterThanOrEqual(50);
    expect(half.progress).toBeLessThan(100);

    emulator.clock.advance(30_000); // the end
    const [done] = await wait();
    expectProgressingThenDone([first, half, done]);
    // It finished when its duration elapsed on the emulator's clock, whenever it was read.
    expect(Date.parse(done.endTime!) - Date.parse(first.startTime!)).toBe(60_000);
  });

  it('a wait in progress answers as soon as the clock reaches the end', async () => {
    // An emulator whose waits never give up on their own: a wait that did not notice the clock
    // would outlast the test's timeout instead of answering DONE.
    const patient = await createEmulator({
      waitTimeoutMs: 3_600_000,
      operationPolicy: { mode: 'duration', ms: 60_000 },
    });
    const own = computeClients(await patient.listen(0));
    try {
      const [lro] = await own.rules.insert({
        project,
        region,
        requestId: newRequestId(),
        forwardingRuleResource: ruleBody('fr-patient'),
      });
      const first = lro.latestResponse as Operation;
      const timer = setTimeout(() => patient.clock.advance(60_000), 100);
      const [done] = await own.operations.wait({ project, region, operation: first.name! });
      clearTimeout(timer);
      expectProgressingThenDone([first, done]);
    } finally {
      await own.close();
      await patient.close();
    }
  });

  it('a retry with the same requestId returns the same operation and creates nothing', async () => {
    emulator.state.operationPolicy = { mode: 'polls', polls: 2 };
    const requestId = newRequestId();
    const first = await insert('fr-retry', requestId);
    const retry = await insert('fr-retry', requestId);
    expect(retry.name).toBe(first.name);
    expect(retry.id).toBe(first.id);
    expect(retry.targetId).toBe(first.targetId);
    // Still the same operation once it has completed; the request id is case-insensitive.
    await pollUntilDone(first);
    const late = await insert('fr-retry', requestId.toUpperCase());
    expect(late.name).toBe(first.name);
    expect(late.status).toBe('DONE');
    const [items] = await clients.rules.list({ project, region });
    expect(items.map((r) => r.name)).toEqual(['fr-retry']);
  });

  // Regression: under the `duration` policy a retry with the same requestId answered the
  // operation as last read (RUNNING) after the duration had passed, while GET answered DONE.
  it('a retry after the duration has passed answers the operation as DONE', async () => {
    emulator.state.operationPolicy = { mode: 'duration', ms: 60_000 };
    const requestId = newRequestId();
    const first = await insert('fr-late-retry', requestId);
    emulator.clock.advance(120_000);
    const retry = await insert('fr-late-retry', requestId);
    expect(retry.name).toBe(first.name);
    expect(retry.status).toBe('DONE'); // the emulator answers RUNNING
    expect(retry.progress).toBe(100); // the emulator answers 0
  });

  it('delete answers a delete operation; the rule is gone once it is DONE', async () => {
    await pollUntilDone(await insert('fr-del', newRequestId()));
    const [lro] = await clients.rules.delete({
      project,
      region,
      forwardingRule: 'fr-del',
      requestId: newRequestId(),
    });
    const op = lro.latestResponse as Operation;
    expect(op).toMatchObject({ operationType: 'delete', status: 'RUNNING' });
    expect(op.targetLink).toBe(`${REGION_URL}/forwardingRules/fr-del`);
    await pollUntilDone(op);
    const error = await thrown(() =>
      clients.rules.get({ project, region, forwardingRule: 'fr-del' }),
    );
    expect(error.code).toBe(5);
  });

  it('RegionOperationsClient lists operations with a filter and creationTimestamp desc', async () => {
    emulator.state.operationPolicy = { mode: 'polls', polls: 2 };
    const done = await insert('fr-op-a', newRequestId());
    await pollUntilDone(done);
    const running = await insert('fr-op-b', newRequestId());
    const names = async (filter: string) => {
      const [ops] = await clients.operations.list({
        project,
        region,
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
  });

  it('strict auth: an unknown token is 401 → code 16, a missing scope 403 → code 7', async () => {
    emulator.state.auth = {
      mode: 'strict',
      tokens: { 'another-token': { identity: 'a@example.com', scopes: ['compute'] } },
    };
    const unknown = await thrown(() => clients.rules.list({ project, region }));
    expect(unknown.code).toBe(16);
    expect(unknown.message).toContain('invalid authentication credentials');
    emulator.state.auth = {
      mode: 'strict',
      tokens: {
        'fake-token': {
          identity: 'reader@example.com',
          scopes: ['compute.readonly'],
          permissions: { [project]: ['compute.forwardingRules.list'] },
        },
      },
    };
    const [items] = await clients.rules.list({ project, region });
    expect(items).toEqual([]);
    const scope = await thrown(() => insert('fr-denied', newRequestId()));
    expect(scope.code).toBe(7);
    expect(scope.message).toBe('Request had insufficient authentication scopes.');
  });

  it('the client retries list on an injected 503, but never insert', async () => {
    await pollUntilDone(await insert('fr-retried', newRequestId()));
    emulator.state.faults.add({ method: 'compute.forwardingRules.list', status: 503, count: 1 });
    const [items] = await clients.rules.list({ project, region });
    expect(items.map((r) => r.name)).toEqual(['fr-retried']);
    const listCalls = emulator.state.requests
      .list()
      .filter((r) => r.apiMethod === 'compute.forwardingRules.list');
    expect(listCalls.map((r) => r.status)).toEqual([503, 200]);

    emulator.state.faults.add({ method: 'compute.forwardingRules.insert', status: 503, count: 1 });
    const error = await thrown(() => insert('fr-unavailable', newRequestId()));
    expect(error.code).toBe(14);
    const inserts = emulator.state.requests
      .list()
      .filter((r) => r.apiMethod === 'compute.forwardingRules.insert');
    expect(inserts.at(-1)!.status).toBe(503);
    expect(inserts.filter((r) => r.status === 503)).toHaveLength(1);
  });

  it('get answers the rule normalised the way Compute Engine answers it', async () => {
    const op = await insert('fr-get', newRequestId());
    await pollUntilDone(op);
    const [rule] = await clients.rules.get({ project, region, forwardingRule: 'fr-get' });
    expect(rule).toMatchObject({
      kind: 'compute#forwardingRule',
      name: 'fr-get',
      portRange: '80-80',
      networkTier: 'PREMIUM',
      IPProtocol: 'TCP',
      loadBalancingScheme: 'EXTERNAL',
      target: `${REGION_URL}/targetPools/tp1`,
      region: REGION_URL,
      selfLink: `${REGION_URL}/forwardingRules/fr-get`,
      labelFingerprint: '42WmSpB8rSM=',
    });
    expect(rule.id).toMatch(/^[1-9]\d*$/);
    expect(BigInt(String(rule.id))).toBeLessThan(2n ** 63n); // an int64 that fits
    expect(rule.id).toBe(op.targetId);
    expect(rule.selfLinkWithId).toBe(`${REGION_URL}/forwardingRules/${rule.id}`);
    expect(Number.isNaN(Date.parse(rule.creationTimestamp!))).toBe(false);
    expect(rule.fingerprint).toMatch(/^[A-Za-z0-9+/]{11}=$/);
    expect(rule.IPAddress).toBeTruthy();
    expect(rule.labels ?? {}).toEqual({}); // labels are set through setLabels, not insert
  });

  it('an insert without IPProtocol or networkTier gets the documented defaults', async () => {
    await pollUntilDone(await insert('fr-defaults', undefined, { name: 'fr-defaults' }));
    const [rule] = await clients.rules.get({ project, region, forwardingRule: 'fr-defaults' });
    expect(rule).toMatchObject({ IPProtocol: 'TCP', networkTier: 'PREMIUM', description: '' });
  });

  it('a PSC endpoint (a service attachment target): pscConnectionId, ACCEPTED, the network namespace, no empty description; insert and delete', async () => {
    const attachment = `projects/producer/regions/${region}/serviceAttachments/sa`;
    const first = await insert('psc-ep', newRequestId(), {
      name: 'psc-ep',
      target: attachment,
      network: 'global/networks/default',
      IPAddress: '10.0.0.5',
    });
    expect(first.operationType).toBe('insert'); // recorded: regional PSC keeps insert/delete
    await pollUntilDone(first);
    const [rule] = await clients.rules.get({ project, region, forwardingRule: 'psc-ep' });
    expect(rule).toMatchObject({
      target: attachment, // echoed as sent
      IPAddress: '10.0.0.5',
      networkTier: 'PREMIUM',
      pscConnectionStatus: 'ACCEPTED',
      serviceDirectoryRegistrations: [expect.objectContaining({ namespace: 'goog-psc-default' })],
    });
    expect(rule.pscConnectionId).toMatch(/^[1-9]\d*$/);
    expect(rule.description ?? undefined).toBeUndefined();
    expect(rule.loadBalancingScheme ?? undefined).toBeUndefined();

    // Another network, a description and a registration of one's own are kept.
    await pollUntilDone(
      await insert('psc-ep2', newRequestId(), {
        name: 'psc-ep2',
        target: `${BASE}${attachment}`,
        network: `projects/${project}/global/networks/consumer`,
        description: 'to the producer',
        allowPscGlobalAccess: true,
      }),
    );
    const [other] = await clients.rules.get({ project, region, forwardingRule: 'psc-ep2' });
    expect(other).toMatchObject({
      description: 'to the producer',
      allowPscGlobalAccess: true,
      serviceDirectoryRegistrations: [expect.objectContaining({ namespace: 'goog-psc-consumer' })],
    });
    expect(other.pscConnectionId).not.toBe(rule.pscConnectionId);

    // A rule of another kind gets none of it.
    await pollUntilDone(await insert('fr-plain', newRequestId()));
    const [plain] = await clients.rules.get({ project, region, forwardingRule: 'fr-plain' });
    expect(plain.pscConnectionId ?? undefined).toBeUndefined();
    expect(plain.pscConnectionStatus ?? undefined).toBeUndefined();
    expect(plain.description).toBe('');

    // What a PSC endpoint refuses: a scheme, ports, a target in another region.
    for (const [extra, field] of [
      [{ loadBalancingScheme: 'INTERNAL' }, 'loadBalancingScheme'],
      [{ IPProtocol: 'TCP', portRange: '80' }, 'portRange'],
      [{ target: `projects/producer/regions/us-east1/serviceAttachments/sa` }, 'target'],
    ] as const) {
      const refused = await thrown(() =>
        insert('psc-bad', newRequestId(), { name: 'psc-bad', target: attachment, ...extra }),
      );
      expect(refused.code, field).toBe(3);
      expect(refused.message).toContain(`'resource.${field}'`);
    }

    const [deleted] = await clients.rules.delete({ project, region, forwardingRule: 'psc-ep' });
    expect((deleted.latestResponse as Operation).operationType).toBe('delete');
  });

  // Regression: insert used to drop ports, sourceIpRanges and serviceLabel (and so serviceName).
  describe('fields insert keeps', () => {
    const internal = (name: string, extra: object) => ({
      name,
      IPProtocol: 'TCP',
      loadBalancingScheme: 'INTERNAL',
      network: 'global/networks/default',
      backendService: `projects/${project}/regions/${region}/backendServices/bs`,
      ...extra,
    });

    it('ports come back on GET', async () => {
      await pollUntilDone(
        await insert('fr-ports', newRequestId(), internal('fr-ports', { ports: ['80', '443'] })),
      );
      const [rule] = await clients.rules.get({ project, region, forwardingRule: 'fr-ports' });
      expect(rule.ports).toEqual(['80', '443']); // the emulator answers []
    });

    it('sourceIpRanges come back on GET', async () => {
      const body = { name: 'fr-src', sourceIpRanges: ['10.0.0.0/8'] };
      await pollUntilDone(await insert('fr-src', newRequestId(), body));
      const [rule] = await clients.rules.get({ project, region, forwardingRule: 'fr-src' });
      expect(rule.sourceIpRanges).toEqual(['10.0.0.0/8']); // the emulator answers []
    });

    it('serviceLabel comes back, with the derived serviceName', async () => {
      const body = internal('fr-svc', { ports: ['80'], serviceLabel: 'svc' });
      await pollUntilDone(await insert('fr-svc', newRequestId(), body));
      const [rule] = await clients.rules.get({ project, region, forwardingRule: 'fr-svc' });
      expect(rule.serviceLabel).toBe('svc'); // the emulator answers undefined
      expect(rule.serviceName).toBe(`svc.fr-svc.il4.${region}.lb.${project}.internal`);
    });
  });

  describe('errors arrive as GoogleError with the gRPC code of the HTTP status (no status field)', () => {
    it('409 for a duplicate name → code 10 (ABORTED)', async () => {
      await insert('fr-dup', newRequestId());
      const error = await thrown(() => insert('fr-dup', newRequestId()));
      expect(error).toBeInstanceOf(GoogleError);
      expect(error.code).toBe(10);
      expect(error.httpStatusCode).toBe(409);
      expect(error.message).toBe(
        `The resource 'projects/${project}/regions/${region}/forwardingRules/fr-dup' already exists`,
      );
    });

    it('404 for a missing rule → code 5 (NOT_FOUND)', async () => {
      const error = await thrown(() =>
        clients.rules.get({ project, region, forwardingRule: 'nope' }),
      );
      expect(error).toBeInstanceOf(GoogleError);
      expect(error.code).toBe(5);
      expect(error.message).toBe(
        `The resource 'projects/${project}/regions/${region}/forwardingRules/nope' was not found`,
      );
    });

    it('404 for wait on a missing operation → code 5', async () => {
      const error = await thrown(() =>
        clients.operations.wait({ project, region, operation: 'operation-0-000000-0000-0000' }),
      );
      expect(error).toBeInstanceOf(GoogleError);
      expect(error.code).toBe(5);
      expect(error.message).toContain('operation-0-000000-0000-0000');
      expect(error.message).toContain('was not found');
    });

    it('400 for an invalid body → code 3, naming the field', async () => {
      const error = await thrown(() => insert('Bad_Name', newRequestId()));
      expect(error.code).toBe(3);
      expect(error.message).toContain("'resource.name'");
    });

    it('400 for a bad filter → code 3', async () => {
      const error = await thrown(() =>
        clients.rules.list({ project, region, filter: 'name = "web-*" AND (' }),
      );
      expect(error).toBeInstanceOf(GoogleError);
      expect(error.code).toBe(3);
      expect(error.httpStatusCode).toBe(400);
      expect(error.message).toMatch(/^Invalid value for field 'filter': 'name = "web-\*" AND \('/);
    });

    it('400 for an orderBy Compute Engine does not support (name desc) → code 3', async () => {
      const error = await thrown(() =>
        clients.rules.list({ project, region, orderBy: 'name desc' }),
      );
      expect(error.code).toBe(3);
      expect(error.message).toContain("Invalid value for field 'orderBy': 'name desc'");
      expect(error.message).toContain('creationTimestamp desc'); // says what is supported
    });
  });
});

describe(onStore('@google-cloud/compute: listing 1,200 seeded rules'), () => {
  // Every sample rule goes into one region, so one list walks 12 pages of 100.
  const seeded: ForwardingRuleJson[] = sampleForwardingRules(1_200);
  let emulator: Emulator;
  let clients: ReturnType<typeof computeClients>;

  beforeAll(async () => {
    emulator = await createEmulator({
      seed: { forwardingRules: seeded.map((rule) => ({ project, region, rule })) },
    });
    clients = computeClients(await emulator.listen(0));
  });
  afterAll(async () => {
    await clients?.close();
    await emulator?.close();
  });

  /** What the list should answer, computed locally with the same query library. */
  const expected = (filter: string, orderBy: string) => expectedNames(seeded, filter, orderBy);

  const cases: [filter: string, orderBy: string][] = [
    ['', ''],
    ['name = "web-*"', ''],
    ['name = "web-*"', 'creationTimestamp desc'],
    ['name eq "web-.*"', 'name'],
    ['name eq "web-.*"', 'creationTimestamp desc'],
    ['(name eq "web-.*")(loadBalancingScheme eq EXTERNAL)', 'name'],
    ['(name eq "web-.*")(loadBalancingScheme eq EXTERNAL)', 'creationTimestamp desc'],
    ['labels.env = prod AND IPProtocol = UDP', 'creationTimestamp desc'],
  ];

  it.each(cases)('listAsync filter %j orderBy %j pages of 100', async (filter, orderBy) => {
    const names: string[] = [];
    for await (const rule of clients.rules.listAsync({
      project,
      region,
      maxResults: 100,
      ...(filter ? { filter } : {}),
      ...(orderBy ? { orderBy } : {}),
    })) {
      names.push(rule.name!);
    }
    const want = expected(filter, orderBy);
    expect(want.length).toBeGreaterThan(0);
    expect(names).toEqual(want);
  });

  it('both filter styles select the same rules', () => {
    const aip = expected('name = "web-*"', 'name');
    expect(aip.every((n) => n.startsWith('web-'))).toBe(true);
    expect(expected('name eq "web-.*"', 'name')).toEqual(aip);
  });

  it('list(…, {autoPaginate: false}) pages by hand; the last page has no nextPageToken', async () => {
    const pages: number[] = [];
    const names: string[] = [];
    let request: protos.google.cloud.compute.v1.IListForwardingRulesRequest | null = {
      project,
      region,
      maxResults: 100,
    };
    let last: protos.google.cloud.compute.v1.IForwardingRuleList | undefined;
    while (request) {
      if (pages.length > 20) throw new Error('paging does not end');
      const [items, next, raw]: [
        protos.google.cloud.compute.v1.IForwardingRule[],
        protos.google.cloud.compute.v1.IListForwardingRulesRequest | null,
        protos.google.cloud.compute.v1.IForwardingRuleList,
      ] = await clients.rules.list(request, { autoPaginate: false });
      pages.push(items.length);
      names.push(...items.map((r) => r.name!));
      if (next) expect(raw.nextPageToken).toBeTruthy();
      request = next;
      last = raw;
    }
    // 1,200 is a multiple of 100: the twelfth page is full and ends the list (no empty 13th).
    expect(pages).toEqual(Array.from({ length: 12 }, () => 100));
    expect(last?.nextPageToken ?? undefined).toBeUndefined();
    expect(names).toEqual(expected('', 'name'));
  });

  it('keyset paging: rules inserted while listAsync pages are seen once or not at all', async () => {
    const own = await createEmulator({
      seed: {
        forwardingRules: sampleForwardingRules(300).map((rule) => ({ project, region, rule })),
      },
    });
    const c = computeClients(await own.listen(0));
    try {
      const before = new Set(sampleForwardingRules(300).map((r) => r.name));
      const seen: string[] = [];
      let added = 0;
      for await (const rule of c.rules.listAsync({ project, region, maxResults: 50 })) {
        seen.push(rule.name!);
        if (seen.length % 50 === 0) {
          // one name before the cursor (never seen), one after it (seen later)
          await c.rules.insert({ project, region, forwardingRuleResource: { name: `a-${added}` } });
          await c.rules.insert({
            project,
            region,
            forwardingRuleResource: { name: `zz-${added}` },
          });
          added++;
        }
      }
      expect(new Set(seen).size).toBe(seen.length); // no duplicates
      expect(seen.filter((n) => before.has(n))).toEqual([...before].sort()); // nothing skipped
      expect(seen.filter((n) => n.startsWith('a-'))).toEqual([]);
      expect(seen.filter((n) => n.startsWith('zz-'))).toHaveLength(added);
      expect(seen).toEqual([...seen].sort());
    } finally {
      await c.close();
      await own.close();
    }
  });

  it('list() auto-paginates by default and returns everything', async () => {
    const [items] = await clients.rules.list({
      project,
      region,
      maxResults: 500,
      filter: 'name eq "api-.*"',
    });
    expect(items.map((r) => r.name)).toEqual(expected('name eq "api-.*"', ''));
  });
});

describe(onStore('googleapis compute v1'), () => {
  let emulator: Emulator;
  let compute: ReturnType<typeof googleapisCompute>;

  beforeAll(async () => {
    emulator = await createEmulator({
      seed: {
        forwardingRules: sampleForwardingRules(300).map((rule) => ({ project, region, rule })),
      },
    });
    compute = googleapisCompute(await emulator.listen(0));
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it('inserts with a requestId, waits, and a retry answers the same operation', async () => {
    const requestId = newRequestId();
    const body = { name: 'g-one', IPProtocol: 'TCP', portRange: '443' };
    const res = await compute.forwardingRules.insert({
      project,
      region,
      requestId,
      requestBody: body,
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ kind: 'compute#operation', status: 'RUNNING', progress: 0 });
    const retry = await compute.forwardingRules.insert({
      project,
      region,
      requestId,
      requestBody: body,
    });
    expect(retry.data.name).toBe(res.data.name);
    const done = await compute.regionOperations.wait({
      project,
      region,
      operation: res.data.name!,
    });
    expect(done.data.status).toBe('DONE');
    const rule = await compute.forwardingRules.get({ project, region, forwardingRule: 'g-one' });
    expect(rule.data).toMatchObject({ portRange: '443-443', networkTier: 'PREMIUM' });
    expect(rule.data.id).toBe(res.data.targetId);
  });

  it('lists with filter, maxResults, orderBy and returnPartialSuccess', async () => {
    const filter = 'name = "web-*"';
    const want = expectedNames(sampleForwardingRules(300), filter, 'creationTimestamp desc');
    const names: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const res = await compute.forwardingRules.list({
        project,
        region,
        filter,
        maxResults: 7,
        orderBy: 'creationTimestamp desc',
        returnPartialSuccess: true,
        ...(pageToken ? { pageToken } : {}),
      });
      expect(res.data.kind).toBe('compute#forwardingRuleList');
      expect(res.data.items!.length).toBeLessThanOrEqual(7);
      names.push(...res.data.items!.map((r) => r.name!));
      pageToken = res.data.nextPageToken ?? undefined;
      pages++;
    } while (pageToken && pages < 100);
    expect(names).toEqual(want);
    expect(pages).toBe(Math.ceil(want.length / 7));
    // Without the property, too (an empty answer has no items).
    const none = await compute.forwardingRules.list({ project, region, filter: 'name = nothing' });
    expect(none.data.items ?? []).toEqual([]);
    expect(none.data.nextPageToken).toBeUndefined();
  });

  it('surfaces 404 as a GaxiosError with .status/.code 404 and the message', async () => {
    const error = await thrown(() =>
      compute.forwardingRules.get({ project, region, forwardingRule: 'missing' }),
    );
    expect(error.status).toBe(404);
    expect(error.code).toBe(404);
    expect(error.message).toBe(
      `The resource 'projects/${project}/regions/${region}/forwardingRules/missing' was not found`,
    );
  });

  it('surfaces 400 for a bad filter and for a bad orderBy', async () => {
    const bad = await thrown(() =>
      compute.forwardingRules.list({ project, region, filter: 'name eq "web-(.*"' }),
    );
    expect(bad.status).toBe(400);
    expect(bad.code).toBe(400);
    expect(bad.message).toContain("Invalid value for field 'filter'");
    const order = await thrown(() =>
      compute.forwardingRules.list({ project, region, orderBy: 'name desc' }),
    );
    expect(order.status).toBe(400);
    expect(order.message).toContain("Invalid value for field 'orderBy'");
  });

  it('surfaces 409 for a duplicate name', async () => {
    const requestBody = { name: 'g-dup' };
    await compute.forwardingRules.insert({ project, region, requestBody });
    const error = await thrown(() =>
      compute.forwardingRules.insert({ project, region, requestBody }),
    );
    expect(error.status).toBe(409);
    expect(error.message).toContain('already exists');
  });
});
