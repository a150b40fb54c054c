import { describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import { EmulatorClock } from '../core/clock.js';
import { createEmulator, type EmulatorOptions } from '../emulator.js';
import type { RequestRecord } from '../http/request-log.js';
import type { Seed } from './seed.js';

// The control plane under /_listkit, through the public HTTP interface.

const ORIGIN = 'http://emulator';
const REGION = '/compute/v1/projects/p/regions/r';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
// biome-ignore lint/suspicious/noExplicitAny: JSON answers of many shapes
type Json = any;

/** A control-plane call, `path` relative to /_listkit: JSON's content type, no token. */
const control = (emulator: Emu, method: string, path: string, body?: unknown) =>
  call<Json>(emulator, method, `/_listkit${path}`, {
    bareHeaders: true,
    headers: { 'content-type': 'application/json' },
    body,
  });

/** An API call; `path` is relative to projects/p/regions/r unless it starts with /compute. */
const api = (emulator: Emu, method: string, path: string, body?: unknown) =>
  call<Json>(emulator, method, path.startsWith('/compute/') ? path : REGION + path, {
    headers: { 'content-type': 'application/json' },
    body,
  });

const rule = (name: string) => ({
  name,
  IPProtocol: 'TCP',
  portRange: '80',
  loadBalancingScheme: 'EXTERNAL',
  target: 'projects/p/regions/r/targetPools/pool',
});
const insert = (emulator: Emu, name: string) =>
  api(emulator, 'POST', '/forwardingRules', rule(name));
const names = async (emulator: Emu, path = '/forwardingRules'): Promise<string[]> =>
  ((await api(emulator, 'GET', path)).json.items ?? []).map((r: { name: string }) => r.name);

const SEED: Seed = {
  forwardingRules: [
    {
      project: 'p',
      region: 'r',
      rule: {
        name: 'seeded-1',
        id: '1000000000000000001',
        creationTimestamp: '2024-01-01T00:00:00.000-07:00',
        IPAddress: '203.0.113.50',
        IPProtocol: 'TCP',
        portRange: '443-443',
        loadBalancingScheme: 'EXTERNAL',
      },
    },
    { project: 'p', region: 'r', rule: { name: 'seeded-2' } },
    { project: 'other', region: 'r', rule: { name: 'elsewhere' } },
  ],
};

describe('health and state', () => {
  it('GET /_listkit/health answers ok', async () => {
    const emulator = await createEmulator();
    expect(await control(emulator, 'GET', '/health')).toEqual({ status: 200, json: { ok: true } });
  });

  it('GET /_listkit/state shows every rule with its project and region, and every operation', async () => {
    const emulator = await createEmulator({ seed: SEED });
    const op = (await insert(emulator, 'fr-new')).json;
    const state = await control(emulator, 'GET', '/state');
    expect(state.status).toBe(200);
    const rules = state.json.forwardingRules as { project: string; region: string; rule: Json }[];
    expect(rules.map((r) => `${r.project}/${r.region}/${r.rule.name}`).sort()).toEqual([
      'other/r/elsewhere',
      'p/r/fr-new',
      'p/r/seeded-1',
      'p/r/seeded-2',
    ]);
    expect(state.json.operations.map((o: { name: string }) => o.name)).toEqual([op.name]);
  });
});

describe('seed', () => {
  it('createEmulator({ seed }) loads rules as given, filling server-set fields', async () => {
    const emulator = await createEmulator({ seed: SEED });
    expect(await names(emulator)).toEqual(['seeded-1', 'seeded-2']);
    expect(await names(emulator, '/compute/v1/projects/other/regions/r/forwardingRules')).toEqual([
      'elsewhere',
    ]);
    const one = (await api(emulator, 'GET', '/forwardingRules/seeded-1')).json;
    expect(one).toMatchObject({
      kind: 'compute#forwardingRule',
      id: '1000000000000000001',
      creationTimestamp: '2024-01-01T00:00:00.000-07:00',
      IPAddress: '203.0.113.50',
      selfLink:
        'https://www.googleapis.com/compute/v1/projects/p/regions/r/forwardingRules/seeded-1',
      region: 'https://www.googleapis.com/compute/v1/projects/p/regions/r',
    });
    const two = (await api(emulator, 'GET', '/forwardingRules/seeded-2')).json;
    expect(two.id).toMatch(/^\d+$/);
    expect(two.creationTimestamp).toEqual(expect.any(String));
    expect(two.IPAddress).toEqual(expect.any(String));
  });

  it('POST /_listkit/seed adds rules and says how many', async () => {
    const emulator = await createEmulator({ seed: SEED });
    const res = await control(emulator, 'POST', '/seed', {
      forwardingRules: [
        { project: 'p', region: 'r', rule: { name: 'added-1' } },
        { project: 'p', region: 'r', rule: { name: 'added-2' } },
      ],
    });
    expect(res).toEqual({ status: 200, json: { added: 2 } });
    expect(await names(emulator)).toEqual(['added-1', 'added-2', 'seeded-1', 'seeded-2']);
    expect(await control(emulator, 'POST', '/seed', {})).toEqual({
      status: 200,
      json: { added: 0 },
    });
  });

  it.each([
    ['a rule without project', { forwardingRules: [{ region: 'r', rule: { name: 'x' } }] }],
    ['a rule without region', { forwardingRules: [{ project: 'p', rule: { name: 'x' } }] }],
    ['a rule without name', { forwardingRules: [{ project: 'p', region: 'r', rule: {} }] }],
    [
      'a rule with a numeric name',
      { forwardingRules: [{ project: 'p', region: 'r', rule: { name: 1 } }] },
    ],
    ['an entry without rule', { forwardingRules: [{ project: 'p', region: 'r' }] }],
    ['a null entry', { forwardingRules: [null] }],
    ['a JSON string', '"text"'],
    ['malformed JSON', '{"forwardingRules": ['],
  ])('a malformed seed (%s) is 400 in the envelope', async (_, body) => {
    const emulator = await createEmulator();
    const res = await control(emulator, 'POST', '/seed', body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(400);
    expect(res.json.error.errors[0].reason).toBe('badRequest');
    expect(await names(emulator)).toEqual([]);
  });

  // Regression (seed.ts seedState): `for (const entry of seed.forwardingRules ?? [])` on a value that is
  // not iterable throws a TypeError, which the emulator answers as 500 backendError.
  it.each([
    ['forwardingRules is a number', { forwardingRules: 5 }],
    ['forwardingRules is an object', { forwardingRules: {} }],
  ])('a malformed seed (%s) is 400, not 500', async (_, body) => {
    const emulator = await createEmulator();
    const res = await control(emulator, 'POST', '/seed', body);
    expect(res.status).toBe(400);
  });

  // Regression (seed.ts seedState): entries are stored one by one while checking, so a seed rejected
  // with 400 has already added the valid entries that came before the bad one.
  it('a rejected seed adds nothing', async () => {
    const emulator = await createEmulator();
    const res = await control(emulator, 'POST', '/seed', {
      forwardingRules: [
        { project: 'p', region: 'r', rule: { name: 'good' } },
        { project: 'p', region: 'r', rule: {} },
      ],
    });
    expect(res.status).toBe(400);
    expect(await names(emulator)).toEqual([]);
  });
});

describe('reset', () => {
  it('wipes rules, operations, faults and requests, and replays the seed', async () => {
    const emulator = await createEmulator({ seed: SEED });
    await insert(emulator, 'fr-new');
    await api(emulator, 'DELETE', '/forwardingRules/seeded-2');
    await control(emulator, 'POST', '/faults', {
      method: 'compute.forwardingRules.get',
      status: 500,
    });
    expect(await names(emulator)).toEqual(['fr-new', 'seeded-1']);

    expect(await control(emulator, 'POST', '/reset')).toEqual({ status: 200, json: { ok: true } });

    expect(await names(emulator)).toEqual(['seeded-1', 'seeded-2']);
    expect(await names(emulator, '/compute/v1/projects/other/regions/r/forwardingRules')).toEqual([
      'elsewhere',
    ]);
    const state = await control(emulator, 'GET', '/state');
    expect(state.json.operations).toEqual([]);
    expect((await control(emulator, 'GET', '/faults')).json).toEqual({ faults: [] });
    expect((await api(emulator, 'GET', '/forwardingRules/seeded-1')).status).toBe(200);
    // The log holds only what came after the wipe (the reset call itself is logged on its way out).
    const requests = (await control(emulator, 'GET', '/requests')).json.requests as RequestRecord[];
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/_listkit/reset' });
    expect(requests.some((r) => r.path.endsWith('/forwardingRules/seeded-2'))).toBe(false);
    // The seeded rule keeps its given id and timestamp.
    const seeded = (await api(emulator, 'GET', '/forwardingRules/seeded-1')).json;
    expect(seeded.id).toBe('1000000000000000001');
    expect(seeded.creationTimestamp).toBe('2024-01-01T00:00:00.000-07:00');
  });

  it('without a seed, leaves the emulator empty; emulator.reset() does the same', async () => {
    const emulator = await createEmulator();
    await insert(emulator, 'a');
    await control(emulator, 'POST', '/reset');
    expect(await names(emulator)).toEqual([]);
    await insert(emulator, 'b');
    await emulator.reset();
    expect(await names(emulator)).toEqual([]);
  });

  it('rules added through POST /seed do not survive a reset', async () => {
    const emulator = await createEmulator({ seed: SEED });
    await control(emulator, 'POST', '/seed', {
      forwardingRules: [{ project: 'p', region: 'r', rule: { name: 'temporary' } }],
    });
    await control(emulator, 'POST', '/reset');
    expect(await names(emulator)).toEqual(['seeded-1', 'seeded-2']);
  });
});

describe('clock', () => {
  async function frozen() {
    const emulator = await createEmulator();
    const res = await control(emulator, 'POST', '/clock', { freeze: true });
    expect(res.status).toBe(200);
    return { emulator, t0: res.json.epochMs as number };
  }

  it('GET answers now as RFC 3339 and epochMs', async () => {
    const emulator = await createEmulator();
    const before = Date.now();
    const res = await control(emulator, 'GET', '/clock');
    expect(res.status).toBe(200);
    expect(Date.parse(res.json.now)).toBe(res.json.epochMs);
    expect(res.json.epochMs).toBeGreaterThanOrEqual(before);
    expect(res.json.epochMs).toBeLessThanOrEqual(Date.now());
  });

  it.each<[string, Record<string, unknown>, number]>([
    ['advance "90s"', { advance: '90s' }, 90_000],
    ['advance "1.5s"', { advance: '1.5s' }, 1_500],
    ['advance "-10s"', { advance: '-10s' }, -10_000],
    ['advanceMs', { advanceMs: 2_500 }, 2_500],
    ['advance and advanceMs together', { advance: '1s', advanceMs: 1 }, 1_001],
    ['an empty object', {}, 0],
  ])('POST %s moves the clock', async (_, body, delta) => {
    const { emulator, t0 } = await frozen();
    const res = await control(emulator, 'POST', '/clock', body);
    expect(res.status).toBe(200);
    expect(res.json.epochMs).toBe(t0 + delta);
    expect(emulator.clock.now()).toBe(t0 + delta);
    expect((await control(emulator, 'GET', '/clock')).json.epochMs).toBe(t0 + delta);
  });

  it('POST set moves the clock to a timestamp, which keeps running unless frozen', async () => {
    const emulator = await createEmulator();
    const at = '2030-06-01T12:00:00.000Z';
    const set = await control(emulator, 'POST', '/clock', { set: at });
    expect(set.json.epochMs).toBeGreaterThanOrEqual(Date.parse(at));
    expect(set.json.epochMs).toBeLessThan(Date.parse(at) + 1_000);
    const both = await control(emulator, 'POST', '/clock', { set: at, freeze: true });
    await new Promise((resolve) => setTimeout(resolve, 15));
    const later = await control(emulator, 'GET', '/clock');
    expect(later.json.now).toBe(both.json.now);
    expect(Math.abs(later.json.epochMs - Date.parse(at))).toBeLessThan(50);
    // Frozen, it still moves when told to.
    const moved = await control(emulator, 'POST', '/clock', { advance: '60s' });
    expect(moved.json.epochMs).toBe(later.json.epochMs + 60_000);
  });

  it('freeze stops the clock and unfreezing lets it run from where it stood', async () => {
    const { emulator, t0 } = await frozen();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(emulator.clock.now()).toBe(t0);
    const thawed = await control(emulator, 'POST', '/clock', { freeze: false });
    expect(thawed.json.epochMs - t0).toBeLessThan(10);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(emulator.clock.now()).toBeGreaterThan(t0 + 10);
  });

  it('the clock drives operation completion', async () => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'duration', ms: 90_000 } });
    const op = (await insert(emulator, 'fr-1')).json;
    expect((await api(emulator, 'GET', `/operations/${op.name}`)).json.status).toBe('RUNNING');
    await control(emulator, 'POST', '/clock', { advance: '90s' });
    expect((await api(emulator, 'GET', `/operations/${op.name}`)).json.status).toBe('DONE');
  });

  it.each([
    ['advance "1m"', { advance: '1m' }],
    ['advance "abc"', { advance: 'abc' }],
    ['set "not a date"', { set: 'not a date' }],
    ['malformed JSON', '{advance'],
    ['advanceMs 1e20', { advanceMs: 1e20 }],
    ['advanceMs -1e20', { advanceMs: -1e20 }],
    ['advanceMs as text', { advanceMs: '1000' }],
    ['advance "1e20s"', { advance: '100000000000000000000s' }],
    ['advance past the year 9999', { advance: `${400 * 365 * 86_400 * 20}s` }],
    ['set to year 10000', { set: '+010000-01-01T00:00:00Z' }],
    ['set to year 0', { set: '0000-12-31T23:59:59Z' }],
    ['set 9999-12-31 and advance a day', { set: '9999-12-31T00:00:00Z', advance: '86400s' }],
    ['a good advance with a bad freeze', { advance: '10s', freeze: 'yes' }],
  ])('POST with %s is 400 and leaves the clock alone', async (_, body) => {
    const { emulator, t0 } = await frozen();
    const res = await control(emulator, 'POST', '/clock', body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(400);
    expect(emulator.clock.now()).toBe(t0);
  });
});

describe('clock range', () => {
  it('after a refused advanceMs of 1e20 every endpoint still answers', async () => {
    const emulator = await createEmulator();
    expect((await control(emulator, 'POST', '/clock', { advanceMs: 1e20 })).status).toBe(400);
    expect((await control(emulator, 'GET', '/health')).status).toBe(200);
    expect((await control(emulator, 'GET', '/clock')).status).toBe(200);
    expect((await api(emulator, 'GET', '/forwardingRules')).status).toBe(200);
    expect((await insert(emulator, 'fr-1')).status).toBe(200);
  });

  it('can be set to the last millisecond of 9999, and no further', async () => {
    const emulator = await createEmulator();
    const last = '9999-12-31T23:59:59.999Z';
    const res = await control(emulator, 'POST', '/clock', { set: last, freeze: true });
    expect(res.json.now).toBe(last);
    expect((await control(emulator, 'POST', '/clock', { advanceMs: 1 })).status).toBe(400);
    expect((await control(emulator, 'GET', '/clock')).json.now).toBe(last);
    expect((await insert(emulator, 'fr-1')).json.insertTime).toBe(last);
  });

  it('set and freeze together stop the clock at exactly the time asked for', async () => {
    // Real time that moves a millisecond at every look: the time between setting and freezing.
    let real = Date.parse('2026-01-01T00:00:00.000Z');
    const emulator = await createEmulator({ clock: new EmulatorClock(() => real++) });
    const at = '2030-01-01T00:00:00.000Z';
    const both = await control(emulator, 'POST', '/clock', { set: at, freeze: true });
    expect(both.json.now).toBe(at);
    expect((await control(emulator, 'GET', '/clock')).json.now).toBe(at);
    const advanced = await control(emulator, 'POST', '/clock', { advance: '1s', freeze: true });
    expect(advanced.json.now).toBe('2030-01-01T00:00:01.000Z');
  });

  it('EmulatorClock refuses to leave the range, even running', () => {
    let real = Date.parse('9999-12-31T23:59:59.000Z');
    const clock = new EmulatorClock(() => real);
    expect(() => clock.advance(1_000)).toThrow(RangeError);
    expect(() => clock.set(Number.NaN)).toThrow(RangeError);
    real += 10_000; // real time runs on past the end
    expect(new Date(clock.now()).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });
});

describe('operation policy', () => {
  it('GET answers the policy in force: the default, or the one given to createEmulator', async () => {
    const plain = await createEmulator();
    expect(await control(plain, 'GET', '/operations/policy')).toEqual({
      status: 200,
      json: { mode: 'immediate' },
    });
    const polls = await createEmulator({ operationPolicy: { mode: 'polls', polls: 4 } });
    expect((await control(polls, 'GET', '/operations/policy')).json).toEqual({
      mode: 'polls',
      polls: 4,
    });
  });

  it.each([
    [{ mode: 'immediate' }],
    [{ mode: 'polls', polls: 1 }],
    [{ mode: 'polls', polls: 7 }],
    [{ mode: 'duration', ms: 0 }],
    [{ mode: 'duration', ms: 1500.5 }],
  ])('PUT %j sets the policy', async (policy) => {
    const emulator = await createEmulator();
    const put = await control(emulator, 'PUT', '/operations/policy', policy);
    expect(put).toEqual({ status: 200, json: policy });
    expect((await control(emulator, 'GET', '/operations/policy')).json).toEqual(policy);
  });

  it('PUT keeps only the fields of the mode', async () => {
    const emulator = await createEmulator();
    const put = await control(emulator, 'PUT', '/operations/policy', {
      mode: 'polls',
      polls: 2,
      ms: 5,
      extra: true,
    });
    expect(put.json).toEqual({ mode: 'polls', polls: 2 });
  });

  it.each<[string, unknown]>([
    ['no body', undefined],
    ['null', 'null'],
    ['an unknown mode', { mode: 'eventually' }],
    ['no mode', { polls: 2 }],
    ['polls 0', { mode: 'polls', polls: 0 }],
    ['polls 1.5', { mode: 'polls', polls: 1.5 }],
    ['polls as text', { mode: 'polls', polls: '3' }],
    ['polls missing', { mode: 'polls' }],
    ['negative ms', { mode: 'duration', ms: -1 }],
    ['ms as text', { mode: 'duration', ms: '10' }],
    ['ms missing', { mode: 'duration' }],
    ['malformed JSON', '{mode:'],
  ])('PUT with %s is 400 and keeps the policy', async (_, body) => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'polls', polls: 2 } });
    const put = await control(emulator, 'PUT', '/operations/policy', body);
    expect(put.status).toBe(400);
    expect(put.json.error.code).toBe(400);
    expect((await control(emulator, 'GET', '/operations/policy')).json).toEqual({
      mode: 'polls',
      polls: 2,
    });
  });
});

describe('faults', () => {
  it('count 2: the next two inserts answer 503 in the envelope, the third succeeds', async () => {
    const emulator = await createEmulator();
    const added = await control(emulator, 'POST', '/faults', {
      method: 'compute.forwardingRules.insert',
      status: 503,
      count: 2,
    });
    expect(added.status).toBe(200);
    expect(added.json.faults).toEqual([
      { method: 'compute.forwardingRules.insert', status: 503, count: 2 },
    ]);
    for (let i = 0; i < 2; i++) {
      const res = await insert(emulator, 'fr-1');
      expect(res.status).toBe(503);
      expect(res.json).toEqual({
        error: {
          code: 503,
          message: 'Injected fault for compute.forwardingRules.insert.',
          errors: [
            {
              domain: 'global',
              reason: 'backendError',
              message: 'Injected fault for compute.forwardingRules.insert.',
            },
          ],
        },
      });
      if (i === 0) {
        expect((await control(emulator, 'GET', '/faults')).json.faults[0].count).toBe(1);
      }
    }
    expect(await names(emulator)).toEqual([]); // the failed inserts created nothing
    expect((await control(emulator, 'GET', '/faults')).json).toEqual({ faults: [] });
    const third = await insert(emulator, 'fr-1');
    expect(third.status).toBe(200);
    expect(third.json.operationType).toBe('insert');
  });

  it('fires only for its method', async () => {
    const emulator = await createEmulator();
    await control(emulator, 'POST', '/faults', {
      method: 'compute.forwardingRules.insert',
      status: 503,
    });
    expect((await api(emulator, 'GET', '/forwardingRules')).status).toBe(200);
    expect((await insert(emulator, 'a')).status).toBe(503);
    expect((await insert(emulator, 'a')).status).toBe(503); // no count: every time
  });

  it('uses the given reason and message', async () => {
    const emulator = await createEmulator();
    await control(emulator, 'POST', '/faults', {
      method: 'compute.forwardingRules.list',
      status: 429,
      reason: 'rateLimitExceeded',
      message: 'Quota exceeded.',
      count: 1,
    });
    const res = await api(emulator, 'GET', '/forwardingRules');
    expect(res.status).toBe(429);
    expect(res.json.error).toMatchObject({
      code: 429,
      message: 'Quota exceeded.',
      errors: [{ reason: 'rateLimitExceeded', message: 'Quota exceeded.' }],
    });
    expect((await api(emulator, 'GET', '/forwardingRules')).status).toBe(200);
  });

  it('probability 0 never fires', async () => {
    const emulator = await createEmulator();
    await control(emulator, 'POST', '/faults', { method: '*', status: 500, probability: 0 });
    for (let i = 0; i < 25; i++) {
      expect((await api(emulator, 'GET', '/forwardingRules')).status).toBe(200);
    }
    expect((await insert(emulator, 'fr-1')).status).toBe(200);
    expect((await control(emulator, 'GET', '/faults')).json.faults).toHaveLength(1);
  });

  it('probability 1 always fires', async () => {
    const emulator = await createEmulator();
    await control(emulator, 'POST', '/faults', {
      method: 'compute.forwardingRules.list',
      status: 500,
      probability: 1,
    });
    for (let i = 0; i < 5; i++) {
      expect((await api(emulator, 'GET', '/forwardingRules')).status).toBe(500);
    }
  });

  it("method '*' hits every API method but not the control plane", async () => {
    const emulator = await createEmulator();
    const op = (await insert(emulator, 'fr-1')).json;
    await control(emulator, 'POST', '/faults', { method: '*', status: 502 });
    for (const [method, path] of [
      ['GET', '/forwardingRules'],
      ['GET', '/forwardingRules/fr-1'],
      ['DELETE', '/forwardingRules/fr-1'],
      ['GET', `/operations/${op.name}`],
      ['POST', `/operations/${op.name}/wait`],
      ['GET', '/operations'],
      ['DELETE', `/operations/${op.name}`],
    ] as const) {
      expect((await api(emulator, method, path)).status).toBe(502);
    }
    expect((await insert(emulator, 'fr-2')).status).toBe(502);
    expect((await control(emulator, 'GET', '/health')).status).toBe(200);
    expect((await control(emulator, 'GET', '/state')).json.forwardingRules).toHaveLength(1);
  });

  it('DELETE clears every fault', async () => {
    const emulator = await createEmulator();
    await control(emulator, 'POST', '/faults', { method: '*', status: 500 });
    await control(emulator, 'POST', '/faults', {
      method: 'compute.forwardingRules.insert',
      status: 503,
    });
    expect((await control(emulator, 'GET', '/faults')).json.faults).toHaveLength(2);
    expect(await control(emulator, 'DELETE', '/faults')).toEqual({
      status: 200,
      json: { faults: [] },
    });
    expect((await control(emulator, 'GET', '/faults')).json).toEqual({ faults: [] });
    expect((await insert(emulator, 'fr-1')).status).toBe(200);
  });

  it.each<[string, unknown]>([
    ['no method', { status: 503 }],
    ['an empty method', { method: '', status: 503 }],
    ['status 200', { method: '*', status: 200 }],
    ['status 600', { method: '*', status: 600 }],
    ['status as text', { method: '*', status: '503' }],
    ['count 0', { method: '*', status: 503, count: 0 }],
    ['count 1.5', { method: '*', status: 503, count: 1.5 }],
    ['probability 2', { method: '*', status: 503, probability: 2 }],
    ['probability -0.1', { method: '*', status: 503, probability: -0.1 }],
    ['a numeric reason', { method: '*', status: 503, reason: 5 }],
    ['a numeric message', { method: '*', status: 503, message: 5 }],
    ['null', 'null'],
    ['no body', undefined],
  ])('POST a fault with %s is 400 and adds nothing', async (_, body) => {
    const emulator = await createEmulator();
    const res = await control(emulator, 'POST', '/faults', body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe(400);
    expect((await control(emulator, 'GET', '/faults')).json).toEqual({ faults: [] });
  });
});

describe('the request log', () => {
  it('records method, path, query, status, apiMethod and principal', async () => {
    const emulator = await createEmulator({ auth: { mode: 'open', identity: 'me@example.com' } });
    await insert(emulator, 'fr-1');
    await api(emulator, 'GET', '/forwardingRules?maxResults=5');
    await api(emulator, 'GET', '/forwardingRules/nope');
    await emulator.fetch(new Request(`${ORIGIN}${REGION}/forwardingRules`)); // no token
    await control(emulator, 'GET', '/health');
    const res = await control(emulator, 'GET', '/requests');
    expect(res.status).toBe(200);
    const records = res.json.requests as RequestRecord[];
    expect(records).toHaveLength(5); // the GET /requests itself is logged after it answers
    expect(records[0]).toMatchObject({
      method: 'POST',
      path: `${REGION}/forwardingRules`,
      query: '',
      status: 200,
      apiMethod: 'compute.forwardingRules.insert',
      principal: 'me@example.com',
    });
    expect(records[1]).toMatchObject({
      method: 'GET',
      query: '?maxResults=5',
      status: 200,
      apiMethod: 'compute.forwardingRules.list',
    });
    expect(records[2]).toMatchObject({
      path: `${REGION}/forwardingRules/nope`,
      status: 404,
      apiMethod: 'compute.forwardingRules.get',
      principal: 'me@example.com',
    });
    expect(records[3]).toMatchObject({ status: 401, apiMethod: 'compute.forwardingRules.list' });
    expect(records[3]).not.toHaveProperty('principal');
    expect(records[4]).toMatchObject({ method: 'GET', path: '/_listkit/health', status: 200 });
    expect(records[4]).not.toHaveProperty('apiMethod');
    for (const record of records) {
      expect(Number.isNaN(Date.parse(record.time))).toBe(false);
      expect(record.durationMs).toBeGreaterThanOrEqual(0);
    }
    // Now the GET /requests shows up.
    const again = (await control(emulator, 'GET', '/requests')).json.requests as RequestRecord[];
    expect(again.at(-1)).toMatchObject({ method: 'GET', path: '/_listkit/requests' });
  });

  it('DELETE clears the log', async () => {
    const emulator = await createEmulator();
    await insert(emulator, 'fr-1');
    expect(await control(emulator, 'DELETE', '/requests')).toEqual({
      status: 200,
      json: { requests: [] },
    });
    const after = (await control(emulator, 'GET', '/requests')).json.requests as RequestRecord[];
    expect(after.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /_listkit/requests']);
  });

  it('keeps the most recent requestLogSize requests, oldest dropped first', async () => {
    const emulator = await createEmulator({ requestLogSize: 3 });
    for (let i = 0; i < 6; i++) await api(emulator, 'GET', `/forwardingRules?maxResults=${i + 1}`);
    const records = (await control(emulator, 'GET', '/requests')).json.requests as RequestRecord[];
    expect(records.map((r) => r.query)).toEqual([
      '?maxResults=4',
      '?maxResults=5',
      '?maxResults=6',
    ]);
  });

  it('the log option receives one record per request, the same as the ring buffer', async () => {
    const seen: RequestRecord[] = [];
    const options: EmulatorOptions = { log: (record) => seen.push(record) };
    const emulator = await createEmulator(options);
    await insert(emulator, 'fr-1');
    await api(emulator, 'GET', '/forwardingRules');
    await api(emulator, 'GET', '/nope');
    await control(emulator, 'GET', '/health');
    expect(seen).toHaveLength(4);
    expect(seen.map((r) => r.status)).toEqual([200, 200, 404, 200]);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      apiMethod: 'compute.forwardingRules.insert',
      principal: 'user@example.com',
    });
    const ring = (await control(emulator, 'GET', '/requests')).json.requests;
    // The GET /requests answers the four earlier records, and is itself logged once it answered.
    expect(ring).toEqual(seen.slice(0, 4));
    expect(seen).toHaveLength(5);
    expect(seen[4]).toMatchObject({ method: 'GET', path: '/_listkit/requests', status: 200 });
  });

  // Regression (emulator.ts logging middleware): RequestRecord documents `reason` ("the error reason of
  // a failed request"), but the middleware never sets it, so no record ever carries one.
  it('a failed request is recorded with its error reason', async () => {
    const emulator = await createEmulator();
    await api(emulator, 'GET', '/forwardingRules/nope');
    const records = (await control(emulator, 'GET', '/requests')).json.requests as RequestRecord[];
    expect(records[0]).toMatchObject({ status: 404, reason: 'notFound' });
  });
});
