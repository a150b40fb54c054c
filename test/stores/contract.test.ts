// One contract, three stores: memory, PGlite in a data directory, and a PostgreSQL server
// (LISTKIT_PG_URL; .ci/with-postgres.sh starts one). The same expectations hold for each.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PageTokenCodec } from '@listkit/query';
import {
  ComputeUrls,
  type EmulatorStore,
  type ForwardingRuleJson,
  isStoreError,
  LOCK_FILE,
  migrate,
  type NewOperation,
  type OperationJson,
  type OrderState,
  openPgliteDatabase,
  openPostgresDatabase,
  openSqlStore,
  openStore,
  type RegionRef,
  type ScopeRef,
  type StoreLocation,
  scopeCheckFor,
  type WriteResult,
} from '@listkit/service';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipReason } from '../support/sql-databases.js';

const SECRET = 'store-contract-secret-of-enough-bytes';
const base = 'https://compute.googleapis.com/compute/v1';
const east: RegionRef = { project: 'p1', region: 'us-east1' };
const west: RegionRef = { project: 'p1', region: 'us-west1' };

/** A region's URL, or the project's `…/global` (a global rule or operation has no region). */
const scopeLink = (parent: ScopeRef) =>
  parent.region === undefined
    ? `${base}/projects/${parent.project}/global`
    : `${base}/projects/${parent.project}/regions/${parent.region}`;

function rule(parent: ScopeRef, name: string, i: number, labels: Record<string, string> = {}) {
  const link = `${scopeLink(parent)}/forwardingRules/${name}`;
  return {
    kind: 'compute#forwardingRule',
    id: String(9_000_000_000_000_000_000n + BigInt(i)), // beyond 2^53: must round-trip exactly
    name,
    creationTimestamp: `2024-01-01T00:00:${String(i % 60).padStart(2, '0')}.000-08:00`,
    ...(parent.region === undefined ? {} : { region: scopeLink(parent) }),
    selfLink: link,
    IPAddress: `10.0.0.${i % 250}`,
    IPProtocol: 'TCP',
    labels,
    fingerprint: `fp-${name}-1`,
  } satisfies ForwardingRuleJson;
}

let operationCount = 0;
function operation(parent: ScopeRef, type: string, target: string, requestId?: string) {
  const name = `operation-${process.pid}-${++operationCount}`;
  const op: OperationJson = {
    kind: 'compute#operation',
    id: String(operationCount),
    name,
    creationTimestamp: '2024-01-01T00:00:00.000Z',
    operationType: type,
    targetLink: target,
    targetId: '1',
    status: 'RUNNING',
    progress: 0,
    user: 'tester',
    insertTime: '2024-01-01T00:00:00.000Z',
    startTime: '2024-01-01T00:00:00.000Z',
    ...(parent.region === undefined ? {} : { region: scopeLink(parent) }),
    selfLink: `${scopeLink(parent)}/operations/${name}`,
  };
  return {
    operation: op,
    meta: { reads: 0 },
    ...(requestId ? { requestId } : {}),
  } satisfies NewOperation;
}
const write = (parent: ScopeRef, type: string, requestId?: string) => ({
  requestId,
  operation: (r: ForwardingRuleJson) => operation(parent, type, String(r.selfLink), requestId),
});

function order(orderId: string): OrderState {
  return {
    packageName: 'com.example.app',
    orderId,
    kind: 'oneTimeProduct',
    recurring: false,
    productId: 'gems',
    purchaseToken: `token-${orderId}`,
    purchaseTime: '2024-01-01T00:00:00Z',
    price: { currencyCode: 'EUR', units: '1', nanos: 0 },
    access: 'granted',
    payments: 'none',
  };
}

const IN_USE = 'Specified IP address is in-use and would result in a conflict.';

const codes = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) =>
      error instanceof Error && 'code' in error ? String(error.code) : String(error),
  );

/** Everything a store must do, whatever keeps the data. */
function contract(name: string, open: () => Promise<EmulatorStore>) {
  describe(`${name}: the store contract`, () => {
    let store: EmulatorStore;
    beforeAll(async () => {
      store = await open();
      await store.reset();
    }, 60_000);
    afterAll(() => store?.close());

    it('inserts a rule once per name and region; the same name in another region is another rule', async () => {
      const first = await store.rules.insert(east, rule(east, 'web', 1), write(east, 'insert'));
      expect(first.replayed).toBe(false);
      expect(first.operation.operation.operationType).toBe('insert');
      expect(
        await codes(store.rules.insert(east, rule(east, 'web', 2), write(east, 'insert'))),
      ).toBe('already_exists');
      await store.rules.insert(west, rule(west, 'web', 3), write(west, 'insert'));
      expect(await store.rules.get(east, 'web')).toEqual(rule(east, 'web', 1));
      expect((await store.rules.get(west, 'web'))?.id).toBe(rule(west, 'web', 3).id);
      expect(await store.rules.get(east, 'nothing')).toBeUndefined();
    });

    it('answers a retried requestId with the original operation and writes nothing', async () => {
      const first = await store.rules.insert(
        east,
        rule(east, 'retried', 4),
        write(east, 'insert', 'req-1'),
      );
      const again = await store.rules.insert(
        east,
        rule(east, 'retried-2', 5),
        write(east, 'insert', 'req-1'),
      );
      expect(again.replayed).toBe(true);
      expect(again.rule).toBeUndefined();
      expect(again.operation.operation.name).toBe(first.operation.operation.name);
      expect(await store.rules.get(east, 'retried-2')).toBeUndefined();
      // requestIds are per region
      const elsewhere = await store.rules.insert(
        west,
        rule(west, 'retried', 6),
        write(west, 'insert', 'req-1'),
      );
      expect(elsewhere.replayed).toBe(false);
      expect((await store.operations.byRequestId(east, 'req-1'))?.operation.name).toBe(
        first.operation.operation.name,
      );
    });

    it('runs the region check with the stored rules at the address only, and writes nothing when it refuses', async () => {
      const seen: string[][] = [];
      // 'web' is at 10.0.0.1, 'retried' at 10.0.0.4: the check is given 'web' alone.
      const refused = store.rules.insert(
        east,
        { ...rule(east, 'clash', 7), IPAddress: '10.0.0.1' },
        {
          ...write(east, 'insert', 'req-clash'),
          check: {
            check: (_candidate, sameAddress) => {
              seen.push(sameAddress.map((r) => r.name).sort());
              throw new Error('address in use');
            },
          },
        },
      );
      await expect(refused).rejects.toThrow('address in use');
      expect(seen).toEqual([['web']]);
      expect(await store.rules.get(east, 'clash')).toBeUndefined();
      expect(await store.operations.byRequestId(east, 'req-clash')).toBeUndefined();
    });

    it('stores the rule as the region check returns it: the clash rule, steering rules, another domain', async () => {
      const parent: RegionRef = { project: 'p1', region: 'europe-north1' };
      const urls = new ComputeUrls(base);
      const put = (name: string, i: number, fields: Record<string, unknown>) => {
        const r = { ...rule(parent, name, i), IPAddress: '192.0.2.10', ...fields };
        return store.rules.insert(parent, r, {
          ...write(parent, 'insert'),
          check: scopeCheckFor(r, { ...parent, urls }),
        });
      };
      await put('base', 1, { portRange: '80-80' });
      await expect(put('twin', 2, { portRange: '80-80' })).rejects.toThrow(IN_USE);
      const steering = await put('steer', 3, {
        portRange: '80-80',
        sourceIpRanges: ['1.2.3.0/24'],
      });
      expect(steering.rule?.baseForwardingRule).toBe(rule(parent, 'base', 1).selfLink);
      expect((await store.rules.get(parent, 'steer'))?.baseForwardingRule).toBe(
        rule(parent, 'base', 1).selfLink,
      );
      // Other ports, another protocol, an internal rule of a network: no clash.
      await put('other-ports', 4, { portRange: '81-81' });
      await put('udp', 5, { IPProtocol: 'UDP', portRange: '80-80' });
      await put('internal', 6, {
        loadBalancingScheme: 'INTERNAL',
        network: 'global/networks/vpc-a',
        portRange: '80-80',
      });
      await expect(
        put('internal-twin', 7, {
          loadBalancingScheme: 'INTERNAL',
          network: 'global/networks/vpc-a',
          portRange: '80-80',
        }),
      ).rejects.toThrow(IN_USE);
      expect(await store.rules.get(parent, 'twin')).toBeUndefined();
    });

    it('gives a rule without an address the lowest free one of its pool, reusing freed ones', async () => {
      const parent: RegionRef = { project: 'p1', region: 'asia-east1' };
      const ephemeral = async (name: string, i: number) => {
        const { IPAddress: _none, ...r } = rule(parent, name, i);
        const result = await store.rules.insert(parent, r, {
          ...write(parent, 'insert'),
          check: { allocate: 'internal', check: (candidate) => candidate },
        });
        expect((await store.rules.get(parent, name))?.IPAddress).toBe(result.rule?.IPAddress);
        return result.rule?.IPAddress;
      };
      // A rule naming a pool address keeps it from the pool.
      await store.rules.insert(
        parent,
        { ...rule(parent, 'static', 0), IPAddress: '10.128.0.3' },
        write(parent, 'insert'),
      );
      expect(await ephemeral('e1', 1)).toBe('10.128.0.2');
      expect(await ephemeral('e2', 2)).toBe('10.128.0.4');
      expect(await ephemeral('e3', 3)).toBe('10.128.0.5');
      await store.rules.delete(parent, 'e2', write(parent, 'delete'));
      await store.rules.delete(parent, 'static', write(parent, 'delete'));
      expect(await ephemeral('e4', 4)).toBe('10.128.0.3');
      expect(await ephemeral('e5', 5)).toBe('10.128.0.4');
      // A rule moved off a pool address frees it.
      const e1 = (await store.rules.get(parent, 'e1'))!;
      await store.rules.update(
        parent,
        { ...e1, IPAddress: '192.0.2.1', fingerprint: 'moved' },
        { ...write(parent, 'patch'), expectedFingerprint: String(e1.fingerprint) },
      );
      expect(await ephemeral('e6', 6)).toBe('10.128.0.2');
      expect(await ephemeral('e7', 7)).toBe('10.128.0.6');
      // Another region has pools of its own; a name in use is refused before any address is taken.
      expect(
        await codes(
          store.rules.insert(
            parent,
            { ...rule(parent, 'e7', 8), IPAddress: undefined },
            {
              ...write(parent, 'insert'),
              check: { allocate: 'internal', check: (candidate) => candidate },
            },
          ),
        ),
      ).toBe('already_exists');
      expect(await ephemeral('e8', 8)).toBe('10.128.0.7');
    });

    it('gives concurrent inserts without an address the lowest ones, none to a 409 or a retry', async () => {
      const parent: RegionRef = { project: 'p1', region: 'asia-east3' };
      const allocate = { allocate: 'internal' as const, check: (c: ForwardingRuleJson) => c };
      const ephemeral = (name: string, i: number, requestId?: string) => {
        const { IPAddress: _none, ...r } = rule(parent, name, i);
        return store.rules.insert(parent, r, {
          ...write(parent, 'insert', requestId),
          check: allocate,
        });
      };
      // 10 names three times each, and one requestId sent 5 times under other names.
      const outcomes = await Promise.all([
        ...Array.from({ length: 30 }, (_, i) => codes(ephemeral(`burst-${i % 10}`, i))),
        ...Array.from({ length: 5 }, (_, i) => ephemeral(`retried-${i}`, i, 'burst-request')),
      ]);
      expect(outcomes.slice(0, 30).filter((o) => o === 'ok')).toHaveLength(10);
      expect(outcomes.slice(0, 30).filter((o) => o === 'already_exists')).toHaveLength(20);
      const retries = outcomes.slice(30) as WriteResult[];
      expect(retries.filter((r) => !r.replayed)).toHaveLength(1);
      expect(new Set(retries.map((r) => r.operation.operation.name)).size).toBe(1);
      const rules = (await store.rules.all()).filter((r) => r.region === 'asia-east3');
      expect(rules).toHaveLength(11);
      // The 11 rules hold 10.128.0.2 … 10.128.0.12: no address went to a 409 or a retry.
      const held = rules.map((r) => String(r.rule.IPAddress)).sort();
      expect(held).toEqual(Array.from({ length: 11 }, (_, i) => `10.128.0.${i + 2}`).sort());
      expect((await ephemeral('after', 99)).rule?.IPAddress).toBe('10.128.0.13');
      const operations = (await store.operations.all()).filter((o) => o.region === 'asia-east3');
      expect(operations).toHaveLength(12);
    });

    it('finds a free address past a long run of addresses rules named', async () => {
      const parent: RegionRef = { project: 'p1', region: 'asia-east2' };
      // External positions 0…299 (203.0.113.1…254, then 198.51.100.1…46), but for one.
      const external = (i: number) => (i < 254 ? `203.0.113.${i + 1}` : `198.51.100.${i - 253}`);
      for (let i = 0; i < 300; i++) {
        if (i === 280) continue;
        await store.rules.insert(
          parent,
          { ...rule(parent, `static-${i}`, i), IPAddress: external(i) },
          write(parent, 'insert'),
        );
      }
      const ephemeral = async (name: string) => {
        const { IPAddress: _none, ...r } = rule(parent, name, 0);
        const result = await store.rules.insert(parent, r, {
          ...write(parent, 'insert'),
          check: { allocate: 'external', check: (candidate) => candidate },
        });
        return result.rule?.IPAddress;
      };
      expect(await ephemeral('first')).toBe(external(280));
      expect(await ephemeral('second')).toBe(external(300));
    }, 60_000);

    it('updates only from the fingerprint it read', async () => {
      const changed = { ...rule(east, 'web', 1), labels: { env: 'prod' }, fingerprint: 'fp-web-2' };
      const result = await store.rules.update(east, changed, {
        ...write(east, 'setLabels'),
        expectedFingerprint: 'fp-web-1',
      });
      expect(result.rule).toEqual(changed);
      expect(await store.rules.get(east, 'web')).toEqual(changed);
      const stale = { ...changed, labels: { env: 'dev' }, fingerprint: 'fp-web-3' };
      expect(
        await codes(
          store.rules.update(east, stale, {
            ...write(east, 'setLabels'),
            expectedFingerprint: 'fp-web-1',
          }),
        ),
      ).toBe('condition_failed');
      expect(
        await codes(
          store.rules.update(east, rule(east, 'ghost', 8), {
            ...write(east, 'patch'),
            expectedFingerprint: 'x',
          }),
        ),
      ).toBe('not_found');
      expect((await store.rules.get(east, 'web'))?.labels).toEqual({ env: 'prod' });
    });

    it('deletes once, recording the operation', async () => {
      await store.rules.insert(east, rule(east, 'doomed', 9), write(east, 'insert'));
      const deleted = await store.rules.delete(east, 'doomed', write(east, 'delete'));
      expect(deleted.rule?.name).toBe('doomed');
      expect(deleted.operation.operation.operationType).toBe('delete');
      expect(await codes(store.rules.delete(east, 'doomed', write(east, 'delete')))).toBe(
        'not_found',
      );
    });

    it('lists a region with filter, orderBy and page tokens, and a project across regions', async () => {
      const region: RegionRef = { project: 'p2', region: 'europe-west1' };
      for (let i = 0; i < 12; i++) {
        const env = i % 3 === 0 ? 'prod' : 'dev';
        await store.rules.insert(
          region,
          rule(region, `r-${String(i).padStart(2, '0')}`, i, { env }),
          write(region, 'insert'),
        );
      }
      const other: RegionRef = { project: 'p2', region: 'asia-east1' };
      await store.rules.insert(
        other,
        rule(other, 'r-99', 59, { env: 'prod' }),
        write(other, 'insert'),
      );
      const walk = async (request: { filter?: string; orderBy?: string; pageSize: number }) => {
        const names: string[] = [];
        let pageToken: string | undefined;
        do {
          const page = await store.rules.list(region, { ...request, pageToken });
          expect(page.items.length).toBeLessThanOrEqual(request.pageSize);
          names.push(...page.items.map((r) => r.name));
          pageToken = page.nextPageToken;
        } while (pageToken);
        return names;
      };
      expect(await walk({ filter: 'labels.env = "prod"', pageSize: 2 })).toEqual([
        'r-00',
        'r-03',
        'r-06',
        'r-09',
      ]);
      expect(
        await walk({
          filter: 'labels.env = "prod"',
          orderBy: 'creationTimestamp desc',
          pageSize: 3,
        }),
      ).toEqual(['r-09', 'r-06', 'r-03', 'r-00']);
      expect(await walk({ filter: 'NOT name = "r-1*" AND labels.env = dev', pageSize: 2 })).toEqual(
        ['r-01', 'r-02', 'r-04', 'r-05', 'r-07', 'r-08'],
      );
      const page = await store.rules.list(region, { pageSize: 5 });
      // a token is bound to its collection: the operations list of the region refuses it
      await expect(
        store.operations.list(region, { pageSize: 5, pageToken: page.nextPageToken }),
      ).rejects.toThrow();
      await expect(
        store.rules.list(region, {
          pageSize: 5,
          filter: 'name = "x"',
          pageToken: page.nextPageToken,
        }),
      ).rejects.toThrow();
      const aggregated = await store.rules.listAggregated('p2', {
        filter: 'labels.env = prod',
        pageSize: 10,
      });
      expect(aggregated.items.map((r) => `${String(r.region).split('/').pop()}/${r.name}`)).toEqual(
        [
          'asia-east1/r-99',
          'europe-west1/r-00',
          'europe-west1/r-03',
          'europe-west1/r-06',
          'europe-west1/r-09',
        ],
      );
      const all = await store.rules.all();
      expect(all.filter((r) => r.project === 'p2')).toHaveLength(13);
    });

    it('keeps operations: conditional updates by version, running, list, retention', async () => {
      const parent: RegionRef = { project: 'p3', region: 'us-east1' };
      const a = await store.operations.insert(parent, operation(parent, 'insert', 't'));
      const b = await store.operations.insert(parent, operation(parent, 'insert', 't'));
      expect((await store.operations.running(parent)).map((r) => r.operation.name)).toEqual(
        [a.operation.name, b.operation.name].sort(),
      );
      const done = await store.operations.update({
        ...a,
        operation: { ...a.operation, status: 'DONE', progress: 100 },
        meta: { reads: 1 },
        doneAt: 1000,
      });
      expect(done.version).toBe(a.version + 1);
      expect(await codes(store.operations.update({ ...a, meta: { reads: 2 } }))).toBe(
        'condition_failed',
      );
      expect(await store.operations.get(parent, a.operation.name)).toEqual(done);
      expect((await store.operations.running(parent)).map((r) => r.operation.name)).toEqual([
        b.operation.name,
      ]);
      const listed = await store.operations.list(parent, { filter: 'status = DONE', pageSize: 10 });
      expect(listed.items.map((o) => o.name)).toEqual([a.operation.name]);
      // retention: by time, then by count
      const c = await store.operations.insert(parent, {
        ...operation(parent, 'delete', 't'),
        doneAt: 3000,
      });
      const d = await store.operations.insert(parent, {
        ...operation(parent, 'delete', 't'),
        doneAt: 4000,
      });
      expect(await store.operations.expire({ doneBefore: 2000, keep: 100 })).toBe(1);
      expect(await store.operations.get(parent, a.operation.name)).toBeUndefined();
      expect(await store.operations.expire({ doneBefore: 0, keep: 1 })).toBe(1);
      expect(await store.operations.get(parent, c.operation.name)).toBeUndefined();
      expect(await store.operations.get(parent, d.operation.name)).toBeDefined();
      expect(await store.operations.delete(parent, d.operation.name)).toBe(true);
      expect(await store.operations.delete(parent, d.operation.name)).toBe(false);
    });

    it('refunds an order once, even when refunds race', async () => {
      await store.orders.put(order('GPA.1'));
      const refunded = {
        ...order('GPA.1'),
        refund: { time: '2024-02-01T00:00:00Z', revoke: false },
      };
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, () => codes(store.orders.refund(refunded))),
      );
      expect(outcomes.sort()).toEqual([
        'already_refunded',
        'already_refunded',
        'already_refunded',
        'already_refunded',
        'ok',
      ]);
      expect((await store.orders.get('com.example.app', 'GPA.1'))?.refund).toEqual(refunded.refund);
      expect(await codes(store.orders.refund({ ...refunded, orderId: 'GPA.none' }))).toBe(
        'not_found',
      );
      expect((await store.orders.all()).map((o) => o.orderId)).toEqual(['GPA.1']);
    });

    it('keeps settings', async () => {
      await store.state.set('clock', { offsetMs: 86_400_000 });
      await store.state.set('clock', { offsetMs: 5 });
      expect(await store.state.get('clock')).toEqual({ offsetMs: 5 });
      expect(await store.state.get('nothing')).toBeUndefined();
    });

    it('keeps a project’s global scope apart from its regions: names, requestIds, lists, tokens, addresses', async () => {
      const global: ScopeRef = { project: 'p1' };
      const south: RegionRef = { project: 'p1', region: 'asia-south1' };
      await store.rules.insert(south, rule(south, 'web', 39), write(south, 'insert', 'req-1'));
      await store.rules.insert(south, rule(south, 'web-3', 44), write(south, 'insert'));
      // The same name and requestId in the global scope are another rule and another request.
      const first = await store.rules.insert(
        global,
        rule(global, 'web', 40),
        write(global, 'insert', 'req-1'),
      );
      expect(first.replayed).toBe(false);
      expect(
        await codes(store.rules.insert(global, rule(global, 'web', 41), write(global, 'insert'))),
      ).toBe('already_exists');
      const retry = await store.rules.insert(
        global,
        rule(global, 'web-2', 42),
        write(global, 'insert', 'req-1'),
      );
      expect(retry.replayed).toBe(true);
      expect(retry.operation.operation.name).toBe(first.operation.operation.name);
      expect(await store.rules.get(global, 'web')).toEqual(rule(global, 'web', 40));
      expect((await store.rules.get(south, 'web'))?.selfLink).toBe(rule(south, 'web', 39).selfLink);

      // An ephemeral address from the global scope's own pool.
      const { IPAddress: _, ...noAddress } = rule(global, 'eph', 43);
      const allocated = await store.rules.insert(global, noAddress, {
        ...write(global, 'insert'),
        check: { allocate: 'external', check: (candidate) => candidate },
      });
      expect(allocated.rule?.IPAddress).toBe('203.0.113.1');

      const names = async (parent: ScopeRef) =>
        (await store.rules.list(parent, { pageSize: 500 })).items.map((r) => r.selfLink);
      expect(await names(global)).toEqual([
        rule(global, 'eph', 43).selfLink,
        rule(global, 'web', 40).selfLink,
      ]);
      expect(await names(south)).toEqual([
        rule(south, 'web', 39).selfLink,
        rule(south, 'web-3', 44).selfLink,
      ]);
      // A page token of a region's list is not one of the global list.
      const page = await store.rules.list(south, { pageSize: 1 });
      expect(page.nextPageToken).toBeTruthy();
      expect(
        await codes(store.rules.list(global, { pageSize: 1, pageToken: page.nextPageToken! })),
      ).not.toBe('ok');

      // Operations: found, listed and replayed in their own scope only.
      const opName = first.operation.operation.name;
      expect((await store.operations.get(global, opName))?.operation.selfLink).toBe(
        `${scopeLink(global)}/operations/${opName}`,
      );
      expect(await store.operations.get(south, opName)).toBeUndefined();
      const globalOps = (await store.operations.list(global, { pageSize: 500 })).items;
      expect(globalOps.map((o) => o.selfLink.includes('/global/'))).toEqual(
        globalOps.map(() => true),
      );
      expect(globalOps.every((o) => o.region === undefined)).toBe(true);
      expect((await store.operations.running(global)).map((r) => r.operation.name)).toContain(
        opName,
      );

      // Every rule of the global scope comes back without a region; the aggregated list has it.
      const everything = await store.rules.all();
      const globals = everything.filter((entry) => entry.region === undefined);
      expect(globals.map((entry) => entry.rule.name).sort()).toEqual(['eph', 'web']);
      for (const entry of globals) expect(entry).not.toHaveProperty('region');
      const aggregated = await store.rules.listAggregated('p1', { pageSize: 500 });
      expect(aggregated.items.map((r) => r.selfLink)).toContain(rule(global, 'web', 40).selfLink);

      // Deleting the global rule leaves the region's rule of the same name.
      await store.rules.delete(global, 'web', write(global, 'delete'));
      expect(await store.rules.get(global, 'web')).toBeUndefined();
      expect(await store.rules.get(south, 'web')).toBeDefined();
    });

    it('a snapshot taken during 8 concurrent writers holds every write acknowledged before it and none begun after it', async () => {
      const parent: RegionRef = { project: 'snap', region: 'us-east1' };
      let phase: 'before' | 'during' | 'after' = 'before';
      const acknowledgedBefore: string[] = [];
      const begunAfter: string[] = [];
      let stop = false;
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const name = `w${w}-${i}`;
          const begun = phase;
          await store.rules.insert(parent, rule(parent, name, i), write(parent, 'insert'));
          if (phase === 'before') acknowledgedBefore.push(name);
          if (begun === 'after') begunAfter.push(name);
          // The memory store answers in microtasks: let timers (the polls below) run too.
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const writers = Array.from({ length: 8 }, (_, w) => writer(w));
      await expect.poll(() => acknowledgedBefore.length, { timeout: 60_000 }).toBeGreaterThan(40);
      phase = 'during';
      const image = await store.capture();
      phase = 'after';
      await expect.poll(() => begunAfter.length, { timeout: 60_000 }).toBeGreaterThan(16);
      stop = true;
      await Promise.all(writers);

      await store.replace(image);
      const names = new Set(
        (await store.rules.all()).filter((r) => r.project === 'snap').map((r) => r.rule.name),
      );
      for (const name of acknowledgedBefore) expect(names.has(name), name).toBe(true);
      for (const name of begunAfter) expect(names.has(name), name).toBe(false);
      // A rule and its operation are one write: the image has both or neither.
      const targets = new Set(
        (await store.operations.all())
          .filter((o) => o.project === 'snap')
          .map((o) => String(o.operation.targetLink).split('/').pop()),
      );
      expect([...targets].sort()).toEqual([...names].sort());
    }, 180_000);

    it('a restore during concurrent reads serves the old state or the new, never a mix', async () => {
      const parent: RegionRef = { project: 'snap2', region: 'us-west1' };
      for (let i = 0; i < 30; i++) await store.rules.put(parent, rule(parent, `a-${i}`, i));
      const a = await store.capture();
      for (let i = 0; i < 30; i++) {
        await store.rules.delete(parent, `a-${i}`, write(parent, 'delete'));
      }
      for (let i = 0; i < 40; i++) await store.rules.put(parent, rule(parent, `b-${i}`, i));
      const b = await store.capture();
      let restoring = true;
      const seen: string[] = [];
      const reader = async () => {
        while (restoring) {
          const page = await store.rules.list(parent, { pageSize: 500 });
          const kinds = new Set(page.items.map((r) => r.name.split('-')[0]));
          seen.push(`${[...kinds].join('+')}:${page.items.length}`);
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      const readers = Array.from({ length: 4 }, reader);
      for (let round = 0; round < 6; round++) {
        await store.replace(a);
        await new Promise((resolve) => setImmediate(resolve));
        await store.replace(b);
        await new Promise((resolve) => setImmediate(resolve));
      }
      restoring = false;
      await Promise.all(readers);
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen)).toEqual(new Set(seen.filter((s) => s === 'a:30' || s === 'b:40')));
      expect((await store.rules.list(parent, { pageSize: 500 })).items).toHaveLength(40);
    }, 180_000);

    it('puts back operations with their versions, orders, settings, and the addresses the rules hold', async () => {
      await store.reset();
      const parent: RegionRef = { project: 'snap3', region: 'us-east1' };
      const allocate = { allocate: 'external' as const, check: (c: ForwardingRuleJson) => c };
      const ephemeral = async (name: string, i: number) => {
        const { IPAddress: _none, ...r } = rule(parent, name, i);
        const inserted = await store.rules.insert(parent, r, {
          ...write(parent, 'insert', `req-${name}`),
          check: allocate,
        });
        return inserted.rule?.IPAddress;
      };
      for (let i = 1; i <= 3; i++) expect(await ephemeral(`e${i}`, i)).toBe(`203.0.113.${i}`);
      const [first] = (await store.operations.all()).filter((o) => o.project === 'snap3');
      await store.operations.update({ ...first!, meta: { reads: 7 } });
      await store.orders.put(order('GPA.snap'));
      await store.state.set('clock', { offsetMs: 42 });
      const image = await store.capture();
      const operationsThen = await store.operations.all();

      await store.rules.delete(parent, 'e2', write(parent, 'delete'));
      expect(await ephemeral('later', 9)).toBe('203.0.113.2');
      await store.orders.refund({ ...order('GPA.snap'), refund: { time: 'now', revoke: false } });
      await store.state.set('clock', { offsetMs: 0 });

      await store.replace(image);
      expect(await store.operations.all()).toEqual(operationsThen);
      expect((await store.orders.get('com.example.app', 'GPA.snap'))?.refund).toBeUndefined();
      expect(await store.state.get('clock')).toEqual({ offsetMs: 42 });
      // The rules' addresses are theirs again: the next one is past them; a retry is a retry.
      expect(await ephemeral('next', 10)).toBe('203.0.113.4');
      const retry = await store.rules.insert(parent, rule(parent, 'e1', 1), {
        ...write(parent, 'insert', 'req-e1'),
        check: allocate,
      });
      expect(retry.replayed).toBe(true);
      // A second restore of the same image is the same state again.
      await store.replace(image);
      expect(await store.operations.all()).toEqual(operationsThen);
    });

    it('forgets everything on reset', async () => {
      await store.reset();
      expect(await store.rules.all()).toEqual([]);
      expect(await store.operations.all()).toEqual([]);
      expect(await store.orders.all()).toEqual([]);
      expect(await store.state.get('clock')).toBeUndefined();
    });

    it('expires by age, by count and running ones beyond their count in one sweep', async () => {
      // The SQL store sweeps in one statement: the count keeps the done operations the age left.
      // Last in the contract: the sweep is global, so it starts from an empty store.
      await store.reset();
      const parent: RegionRef = { project: 'p4', region: 'us-east1' };
      const at = (doneAt: number) =>
        store.operations.insert(parent, { ...operation(parent, 'insert', 't'), doneAt });
      const running = (second: number) => {
        const started = operation(parent, 'insert', 't');
        const startTime = `2024-01-01T00:00:0${second}.000Z`;
        return store.operations.insert(parent, {
          ...started,
          operation: { ...started.operation, startTime },
        });
      };
      const [old, done3, done4, done5] = [
        await at(1000),
        await at(3000),
        await at(4000),
        await at(5000),
      ];
      const [r1, r2, r3] = [await running(1), await running(2), await running(3)];
      expect(await store.operations.expire({ doneBefore: 2000, keep: 2, keepRunning: 1 })).toBe(4);
      const kept = async (r: { operation: { name: string } }) =>
        (await store.operations.get(parent, r.operation.name)) !== undefined;
      expect(await Promise.all([old, done3, done4, done5, r1, r2, r3].map(kept))).toEqual([
        false,
        false,
        true,
        true,
        false,
        false,
        true,
      ]);
      expect(await store.operations.expire({ doneBefore: 2000, keep: 2, keepRunning: 1 })).toBe(0);
      expect(await store.operations.expire({ doneBefore: 2000, keep: 0 })).toBe(2);
      expect(await kept(r3)).toBe(true);
    });
  });
}

const codec = () => PageTokenCodec.create({ secrets: [SECRET] });
const temporaryDirectories: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'listkit-store-'));
  temporaryDirectories.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temporaryDirectories) rmSync(dir, { recursive: true, force: true });
});

contract('memory', async () => openStore({ kind: 'memory' }, { pageTokens: await codec() }));
contract('PGlite', async () =>
  openStore({ kind: 'pglite', dataDir: dataDir() }, { pageTokens: await codec() }),
);

describe('PGlite in a data directory', () => {
  it('keeps what was written across a reopen, and refuses a second opener while open', async () => {
    const dir = dataDir();
    const location: StoreLocation = { kind: 'pglite', dataDir: dir };
    const first = await openStore(location, { pageTokens: await codec() });
    await first.rules.insert(east, rule(east, 'kept', 1), write(east, 'insert', 'req-kept'));
    await first.orders.put(order('GPA.kept'));
    await first.orders.refund({
      ...order('GPA.kept'),
      refund: { time: '2024-03-01T00:00:00Z', revoke: true },
    });
    const second = await openStore(location, { pageTokens: await codec() }).catch(
      (e: unknown) => e,
    );
    expect(isStoreError(second, 'locked')).toBe(true);
    expect((second as Error).message).toContain(dir);
    expect((second as Error).message).toContain(String(process.pid));
    await first.close();

    const reopened = await openStore(location, { pageTokens: await codec() });
    try {
      expect(await reopened.rules.get(east, 'kept')).toEqual(rule(east, 'kept', 1));
      expect(
        (await reopened.operations.byRequestId(east, 'req-kept'))?.operation.operationType,
      ).toBe('insert');
      expect(
        await codes(
          reopened.orders.refund({ ...order('GPA.kept'), refund: { time: 'x', revoke: false } }),
        ),
      ).toBe('already_refunded');
    } finally {
      await reopened.close();
    }
  }, 120_000);

  it('refuses a directory another live process holds, naming it', async () => {
    const dir = dataDir();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(join(dir, LOCK_FILE), `${other.pid}\n`);
      const refused = await openStore(
        { kind: 'pglite', dataDir: dir },
        { pageTokens: await codec() },
      ).catch((e: unknown) => e);
      expect(isStoreError(refused, 'locked')).toBe(true);
      expect((refused as Error).message).toContain(`in use by process ${other.pid};`);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = dataDir();
    // pid 2^22 + 1 is above Linux's pid_max default range and not running
    writeFileSync(join(dir, LOCK_FILE), `${2 ** 22 + 1}\n`);
    const store = await openStore({ kind: 'pglite', dataDir: dir }, { pageTokens: await codec() });
    await store.close();
  }, 60_000);

  it('applies its migrations once', async () => {
    const dir = dataDir();
    const db = await openPgliteDatabase(dir);
    try {
      expect(await migrate(db)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await migrate(db)).toEqual([]);
      // A restore copies a snapshot's rows back column for column: each state table's copy
      // (version 6) must keep its columns, whatever a later version adds to the table.
      const columns = (table: string) =>
        db.transaction(async (tx) =>
          (
            await tx.query<{ name: string; type: string }>(
              `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'snapshot' ORDER BY attname`,
              [table],
            )
          ).map((c) => `${c.name} ${c.type}`),
        );
      for (const table of ['forwarding_rules', 'operations', 'orders', 'emulator_settings']) {
        expect(await columns(`listkit_snapshot_${table}`), table).toEqual(await columns(table));
      }
    } finally {
      await db.close();
    }
  }, 60_000);

  it('moves a version-3 database on: its unused request_log table goes, its rules stay', async () => {
    const db = await openPgliteDatabase(dataDir());
    const tables = async () =>
      (
        await db.transaction((tx) =>
          tx.query<{ name: string }>(
            "SELECT tablename AS name FROM pg_tables WHERE tablename = 'request_log'",
          ),
        )
      ).map((row) => row.name);
    const store = await openSqlStore(db, { pageTokens: await codec() });
    await store.rules.put(east, rule(east, 'kept', 1));
    // Back to what version 3 left: the table version 1 created, and no record of version 4.
    await db.transaction(async (tx) => {
      await tx.query('CREATE TABLE request_log (seq bigserial PRIMARY KEY, entry jsonb NOT NULL)');
      await tx.query('DELETE FROM listkit_migrations WHERE version = 4');
    });
    expect(await tables()).toEqual(['request_log']);
    expect(await migrate(db)).toEqual([4]);
    expect(await tables()).toEqual([]);
    expect((await store.rules.get(east, 'kept'))?.name).toBe('kept');
    await store.close();
  }, 60_000);

  it('keeps the planner statistics of its tables fresh (PGlite runs no autovacuum)', async () => {
    const dir = dataDir();
    const estimate = async (db: Awaited<ReturnType<typeof openPgliteDatabase>>) => {
      const rows = await db.transaction((tx) =>
        tx.query<{ n: number }>(
          "SELECT reltuples::float8 AS n FROM pg_class WHERE relname = 'forwarding_rules'",
        ),
      );
      return Number(rows[0]?.n);
    };
    let db = await openPgliteDatabase(dir);
    let store = await openSqlStore(db, { pageTokens: await codec() });
    try {
      expect(await estimate(db)).toBe(0); // never analysed (-1) before the store opened it
      for (let i = 0; i < 120; i++) await store.rules.put(east, rule(east, `r-${i}`, i));
      // Analysed after the 50th write and again 55 writes later, as autovacuum would.
      await expect.poll(() => estimate(db)).toBeGreaterThanOrEqual(100);
    } finally {
      await store.close();
    }
    // Rows changed while no store had the database open: the next store sees the drift.
    db = await openPgliteDatabase(dir);
    await db.transaction((tx) => tx.query('DELETE FROM forwarding_rules'));
    store = await openSqlStore(db, { pageTokens: await codec() });
    try {
      expect(await estimate(db)).toBe(0);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('reuses the space of deleted rules under churn (PGlite runs no autovacuum)', async () => {
    const db = await openPgliteDatabase(dataDir());
    const store = await openSqlStore(db, { pageTokens: await codec() });
    const size = async () => {
      const rows = await db.transaction((tx) =>
        tx.query<{ bytes: number }>(
          "SELECT pg_total_relation_size('forwarding_rules')::float8 AS bytes",
        ),
      );
      return Number(rows[0]?.bytes);
    };
    const churn = async (round: number) => {
      for (let i = 0; i < 100; i++) {
        await store.rules.put(east, rule(east, `churn-${round}-${i}`, i, { round: `${round}` }));
      }
      for (let i = 0; i < 100; i++) {
        await store.rules.delete(east, `churn-${round}-${i}`, write(east, 'delete'));
      }
    };
    try {
      for (let round = 0; round < 3; round++) await churn(round);
      const early = await size();
      for (let round = 3; round < 15; round++) await churn(round);
      // Without VACUUM every round's 100 dead rows stay: the table grew 4x over these rounds
      // (516 KB to 2.1 MB); with it, it stayed at 303 KB.
      expect(await size()).toBeLessThanOrEqual(early * 2);
    } finally {
      await store.close();
    }
  }, 300_000);

  it('runs version 2 again over a database that already has its columns and tables (a run not recorded)', async () => {
    const db = await openPgliteDatabase(dataDir());
    const store = await openSqlStore(db, { pageTokens: await codec() });
    await store.rules.insert(
      east,
      { ...rule(east, 'kept', 1), IPAddress: '10.128.0.2' },
      write(east, 'insert'),
    );
    await db.transaction((tx) => tx.query('DELETE FROM listkit_migrations WHERE version = 2'));
    expect(await migrate(db)).toEqual([2]);
    const { IPAddress: _none, ...ephemeral } = rule(east, 'ephemeral', 2);
    const taken = await store.rules.insert(east, ephemeral, {
      ...write(east, 'insert'),
      check: { allocate: 'internal', check: (candidate) => candidate },
    });
    expect(taken.rule?.IPAddress).toBe('10.128.0.3');
    await store.close();
  }, 60_000);

  it('migrates a schema-1 database with rules to version 2: its rules clash and hold their addresses', async () => {
    const db = await openPgliteDatabase(dataDir());
    const store = await openSqlStore(db, { pageTokens: await codec() });
    await store.rules.insert(
      east,
      { ...rule(east, 'old-static', 1), IPAddress: '192.0.2.7' },
      write(east, 'insert'),
    );
    await store.rules.insert(
      east,
      { ...rule(east, 'old-pool', 2), IPAddress: '10.128.0.2' },
      write(east, 'insert'),
    );
    // Back to what version 1 created, rows and all.
    await db.transaction(async (tx) => {
      await tx.query('DROP TABLE address_pool_cursors, address_pool_freed');
      await tx.query(
        'ALTER TABLE forwarding_rules DROP COLUMN address_key, DROP COLUMN pool_kind, DROP COLUMN pool_index',
      );
      await tx.query('DELETE FROM listkit_migrations WHERE version = 2');
    });
    expect(await migrate(db)).toEqual([2]);
    const clash = { ...rule(east, 'new', 3), IPAddress: '192.0.2.7' };
    const refused = store.rules.insert(east, clash, {
      ...write(east, 'insert'),
      check: scopeCheckFor(clash, { ...east, urls: new ComputeUrls(base) }),
    });
    await expect(refused).rejects.toThrow(IN_USE);
    const { IPAddress: _none, ...ephemeral } = rule(east, 'ephemeral', 4);
    const taken = await store.rules.insert(east, ephemeral, {
      ...write(east, 'insert'),
      check: { allocate: 'internal', check: (candidate) => candidate },
    });
    expect(taken.rule?.IPAddress).toBe('10.128.0.3');
    await store.close();
  }, 60_000);
});

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(`PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  // A database of its own, so that these tables never meet another run's.
  const database = `listkit_store_${process.pid}`;
  let url = '';
  const admin = () => new pg.Client({ connectionString: process.env.LISTKIT_PG_URL });
  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database}`);
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
    const parsed = new URL(process.env.LISTKIT_PG_URL!);
    parsed.pathname = `/${database}`;
    url = parsed.toString();
  });
  afterAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.end();
  });

  contract('PostgreSQL', async () =>
    openStore({ kind: 'postgres', url }, { pageTokens: await codec() }),
  );

  describe('two stores on one database (two emulator processes)', () => {
    let one: EmulatorStore;
    let two: EmulatorStore;
    beforeAll(async () => {
      [one, two] = await Promise.all([
        openStore({ kind: 'postgres', url }, { pageTokens: await codec() }),
        openStore({ kind: 'postgres', url }, { pageTokens: await codec() }),
      ]);
      await one.reset();
    });
    afterAll(async () => {
      await one?.close();
      await two?.close();
    });

    it('creates one rule and one operation for a requestId sent to both at once', async () => {
      const parent: RegionRef = { project: 'shared', region: 'us-east1' };
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 ? one : two).rules.insert(
            parent,
            rule(parent, `same-request-${i}`, i),
            write(parent, 'insert', 'req-shared'),
          ),
        ),
      );
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      expect(new Set(results.map((r) => r.operation.operation.name)).size).toBe(1);
      const rules = (await one.rules.all()).filter((r) => r.project === 'shared');
      expect(rules).toHaveLength(1);
      expect((await two.operations.all()).filter((o) => o.requestId === 'req-shared')).toHaveLength(
        1,
      );
    });

    it('gives 1 success and 49 conflicts for 50 inserts of one name across both', async () => {
      const parent: RegionRef = { project: 'shared', region: 'us-west1' };
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          codes(
            (i % 2 ? one : two).rules.insert(
              parent,
              rule(parent, 'contested', i),
              write(parent, 'insert'),
            ),
          ),
        ),
      );
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'already_exists')).toHaveLength(49);
      const operations = (await one.operations.all()).filter(
        (o) => o.region === 'us-west1' && o.project === 'shared',
      );
      expect(operations).toHaveLength(1);
    });

    it('continues a listing on the other store with its page token', async () => {
      const parent: RegionRef = { project: 'shared', region: 'europe-west1' };
      for (let i = 0; i < 7; i++)
        await one.rules.insert(parent, rule(parent, `page-${i}`, i), write(parent, 'insert'));
      const first = await one.rules.list(parent, {
        orderBy: 'creationTimestamp desc',
        pageSize: 3,
      });
      const second = await two.rules.list(parent, {
        orderBy: 'creationTimestamp desc',
        pageSize: 3,
        pageToken: first.nextPageToken,
      });
      expect([...first.items, ...second.items].map((r) => r.name)).toEqual([
        'page-6',
        'page-5',
        'page-4',
        'page-3',
        'page-2',
        'page-1',
      ]);
      const stranger = await openStore(
        { kind: 'postgres', url },
        {
          pageTokens: await PageTokenCodec.create({ secrets: ['another-secret-of-enough-bytes'] }),
        },
      );
      try {
        await expect(
          stranger.rules.list(parent, {
            orderBy: 'creationTimestamp desc',
            pageSize: 3,
            pageToken: first.nextPageToken,
          }),
        ).rejects.toThrow();
      } finally {
        await stranger.close();
      }
    });

    it('refunds an order once across both', async () => {
      await one.orders.put(order('GPA.shared'));
      const refunded = {
        ...order('GPA.shared'),
        refund: { time: '2024-02-01T00:00:00Z', revoke: true },
      };
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => codes((i % 2 ? one : two).orders.refund(refunded))),
      );
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    });

    it('refuses clashing inserts sent to both at once: one rule holds the address', async () => {
      const parent: RegionRef = { project: 'shared', region: 'asia-south1' };
      const urls = new ComputeUrls(base);
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const r = { ...rule(parent, `rival-${i}`, i), IPAddress: '192.0.2.20' };
          return codes(
            (i % 2 ? one : two).rules.insert(parent, r, {
              ...write(parent, 'insert'),
              check: scopeCheckFor(r, { ...parent, urls }),
            }),
          );
        }),
      );
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
      expect((await one.rules.all()).filter((r) => r.region === 'asia-south1')).toHaveLength(1);
    });

    it('hands out distinct addresses to inserts without one sent to both at once', async () => {
      const parent: RegionRef = { project: 'shared', region: 'asia-south2' };
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const { IPAddress: _none, ...r } = rule(parent, `ephemeral-${i}`, i);
          return (i % 2 ? one : two).rules.insert(parent, r, {
            ...write(parent, 'insert'),
            check: { allocate: 'external', check: (candidate) => candidate },
          });
        }),
      );
      const addresses = results.map((r) => String(r.rule?.IPAddress)).sort();
      expect(addresses).toEqual(Array.from({ length: 20 }, (_, i) => `203.0.113.${i + 1}`).sort());
    });

    it('writes nothing at an address one store expected when the other took it, and takes the next', async () => {
      const parent: RegionRef = { project: 'shared', region: 'asia-south3' };
      const allocate = { allocate: 'external' as const, check: (c: ForwardingRuleJson) => c };
      const ephemeral = async (store: EmulatorStore, name: string, i: number) => {
        const { IPAddress: _none, ...r } = rule(parent, name, i);
        const inserted = await store.rules.insert(parent, r, {
          ...write(parent, 'insert'),
          check: allocate,
        });
        return inserted.rule?.IPAddress;
      };
      // `one` learns that the next address is 203.0.113.3; `two` takes it meanwhile.
      expect(await ephemeral(one, 'first', 1)).toBe('203.0.113.1');
      expect(await ephemeral(one, 'second', 2)).toBe('203.0.113.2');
      expect(await ephemeral(two, 'by-two', 3)).toBe('203.0.113.3');
      expect(await ephemeral(one, 'third', 4)).toBe('203.0.113.4');
      // A released address below what `one` expects is the one to take.
      await two.rules.delete(parent, 'first', write(parent, 'delete'));
      expect(await ephemeral(one, 'fourth', 5)).toBe('203.0.113.1');
      expect(await ephemeral(one, 'fifth', 6)).toBe('203.0.113.5');
      const rules = (await one.rules.all()).filter((r) => r.region === 'asia-south3');
      expect(rules.map((r) => `${r.rule.name} ${r.rule.IPAddress}`).sort()).toEqual([
        'by-two 203.0.113.3',
        'fifth 203.0.113.5',
        'fourth 203.0.113.1',
        'second 203.0.113.2',
        'third 203.0.113.4',
      ]);
      const operations = (await two.operations.all()).filter((o) => o.region === 'asia-south3');
      expect(operations).toHaveLength(7);
    });

    it('migrates a database once, whoever opens it first', async () => {
      const db = await openPostgresDatabase({ url });
      try {
        expect(await migrate(db)).toEqual([]);
      } finally {
        await db.close();
      }
    });
  });
});
