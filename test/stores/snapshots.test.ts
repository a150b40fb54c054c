// Snapshots through the emulator (issue 37): the control plane's routes, the embedder's API, the
// limits, the strict-mode guard, and an export started from again, list walk for list walk.
// Like the real-client suites, this file runs over memory, PGlite and PostgreSQL (vitest.config.ts).
// Each test opens emulators of its own: on PGlite, on a loaded machine, that alone takes seconds,
// hence the long timeouts (no test asserts time).
import { createEmulator, type Emulator, sampleForwardingRules } from '@listkit/service';
import { afterEach, describe, expect, it } from 'vitest';
import { call, caller } from '../support/http-call.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers of many shapes
type Json = any;
const REGIONAL = '/compute/v1/projects/p/regions/us-central1/forwardingRules';
const GLOBAL = '/compute/v1/projects/p/global/forwardingRules';
const POOL = 'projects/p/regions/us-central1/targetPools/pool';
const ORDER = '/androidpublisher/v3/applications/com.example.app/orders/GPA.1';
/** The control plane wants it on every change, body or not. */
const JSON_TYPE = { 'content-type': 'application/json' };

const opened: Emulator[] = [];
async function open(options: Parameters<typeof createEmulator>[0] = {}): Promise<Emulator> {
  const emulator = await createEmulator(options);
  opened.push(emulator);
  return emulator;
}
afterEach(async () => {
  for (const emulator of opened.splice(0)) await emulator.close();
});

const seed = {
  orders: [
    {
      packageName: 'com.example.app',
      orderId: 'GPA.1',
      kind: 'oneTimeProduct' as const,
      recurring: false,
      purchaseTime: '2029-06-01T00:00:00Z',
    },
  ],
};

/** Every page of a list, as answered, without the page tokens (they are sealed anew each time). */
async function listWalk(emulator: Emulator, path: string, pageSize: number): Promise<string[]> {
  const pages: string[] = [];
  let token = '';
  do {
    const res = await call<Json>(
      emulator,
      'GET',
      `${path}?maxResults=${pageSize}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`,
    );
    expect(res.status).toBe(200);
    pages.push(res.text.replace(/"nextPageToken": ?"[^"]*",?/, ''));
    token = res.json.nextPageToken ?? '';
  } while (token);
  return pages;
}

describe('snapshots', () => {
  it('restore returns rules of both scopes, operations, orders, the clock, the policy and the faults', async () => {
    const emulator = await open({ seed });
    const c = caller<Json>(emulator, { headers: JSON_TYPE });
    expect((await c('POST', REGIONAL, { name: 'kept', target: POOL })).status).toBe(200);
    expect(
      (
        await c('POST', GLOBAL, {
          name: 'pscapis',
          target: 'all-apis',
          IPAddress: '10.1.0.1',
          network: 'global/networks/default',
        })
      ).status,
    ).toBe(200);
    await c('POST', '/_listkit/clock', { set: '2030-01-01T00:00:00Z', freeze: true });
    await c('PUT', '/_listkit/operations/policy', { mode: 'polls', polls: 2 });
    const before = (await c('GET', '/_listkit/state')).json;

    const taken = await c('POST', '/_listkit/snapshots', { name: 'seeded' });
    expect(taken.status).toBe(200);
    expect(taken.json).toMatchObject({ name: 'seeded', takenAt: '2030-01-01T00:00:00.000Z' });
    expect(taken.json.bytes).toBeGreaterThan(0);

    // Everything changes.
    expect((await c('DELETE', `${REGIONAL}/kept`)).status).toBe(200);
    expect((await c('POST', REGIONAL, { name: 'later', target: POOL })).status).toBe(200);
    expect((await c('POST', `${ORDER}:refund`)).status).toBe(204);
    await c('POST', '/_listkit/clock', { set: '2031-06-01T00:00:00Z', freeze: false });
    await c('PUT', '/_listkit/operations/policy', { mode: 'immediate' });
    await c('POST', '/_listkit/faults', { method: 'compute.forwardingRules.get', status: 503 });

    const restored = await c('POST', '/_listkit/snapshots/seeded:restore', {});
    expect(restored.status).toBe(200);
    expect(restored.json.restored).toEqual(taken.json);
    expect((await c('GET', '/_listkit/state')).json).toEqual(before);
    expect((await c('GET', '/_listkit/clock')).json.now).toBe('2030-01-01T00:00:00.000Z');
    expect((await c('GET', '/_listkit/operations/policy')).json).toEqual({
      mode: 'polls',
      polls: 2,
    });
    expect((await c('GET', '/_listkit/faults')).json.faults).toEqual([]);
    expect((await c('GET', `${REGIONAL}/kept`)).status).toBe(200);
    expect((await c('GET', `${GLOBAL}/pscapis`)).json.pscConnectionId).toMatch(/^\d+$/);
    expect((await c('POST', `${ORDER}:refund`)).status).toBe(204); // refundable again

    expect((await c('GET', '/_listkit/snapshots')).json).toEqual({ snapshots: [taken.json] });
    expect((await c('DELETE', '/_listkit/snapshots/seeded')).status).toBe(200);
    expect((await c('GET', '/_listkit/snapshots')).json).toEqual({ snapshots: [] });
  }, 300_000);

  it('the embedder API: snapshot() and restore() between tests, and a reset keeps the snapshots', async () => {
    const emulator = await open();
    const insert = (name: string) =>
      call(emulator, 'POST', REGIONAL, { body: { name, target: POOL } });
    await insert('one');
    const info = await emulator.snapshot();
    expect(info.name).toBe('default');
    await insert('two');
    await emulator.reset();
    await emulator.restore();
    const names = (await emulator.state.forwardingRules.all()).map((r) => r.rule.name);
    expect(names).toEqual(['one']);
    expect((await emulator.snapshots.list()).map((s) => s.name)).toEqual(['default']);
  }, 300_000);

  it('a restore after a test puts back exactly the snapshot: rules changed, added and deleted', async () => {
    const emulator = await open();
    const insert = (name: string) =>
      call(emulator, 'POST', REGIONAL, { body: { name, target: POOL, labels: { v: '1' } } });
    for (const name of ['a', 'b', 'c']) expect((await insert(name)).status).toBe(200);
    const walk = async () => [
      ...(await listWalk(emulator, REGIONAL, 2)),
      ...(await listWalk(emulator, '/compute/v1/projects/p/regions/us-central1/operations', 2)),
    ];
    const before = await walk();
    await emulator.snapshot('three');
    for (let round = 0; round < 3; round++) {
      // What a test does: change one rule in place, delete one, add one.
      const b = await call<Json>(emulator, 'GET', `${REGIONAL}/b`);
      const relabel = await call(emulator, 'POST', `${REGIONAL}/b/setLabels`, {
        body: { labels: { v: '2' }, labelFingerprint: b.json.labelFingerprint },
      });
      expect(relabel.status).toBe(200);
      expect((await call(emulator, 'DELETE', `${REGIONAL}/c`)).status).toBe(200);
      expect((await insert(`d${round}`)).status).toBe(200);
      expect(await walk()).not.toEqual(before);
      await emulator.restore('three');
      expect(await walk()).toEqual(before);
    }
  }, 300_000);

  it('refuses a snapshot file whose state the store cannot hold, and changes nothing', async () => {
    const emulator = await open();
    expect(
      (await call(emulator, 'POST', REGIONAL, { body: { name: 'kept', target: POOL } })).status,
    ).toBe(200);
    await emulator.snapshot('good');
    const file = JSON.parse(await emulator.snapshots.export('good'));
    const before = await listWalk(emulator, REGIONAL, 10);
    file.name = 'bad';
    file.store.rules[0].rule.id = 'not-a-number';
    await expect(emulator.snapshots.import(JSON.stringify(file))).rejects.toThrow(
      'snapshot file: store.rules[0].rule: id',
    );
    expect(await listWalk(emulator, REGIONAL, 10)).toEqual(before);
    expect((await emulator.snapshots.list()).map((s) => s.name)).toEqual(['good']);
  }, 300_000);

  it('refuses what it cannot do, naming it', async () => {
    const emulator = await open({ snapshotLimits: { count: 2, bytes: 256 * 1024 } });
    const c = caller<Json>(emulator, { headers: JSON_TYPE });
    const refused = async (
      method: string,
      path: string,
      body: unknown,
      status: number,
      says: string,
    ) => {
      const res = await c(method, path, body);
      expect(res.status, JSON.stringify(res.json)).toBe(status);
      expect(res.json.error.message).toContain(says);
    };
    await refused('POST', '/_listkit/snapshots', {}, 400, '"name" is required');
    await refused('POST', '/_listkit/snapshots', { name: 'a b' }, 400, "snapshot name: 'a b'");
    await refused('POST', '/_listkit/snapshots', { name: 'x'.repeat(64) }, 400, 'snapshot name');
    await refused(
      'POST',
      '/_listkit/snapshots/none:restore',
      {},
      404,
      "The snapshot 'none' was not found",
    );
    await refused('POST', '/_listkit/snapshots/none:rewind', {}, 404, 'No control route');
    await refused('GET', '/_listkit/snapshots/none', undefined, 404, "'none'");
    await refused('DELETE', '/_listkit/snapshots/none', undefined, 404, "'none'");
    expect((await c('POST', '/_listkit/snapshots', { name: 'one' })).status).toBe(200);
    expect((await c('POST', '/_listkit/snapshots', { name: 'two' })).status).toBe(200);
    expect((await c('POST', '/_listkit/snapshots', { name: 'two' })).status).toBe(200); // replaced
    await refused('POST', '/_listkit/snapshots', { name: 'three' }, 403, 'snapshotLimits.count');
    await c('DELETE', '/_listkit/snapshots/two');
    // 1,000 rules are far more than 256 KiB of snapshot.
    const seeded = await call(emulator, 'POST', '/_listkit/seed', {
      body: {
        forwardingRules: sampleForwardingRules(1000).map((rule) => ({
          project: 'p',
          region: String(rule.region).split('/').pop(),
          rule,
        })),
      },
    });
    expect(seeded.status).toBe(200);
    await refused('POST', '/_listkit/snapshots', { name: 'big' }, 403, 'snapshotLimits.bytes');
    expect((await c('GET', '/_listkit/snapshots')).json.snapshots.map((s: Json) => s.name)).toEqual(
      ['one'],
    );
    await expect(emulator.snapshots.import('{"listkit":"snapshot","version":2}')).rejects.toThrow(
      'snapshot file: version 2 is not 1',
    );
    await expect(emulator.snapshots.import('not json')).rejects.toThrow('snapshot file: not JSON');
  }, 300_000);

  it('the strict-mode guard covers every snapshot route', async () => {
    const auth = {
      mode: 'strict' as const,
      controlToken: 'control-secret-token',
      tokens: {
        api: {
          identity: 'u@example.com',
          scopes: ['compute'],
          permissions: { p: ['compute.forwardingRules.list'] },
        },
      },
    };
    const emulator = await open({ auth });
    const routes: [string, string, unknown][] = [
      ['POST', '/_listkit/snapshots', { name: 's' }],
      ['GET', '/_listkit/snapshots', undefined],
      ['GET', '/_listkit/snapshots/s', undefined],
      ['POST', '/_listkit/snapshots/s:restore', {}],
      ['DELETE', '/_listkit/snapshots/s', undefined],
    ];
    for (const [method, path, body] of routes) {
      const init = { headers: JSON_TYPE, body };
      expect(
        (await call(emulator, method, path, { ...init, token: null })).status,
        `${method} ${path}`,
      ).toBe(401);
      expect(
        (await call(emulator, method, path, { ...init, token: 'api' })).status,
        `${method} ${path}`,
      ).toBe(401);
      expect(
        (await call(emulator, method, path, { ...init, token: 'control-secret-token' })).status,
        `${method} ${path}`,
      ).toBe(200);
    }
    const off = await open({ auth: { ...auth, controlToken: undefined } });
    expect(
      (await call(off, 'POST', '/_listkit/snapshots', { body: { name: 's' }, token: 'api' }))
        .status,
    ).toBe(403);
    // A form a cross-site page could send is refused before any effect.
    const form = await call(emulator, 'POST', '/_listkit/snapshots/s:restore', {
      token: 'control-secret-token',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
  }, 300_000);

  it('an exported snapshot imported into a new emulator answers the same list walk, byte for byte', async () => {
    const source = await open();
    await call(source, 'POST', '/_listkit/seed', {
      body: {
        forwardingRules: sampleForwardingRules(120).map((rule) => ({
          project: 'p',
          region: 'us-central1',
          rule: { ...rule, region: undefined },
        })),
      },
    });
    await call(source, 'POST', GLOBAL, {
      body: {
        name: 'pscapis',
        target: 'all-apis',
        IPAddress: '10.1.0.1',
        network: 'global/networks/default',
      },
    });
    const walk = async (emulator: Emulator) => [
      ...(await listWalk(emulator, REGIONAL, 25)),
      ...(await listWalk(emulator, GLOBAL, 25)),
      ...(await listWalk(emulator, '/compute/v1/projects/p/aggregated/forwardingRules', 40)),
    ];
    const expected = await walk(source);
    await source.snapshot('exported');
    const file = await source.snapshots.export('exported');

    const target = await open();
    const imported = await target.snapshots.import(file);
    expect(imported.name).toBe('exported');
    expect(await walk(target)).toEqual(expected);
    expect(await target.snapshots.export('exported')).toBe(file);
  }, 300_000);
});
