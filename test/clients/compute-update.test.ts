import type { protos } from '@google-cloud/compute';
import { createEmulator, type Emulator } from '@listkit/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  computeClients,
  googleapisCompute,
  newRequestId,
  thrown,
} from '../support/real-clients.js';
import { onStore } from '../support/test-store.js';

// setLabels, setTarget, patch and the aggregated list through the real @google-cloud/compute
// client (setTarget through googleapis too), against the emulator on a loopback port.

type Operation = protos.google.cloud.compute.v1.IOperation;
const project = 'update-project';
const region = 'us-central1';
let emulator: Emulator;
let clients: ReturnType<typeof computeClients>;

async function untilDone(first: Operation, inProject = project): Promise<Operation> {
  let op = first;
  for (let i = 0; op.status !== 'DONE' && i < 20; i++) {
    [op] = await clients.operations.wait({
      project: inProject,
      region: op.region!.split('/').pop()!,
      operation: op.name!,
    });
  }
  return op;
}

beforeAll(async () => {
  emulator = await createEmulator({ operationPolicy: { mode: 'polls', polls: 2 } });
  clients = computeClients(await emulator.listen(0));
  for (const [r, name] of [
    [region, 'fr-a'],
    [region, 'fr-b'],
    ['europe-west1', 'fr-a'],
  ] as const) {
    const [lro] = await clients.rules.insert({
      project,
      region: r,
      forwardingRuleResource: {
        name,
        IPProtocol: 'TCP',
        portRange: '80',
        loadBalancingScheme: 'EXTERNAL',
      },
    });
    await untilDone(lro.latestResponse as Operation);
  }
});
afterAll(async () => {
  await clients.close();
  await emulator.close();
});

describe(onStore('@google-cloud/compute against the emulator: changing rules'), () => {
  it('sets labels with the fingerprint it read; the operation is DONE in its first answer', async () => {
    const [rule] = await clients.rules.get({ project, region, forwardingRule: 'fr-a' });
    const [lro] = await clients.rules.setLabels({
      project,
      region,
      resource: 'fr-a',
      regionSetLabelsRequestResource: {
        labels: { env: 'prod' },
        labelFingerprint: rule.labelFingerprint,
      },
    });
    expect((lro.latestResponse as Operation).status).toBe('DONE');
    const [after] = await clients.rules.get({ project, region, forwardingRule: 'fr-a' });
    expect(after.labels).toEqual({ env: 'prod' });
    expect(after.labelFingerprint).not.toBe(rule.labelFingerprint);
  });

  it('refuses a stale labelFingerprint with 412 (FAILED_PRECONDITION, code 9)', async () => {
    const error = await thrown(() =>
      clients.rules.setLabels({
        project,
        region,
        resource: 'fr-b',
        regionSetLabelsRequestResource: { labels: { a: 'b' }, labelFingerprint: 'AAAAAAAAAAA=' },
      }),
    );
    expect(error.code).toBe(9);
    expect(String(error.message)).toContain('Labels fingerprint');
  });

  it('patches with the current fingerprint, polling the RUNNING operation to DONE', async () => {
    const [rule] = await clients.rules.get({ project, region, forwardingRule: 'fr-b' });
    const [lro] = await clients.rules.patch({
      project,
      region,
      forwardingRule: 'fr-b',
      forwardingRuleResource: {
        description: 'patched by the client',
        fingerprint: rule.fingerprint,
      },
    });
    expect((lro.latestResponse as Operation).status).toBe('RUNNING');
    expect((await untilDone(lro.latestResponse as Operation)).status).toBe('DONE');
    const [after] = await clients.rules.get({ project, region, forwardingRule: 'fr-b' });
    expect(after.description).toBe('patched by the client');
    expect(after.fingerprint).not.toBe(rule.fingerprint);
  });

  it('walks the migration to EXTERNAL_MANAGED through patches', async () => {
    for (const resource of [
      { externalManagedBackendBucketMigrationState: 'PREPARE' },
      {
        externalManagedBackendBucketMigrationState: 'TEST_BY_PERCENTAGE',
        externalManagedBackendBucketMigrationTestingPercentage: 10,
      },
      { externalManagedBackendBucketMigrationState: 'TEST_ALL_TRAFFIC' },
      { loadBalancingScheme: 'EXTERNAL_MANAGED' },
    ]) {
      const [lro] = await clients.rules.patch({
        project,
        region: 'europe-west1',
        forwardingRule: 'fr-a',
        forwardingRuleResource: resource,
      });
      await untilDone(lro.latestResponse as Operation);
    }
    const [rule] = await clients.rules.get({
      project,
      region: 'europe-west1',
      forwardingRule: 'fr-a',
    });
    expect(rule).toMatchObject({
      loadBalancingScheme: 'EXTERNAL_MANAGED',
      externalManagedBackendBucketMigrationState: 'TEST_ALL_TRAFFIC',
    });
  });

  it('surfaces a refused transition as 400 naming both states', async () => {
    const error = await thrown(() =>
      clients.rules.patch({
        project,
        region,
        forwardingRule: 'fr-a',
        forwardingRuleResource: { externalManagedBackendBucketMigrationState: 'TEST_ALL_TRAFFIC' },
      }),
    );
    expect(error.code).toBe(3);
    expect(String(error.message)).toContain('from unset to TEST_ALL_TRAFFIC');
  });

  it('lists every region with aggregatedListAsync', async () => {
    const seen: string[] = [];
    for await (const [scope, list] of clients.rules.aggregatedListAsync({
      project,
      maxResults: 2,
    })) {
      for (const rule of list.forwardingRules ?? []) seen.push(`${scope}/${rule.name}`);
    }
    expect(seen.sort()).toEqual([
      'regions/europe-west1/fr-a',
      'regions/us-central1/fr-a',
      'regions/us-central1/fr-b',
    ]);
  });
});

describe(onStore('setTarget through the real clients'), () => {
  const other = 'set-target-project';
  const pool = (name: string) => `projects/${other}/regions/${region}/targetPools/${name}`;
  const FULL = 'https://www.googleapis.com/compute/v1/';

  it('@google-cloud/compute: setTarget with a requestId, polled to DONE; a retry answers the same operation', async () => {
    const [insert] = await clients.rules.insert({
      project: other,
      region,
      forwardingRuleResource: {
        name: 'fr-t',
        IPProtocol: 'TCP',
        portRange: '80',
        target: pool('a'),
      },
    });
    await untilDone(insert.latestResponse as Operation, other);
    const requestId = newRequestId();
    const request = {
      project: other,
      region,
      forwardingRule: 'fr-t',
      requestId,
      targetReferenceResource: { target: pool('b') },
    };
    const [lro] = await clients.rules.setTarget(request);
    const first = lro.latestResponse as Operation;
    expect(first.operationType).toBe('SetTarget');
    expect((await untilDone(first, other)).status).toBe('DONE');
    const [rule] = await clients.rules.get({ project: other, region, forwardingRule: 'fr-t' });
    expect(rule.target).toBe(`${FULL}${pool('b')}`);
    const [retry] = await clients.rules.setTarget(request);
    expect((retry.latestResponse as Operation).name).toBe(first.name);
  });

  it('@google-cloud/compute: a target in another region is INVALID_ARGUMENT (code 3) naming it', async () => {
    const error = await thrown(() =>
      clients.rules.setTarget({
        project: other,
        region,
        forwardingRule: 'fr-t',
        targetReferenceResource: {
          target: `projects/${other}/regions/europe-west1/targetPools/x`,
        },
      }),
    );
    expect(error.code).toBe(3);
    expect(String(error.message)).toContain('target');
  });

  it('googleapis: forwardingRules.setTarget answers a SetTarget operation and changes the target', async () => {
    const compute = googleapisCompute(emulator.url!);
    const res = await compute.forwardingRules.setTarget({
      project: other,
      region,
      forwardingRule: 'fr-t',
      requestId: newRequestId(),
      requestBody: { target: pool('c') },
    });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ kind: 'compute#operation', operationType: 'SetTarget' });
    const rule = await compute.forwardingRules.get({
      project: other,
      region,
      forwardingRule: 'fr-t',
    });
    expect(rule.data.target).toBe(`${FULL}${pool('c')}`);
  });
});
