import { describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/http-call.js';
import { EmulatorClock } from '../core/clock.js';
import { createEmulator, type EmulatorOptions } from '../emulator.js';
import type { EmulatorState } from '../emulator-state.js';
import { SWEEP_EVERY_WRITES } from './operations.js';

// Regional operations: their shape, the completion policies, wait, retention, delete and list,
// through the public HTTP interface.

const ORIGIN = 'http://emulator';
const BASE = 'https://www.googleapis.com/compute/v1/';
const REGION = '/compute/v1/projects/p/regions/r';

type Emu = Awaited<ReturnType<typeof createEmulator>>;
type Op = {
  kind: string;
  id: string;
  name: string;
  operationType: string;
  targetLink: string;
  targetId: string;
  status: string;
  progress: number;
  user: string;
  insertTime: string;
  startTime: string;
  endTime?: string;
  region: string;
  selfLink: string;
  error?: { code: number; message: string; errors: Record<string, unknown>[] };
};
type OpList = { kind: string; id: string; selfLink: string; items?: Op[]; nextPageToken?: string };

const rule = (name: string, port = 80) => ({
  name,
  IPProtocol: 'TCP',
  portRange: String(port),
  loadBalancingScheme: 'EXTERNAL',
  target: 'projects/p/regions/r/targetPools/pool',
});

async function insert(emulator: Emu, name: string, query = ''): Promise<Op> {
  const res = await call<Op>(emulator, 'POST', `${REGION}/forwardingRules${query}`, {
    body: rule(name),
  });
  expect(res.status).toBe(200);
  return res.json;
}
const getOp = (emulator: Emu, name: string) =>
  call<Op>(emulator, 'GET', `${REGION}/operations/${name}`);
const waitOp = (emulator: Emu, name: string, body?: string) =>
  call<Op>(emulator, 'POST', `${REGION}/operations/${name}/wait`, { body });
const listOps = (emulator: Emu, query = '') =>
  call<OpList>(emulator, 'GET', `${REGION}/operations${query}`);

/**
 * How many steps every Map and Set iteration takes while `work` runs (for-of, spread, values(),
 * keys(), entries()): a count of work done, which does not depend on how busy the machine is.
 */
async function countIterationSteps(work: () => Promise<void>): Promise<number> {
  let steps = 0;
  const prototypes = [new Map().values(), new Set().values()].map((it) =>
    Object.getPrototypeOf(it),
  );
  const originals = prototypes.map((prototype) => prototype.next);
  prototypes.forEach((prototype, i) => {
    prototype.next = function (this: unknown) {
      steps++;
      return originals[i].call(this);
    };
  });
  try {
    await work();
    return steps;
  } finally {
    prototypes.forEach((prototype, i) => {
      prototype.next = originals[i];
    });
  }
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

describe('the operation an insert answers', () => {
  it.each<[string, EmulatorOptions['operationPolicy']]>([
    ['immediate', { mode: 'immediate' }],
    ['polls', { mode: 'polls', polls: 3 }],
    ['duration', { mode: 'duration', ms: 60_000 }],
  ])('is RUNNING with progress 0 and every field (policy %s)', async (_, operationPolicy) => {
    const emulator = await createEmulator({ operationPolicy });
    const op = await insert(emulator, 'fr-1');
    expect(op).toMatchObject({
      kind: 'compute#operation',
      operationType: 'insert',
      status: 'RUNNING',
      progress: 0,
      user: 'user@example.com',
      region: `${BASE}projects/p/regions/r`,
      targetLink: `${BASE}projects/p/regions/r/forwardingRules/fr-1`,
    });
    expect(op.id).toMatch(/^\d+$/);
    expect(op.name).toMatch(/^operation-\d+-[0-9a-f]+-[0-9a-f]+-[0-9a-f]+$/);
    expect(op.selfLink).toBe(`${BASE}projects/p/regions/r/operations/${op.name}`);
    expect(op.insertTime).toMatch(RFC3339);
    expect(op.startTime).toMatch(RFC3339);
    expect(op).not.toHaveProperty('endTime');
    // Deprecated, and absent from every recorded real Operation answer.
    expect(op).not.toHaveProperty('creationTimestamp');
    expect(op).not.toHaveProperty('error');
    // targetId is the created rule's id.
    const created = await call<{ id: string; selfLink: string }>(
      emulator,
      'GET',
      `${REGION}/forwardingRules/fr-1`,
    );
    expect(created.status).toBe(200);
    expect(op.targetId).toBe(created.json.id);
    expect(op.targetLink).toBe(created.json.selfLink);
  });

  it('gives every operation its own name and id', async () => {
    const emulator = await createEmulator();
    const ops = [
      await insert(emulator, 'a'),
      await insert(emulator, 'b'),
      await insert(emulator, 'c'),
    ];
    expect(new Set(ops.map((o) => o.name)).size).toBe(3);
    expect(new Set(ops.map((o) => o.id)).size).toBe(3);
  });
});

describe('completion policies', () => {
  it('immediate: the first GET is DONE with progress 100 and endTime', async () => {
    const emulator = await createEmulator();
    const op = await insert(emulator, 'fr-1');
    const read = await getOp(emulator, op.name);
    expect(read.status).toBe(200);
    expect(read.json).toMatchObject({ name: op.name, status: 'DONE', progress: 100 });
    expect(read.json.endTime).toMatch(RFC3339);
    expect(Date.parse(read.json.endTime!)).toBeGreaterThanOrEqual(Date.parse(op.startTime));
    // Stays DONE.
    expect((await getOp(emulator, op.name)).json.status).toBe('DONE');
  });

  it('immediate: the first wait is DONE too', async () => {
    const emulator = await createEmulator();
    const op = await insert(emulator, 'fr-1');
    const waited = await waitOp(emulator, op.name);
    expect(waited.json).toMatchObject({ status: 'DONE', progress: 100 });
  });

  it.each<[string, ('get' | 'wait')[]]>([
    ['GET only', ['get', 'get', 'get', 'get']],
    ['wait only', ['wait', 'wait', 'wait', 'wait']],
    ['GET and wait mixed', ['get', 'wait', 'get', 'wait']],
    ['wait then GETs', ['wait', 'get', 'get', 'get']],
  ])('polls: 3 — progress never decreases and the 3rd read is DONE (%s)', async (_, reads) => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'polls', polls: 3 } });
    const op = await insert(emulator, 'fr-1');
    let last = op.progress;
    const seen: string[] = [];
    for (const kind of reads) {
      const res = kind === 'get' ? await getOp(emulator, op.name) : await waitOp(emulator, op.name);
      expect(res.status).toBe(200);
      expect(res.json.progress).toBeGreaterThanOrEqual(last);
      expect(res.json.progress).toBeLessThanOrEqual(100);
      last = res.json.progress;
      seen.push(res.json.status);
      if (res.json.status === 'RUNNING') {
        expect(res.json.progress).toBeLessThan(100);
        expect(res.json).not.toHaveProperty('endTime');
      } else {
        expect(res.json.progress).toBe(100);
        expect(res.json.endTime).toMatch(RFC3339);
      }
    }
    expect(seen).toEqual(['RUNNING', 'RUNNING', 'DONE', 'DONE']);
  });

  it('polls: a list does not count as a read', async () => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'polls', polls: 2 } });
    const op = await insert(emulator, 'fr-1');
    for (let i = 0; i < 3; i++) {
      const list = await listOps(emulator);
      expect(list.json.items![0]!.status).toBe('RUNNING');
    }
    expect((await getOp(emulator, op.name)).json.status).toBe('RUNNING');
    expect((await getOp(emulator, op.name)).json.status).toBe('DONE');
  });

  it('polls: a HEAD does not count as a read', async () => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'polls', polls: 2 } });
    const op = await insert(emulator, 'fr-1');
    for (let i = 0; i < 3; i++) {
      const head = await emulator.fetch(
        new Request(`${ORIGIN}${REGION}/operations/${op.name}`, {
          method: 'HEAD',
          headers: { authorization: 'Bearer tok' },
        }),
      );
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    }
    expect((await getOp(emulator, op.name)).json.status).toBe('RUNNING');
    expect((await getOp(emulator, op.name)).json.status).toBe('DONE');
  });

  it('duration: RUNNING until the emulator clock has advanced by ms, then DONE', async () => {
    const clock = new EmulatorClock();
    clock.freeze(true);
    const emulator = await createEmulator({
      clock,
      operationPolicy: { mode: 'duration', ms: 60_000 },
    });
    expect(emulator.clock).toBe(clock);
    const op = await insert(emulator, 'fr-1');
    let last = 0;
    for (const step of [0, 15_000, 15_000, 29_000]) {
      emulator.clock.advance(step);
      const read = await getOp(emulator, op.name);
      expect(read.json.status).toBe('RUNNING');
      expect(read.json.progress).toBeGreaterThanOrEqual(last);
      expect(read.json.progress).toBeLessThan(100);
      last = read.json.progress;
    }
    expect(last).toBeGreaterThan(90); // 59 s of 60 s
    emulator.clock.advance(1_000);
    const done = await getOp(emulator, op.name);
    expect(done.json).toMatchObject({ status: 'DONE', progress: 100 });
    expect(Date.parse(done.json.endTime!) - Date.parse(done.json.startTime)).toBe(60_000);
  });

  it('duration: progress never decreases when the clock is moved back', async () => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'duration', ms: 60_000 } });
    const op = await insert(emulator, 'fr-1');
    emulator.clock.advance(30_000);
    const half = (await getOp(emulator, op.name)).json.progress;
    expect(half).toBeGreaterThanOrEqual(50);
    emulator.clock.advance(-20_000);
    const after = await getOp(emulator, op.name);
    expect(after.json.status).toBe('RUNNING');
    expect(after.json.progress).toBeGreaterThanOrEqual(half);
  });

  it('duration 0 behaves as done at the first read', async () => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'duration', ms: 0 } });
    const op = await insert(emulator, 'fr-1');
    expect((await getOp(emulator, op.name)).json.status).toBe('DONE');
  });

  it('a policy changed through the control plane applies to later operations only', async () => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'duration', ms: 60_000 } });
    const before = await insert(emulator, 'fr-1');
    const put = await emulator.fetch(
      new Request(`${ORIGIN}/_listkit/operations/policy`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'immediate' }),
      }),
    );
    expect(put.status).toBe(200);
    const after = await insert(emulator, 'fr-2');
    expect((await getOp(emulator, before.name)).json.status).toBe('RUNNING');
    expect((await getOp(emulator, after.name)).json.status).toBe('DONE');
  });

  // Regression (operations.ts complete): with the `duration` policy, endTime (and the retention start)
  // is the emulator time of the read that noticed completion, not startTime + ms. An operation
  // of 60 s that is read one hour later reports endTime = startTime + 1 h.
  it('duration: endTime is when the duration elapsed, not when it was read', async () => {
    const clock = new EmulatorClock();
    clock.freeze(true);
    const emulator = await createEmulator({
      clock,
      operationPolicy: { mode: 'duration', ms: 60_000 },
    });
    const op = await insert(emulator, 'fr-1');
    emulator.clock.advance(3_600_000);
    const done = await getOp(emulator, op.name);
    expect(done.json.status).toBe('DONE');
    expect(Date.parse(done.json.endTime!) - Date.parse(done.json.startTime)).toBe(60_000);
  });
});

describe('wait', () => {
  it('returns within the wait timeout while the operation is not done', async () => {
    const emulator = await createEmulator({
      waitTimeoutMs: 50,
      operationPolicy: { mode: 'duration', ms: 60_000 },
    });
    const op = await insert(emulator, 'fr-1');
    // Nothing advances the clock: without its timeout this wait would run for the operation's
    // whole minute, past the test's own timeout.
    const waited = await waitOp(emulator, op.name);
    expect(waited.status).toBe(200);
    expect(waited.json.status).toBe('RUNNING');
  });

  it('returns DONE as soon as the clock is advanced during the wait', async () => {
    // A wait that never gives up on its own: one that did not notice the clock would outlast
    // the test's timeout instead of answering DONE.
    const emulator = await createEmulator({
      waitTimeoutMs: 3_600_000,
      operationPolicy: { mode: 'duration', ms: 60_000 },
    });
    const op = await insert(emulator, 'fr-1');
    const pending = waitOp(emulator, op.name);
    setTimeout(() => emulator.clock.advance(60_000), 20);
    const waited = await pending;
    expect(waited.json).toMatchObject({ status: 'DONE', progress: 100 });
  });

  it.each([
    ['no body', undefined],
    ['an empty body', ''],
    ['the two bytes ""', '""'],
    ['an empty object', '{}'],
  ])('accepts %s', async (_, body) => {
    const emulator = await createEmulator();
    const op = await insert(emulator, 'fr-1');
    const waited = await waitOp(emulator, op.name, body);
    expect(waited.status).toBe(200);
    expect(waited.json.status).toBe('DONE');
  });

  it('404 for an unknown operation', async () => {
    const emulator = await createEmulator();
    const waited = await waitOp(emulator, 'operation-0-nope');
    expect(waited.status).toBe(404);
  });
});

describe('retention, delete and not found', () => {
  it('drops completed operations after operationRetentionMs on the emulator clock', async () => {
    const emulator = await createEmulator({ operationRetentionMs: 10_000 });
    emulator.clock.freeze(true);
    const op = await insert(emulator, 'fr-1');
    expect((await getOp(emulator, op.name)).json.status).toBe('DONE'); // completes now
    emulator.clock.advance(10_000);
    expect((await getOp(emulator, op.name)).status).toBe(200); // exactly at the horizon: kept
    expect((await listOps(emulator)).json.items).toHaveLength(1);
    emulator.clock.advance(1);
    const gone = await getOp(emulator, op.name);
    expect(gone.status).toBe(404);
    expect((await listOps(emulator)).json).not.toHaveProperty('items');
    // The rule itself stays.
    expect((await call(emulator, 'GET', `${REGION}/forwardingRules/fr-1`)).status).toBe(200);
  });

  it('completes an operation nobody polls after operationMaxRunningMs, then sweeps it', async () => {
    const emulator = await createEmulator({
      operationRetentionMs: 60_000,
      operationMaxRunningMs: 600_000,
      operationPolicy: { mode: 'polls', polls: 5 },
    });
    emulator.clock.freeze(true);
    const started = emulator.clock.now();
    const op = await insert(emulator, 'fr-1');
    emulator.clock.advance(599_999);
    expect((await getOp(emulator, op.name)).json.status).toBe('RUNNING');
    emulator.clock.advance(1);
    // Never read again: a list sweeps it to DONE, at the time it completed.
    const listed = (await listOps(emulator)).json.items![0]!;
    expect(listed.status).toBe('DONE');
    expect(listed.endTime).toBe(new Date(started + 600_000).toISOString());
    emulator.clock.advance(60_001);
    await insert(emulator, 'fr-2'); // any operation call sweeps
    expect((await getOp(emulator, op.name)).status).toBe(404);
  });

  it('the default: an unpolled operation is DONE 10 minutes after it started', async () => {
    const emulator = await createEmulator({ operationPolicy: { mode: 'polls', polls: 1_000 } });
    const op = await insert(emulator, 'fr-1');
    emulator.clock.advance(10 * 60_000);
    expect((await getOp(emulator, op.name)).json.status).toBe('DONE');
  });

  it('keeps at most operationRetentionCount completed operations, the oldest dropped first', async () => {
    const emulator = await createEmulator({
      operationRetentionCount: 3,
      operationPolicy: { mode: 'duration', ms: 0 },
    });
    const ops = [];
    for (let i = 0; i < 5; i++) ops.push(await insert(emulator, `fr-${i}`));
    const listed = (await listOps(emulator)).json.items!.map((o) => o.name);
    expect(listed.sort()).toEqual(
      ops
        .slice(2)
        .map((o) => o.name)
        .sort(),
    );
    expect((await getOp(emulator, ops[0]!.name)).status).toBe(404);
    expect((await getOp(emulator, ops[4]!.name)).status).toBe(200);
    expect(await emulator.state.operations.all()).toHaveLength(3);
  });

  it('running operations count too: past the count, the oldest running complete and go', async () => {
    const emulator = await createEmulator({
      operationRetentionCount: 3,
      operationPolicy: { mode: 'polls', polls: 100 },
    });
    const ops = [];
    for (let i = 0; i < 5; i++) ops.push(await insert(emulator, `fr-${i}`));
    expect((await emulator.state.operations.all()).map((o) => o.name)).toEqual(
      ops.slice(2).map((o) => o.name),
    );
    expect((await getOp(emulator, ops[0]!.name)).status).toBe(404);
    expect((await getOp(emulator, ops[4]!.name)).json.status).toBe('RUNNING');
  });

  it('expiry costs what expires: a read among 50,000 kept operations stays fast', async () => {
    // Before, every operation read scanned every operation (10 ms per GET at 58,000).
    const emulator = await createEmulator({ operationRetentionCount: 100_000 });
    // The store itself, behind the public controls: this measures its expiry, not HTTP.
    const operations = (emulator.state as EmulatorState).operations;
    let last = '';
    for (let i = 0; i < 50_000; i++) {
      last = (
        await operations.start({
          project: 'p',
          region: 'r',
          operationType: 'insert',
          targetLink: 'x',
          targetId: '1',
          user: 'u@example.com',
          policy: { mode: 'duration', ms: 0 },
        })
      ).name;
    }
    // The work of 500 reads, counted as steps of every Map and Set iteration they make: a read
    // that scanned the kept operations would take 50,000 steps.
    const steps = await countIterationSteps(async () => {
      for (let i = 0; i < 500; i++) await operations.get({ project: 'p', region: 'r' }, last);
    });
    expect(steps / 500).toBeLessThan(100);
  });

  it('DELETE removes an operation: {} then 404', async () => {
    const emulator = await createEmulator();
    const op = await insert(emulator, 'fr-1');
    const deleted = await call<Record<string, unknown>>(
      emulator,
      'DELETE',
      `${REGION}/operations/${op.name}`,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({});
    expect((await getOp(emulator, op.name)).status).toBe(404);
    expect((await listOps(emulator)).json).not.toHaveProperty('items');
    expect((await call(emulator, 'DELETE', `${REGION}/operations/${op.name}`)).status).toBe(404);
  });

  it('404 in the envelope for an unknown operation, or one of another region', async () => {
    const emulator = await createEmulator();
    const op = await insert(emulator, 'fr-1');
    for (const path of [
      `${REGION}/operations/operation-123-abc`,
      `/compute/v1/projects/p/regions/other/operations/${op.name}`,
      `/compute/v1/projects/q/regions/r/operations/${op.name}`,
    ]) {
      const res = await call(emulator, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.json.error).toMatchObject({ code: 404 });
      expect(res.json.error!.errors[0]).toMatchObject({ reason: 'notFound', domain: 'global' });
      expect(res.json.error).not.toHaveProperty('status');
    }
    const res = await call(emulator, 'GET', `${REGION}/operations/operation-123-abc`);
    expect(res.json.error!.message).toBe(
      "The resource 'projects/p/regions/r/operations/operation-123-abc' was not found",
    );
  });
});

describe('deleting a rule', () => {
  it("answers a 'delete' operation and the rule is gone", async () => {
    const emulator = await createEmulator();
    const created = await insert(emulator, 'fr-1');
    const del = await call(emulator, 'DELETE', `${REGION}/forwardingRules/fr-1`);
    expect(del.status).toBe(200);
    expect(del.json).toMatchObject({
      kind: 'compute#operation',
      operationType: 'delete',
      status: 'RUNNING',
      progress: 0,
      targetLink: `${BASE}projects/p/regions/r/forwardingRules/fr-1`,
      targetId: created.targetId,
      region: `${BASE}projects/p/regions/r`,
    });
    expect(del.json.name).not.toBe(created.name);
    const gone = await call(emulator, 'GET', `${REGION}/forwardingRules/fr-1`);
    expect(gone.status).toBe(404);
    expect(gone.json.error!.message).toBe(
      "The resource 'projects/p/regions/r/forwardingRules/fr-1' was not found",
    );
    expect((await getOp(emulator, del.json.name)).json.status).toBe('DONE');
    // The name can be used again.
    await insert(emulator, 'fr-1');
  });

  it('404 for a rule that does not exist, and no operation', async () => {
    const emulator = await createEmulator();
    const del = await call(emulator, 'DELETE', `${REGION}/forwardingRules/nope`);
    expect(del.status).toBe(404);
    expect((await listOps(emulator)).json).not.toHaveProperty('items');
  });
});

describe('requestId', () => {
  it('a retry with the same requestId answers the original operation and creates nothing', async () => {
    const emulator = await createEmulator();
    const id = '123e4567-e89b-12d3-a456-426614174000';
    const first = await insert(emulator, 'fr-1', `?requestId=${id}`);
    const retry = await insert(emulator, 'fr-1', `?requestId=${id.toUpperCase()}`);
    expect(retry.name).toBe(first.name);
    expect((await listOps(emulator)).json.items).toHaveLength(1);
  });
});

describe('retention seen by clients, though writes sweep only every so many (issue 26)', () => {
  it('a retry past the retention time starts anew: its requestId no longer deduplicates', async () => {
    const emulator = await createEmulator({
      operationRetentionMs: 10_000,
      operationPolicy: { mode: 'duration', ms: 0 },
    });
    emulator.clock.freeze(true);
    const id = '123e4567-e89b-12d3-a456-426614174001';
    const first = await insert(emulator, 'fr-1', `?requestId=${id}`);
    emulator.clock.advance(10_001);
    // No read in between: the retry itself must not find the operation retention dropped.
    const retry = await insert(emulator, 'fr-2', `?requestId=${id}`);
    expect(retry.name).not.toBe(first.name);
    expect(retry.targetLink).toMatch(/fr-2$/);
    // A delete's retry past retention does not answer the first delete: the rule is gone.
    const deleteId = '123e4567-e89b-12d3-a456-426614174003';
    const deleteFr1 = () =>
      call<Op>(emulator, 'DELETE', `${REGION}/forwardingRules/fr-1?requestId=${deleteId}`);
    expect((await deleteFr1()).status).toBe(200);
    expect((await deleteFr1()).status).toBe(200); // a retry within retention: the original
    emulator.clock.advance(10_001);
    expect((await deleteFr1()).status).toBe(404);
  });

  it('a retry past the retention count starts anew, and get and list see the count', async () => {
    const emulator = await createEmulator({
      operationRetentionCount: 3,
      operationPolicy: { mode: 'duration', ms: 0 },
    });
    const id = '123e4567-e89b-12d3-a456-426614174002';
    const first = await insert(emulator, 'fr-0', `?requestId=${id}`);
    const later = [];
    for (let i = 1; i <= 3; i++) later.push(await insert(emulator, `fr-${i}`));
    // Fewer writes than a write's sweep waits for: the reads drop what retention drops.
    expect((await getOp(emulator, first.name)).status).toBe(404);
    expect((await listOps(emulator)).json.items!.map((o) => o.name).sort()).toEqual(
      later.map((o) => o.name).sort(),
    );
    const retry = await insert(emulator, 'fr-9', `?requestId=${id}`);
    expect(retry.name).not.toBe(first.name);
    expect((await call(emulator, 'GET', `${REGION}/forwardingRules/fr-9`)).status).toBe(200);
  });

  it('writes alone sweep too, every SWEEP_EVERY_WRITES: the store stays bounded', async () => {
    const emulator = await createEmulator({
      operationRetentionCount: 2,
      operationPolicy: { mode: 'duration', ms: 0 },
    });
    const state = emulator.state as EmulatorState;
    const start = () =>
      state.operations.start({
        project: 'p',
        region: 'r',
        operationType: 'insert',
        targetLink: 'x',
        targetId: '1',
        user: 'u@example.com',
      });
    for (let i = 1; i < SWEEP_EVERY_WRITES; i++) await start();
    // The store itself, not through a read (which sweeps first).
    expect(await state.store.operations.all()).toHaveLength(SWEEP_EVERY_WRITES - 1);
    await start();
    expect(await state.store.operations.all()).toHaveLength(2);
  });
});

describe('listing operations', () => {
  async function populated() {
    const emulator = await createEmulator({ operationPolicy: { mode: 'polls', polls: 1 } });
    emulator.clock.freeze(true);
    const ops: Op[] = [];
    for (const name of ['c', 'a', 'b']) {
      emulator.clock.advance(1_000);
      ops.push(await insert(emulator, name));
    }
    emulator.clock.advance(1_000);
    const del = await call(emulator, 'DELETE', `${REGION}/forwardingRules/a`);
    ops.push(del.json);
    // Complete the first two inserts only.
    await getOp(emulator, ops[0]!.name);
    await getOp(emulator, ops[1]!.name);
    return { emulator, ops };
  }

  it('answers the list shape with every operation', async () => {
    const { emulator, ops } = await populated();
    const list = await listOps(emulator);
    expect(list.status).toBe(200);
    expect(list.json.kind).toBe('compute#operationList');
    expect(list.json.id).toBe('projects/p/regions/r/operations');
    expect(list.json.selfLink).toBe(`${BASE}projects/p/regions/r/operations`);
    expect(list.json).not.toHaveProperty('nextPageToken');
    expect(list.json.items!.map((o) => o.name).sort()).toEqual(ops.map((o) => o.name).sort());
  });

  it.each<[string, string, (ops: Op[]) => string[]]>([
    ['operationType = insert', '', (ops) => ops.slice(0, 3).map((o) => o.name)],
    ['operationType = delete', '', (ops) => [ops[3]!.name]],
    ['status = DONE', '', (ops) => [ops[0]!.name, ops[1]!.name]],
    ['status = RUNNING', '', (ops) => [ops[2]!.name, ops[3]!.name]],
    ['operationType = insert AND status = RUNNING', '', (ops) => [ops[2]!.name]],
    ['', 'creationTimestamp desc', (ops) => ops.map((o) => o.name).reverse()],
    [
      'operationType = insert',
      'creationTimestamp desc',
      (ops) =>
        ops
          .slice(0, 3)
          .map((o) => o.name)
          .reverse(),
    ],
  ])('filter %j orderBy %j', async (filter, orderBy, expected) => {
    const { emulator, ops } = await populated();
    const query = new URLSearchParams();
    if (filter) query.set('filter', filter);
    if (orderBy) query.set('orderBy', orderBy);
    const list = await listOps(emulator, `?${query}`);
    expect(list.status).toBe(200);
    const names = (list.json.items ?? []).map((o) => o.name);
    if (orderBy) expect(names).toEqual(expected(ops));
    else expect([...names].sort()).toEqual([...expected(ops)].sort());
  });

  it('pages with maxResults, keeping the order, with no token on the last page', async () => {
    const { emulator, ops } = await populated();
    const names: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const query = new URLSearchParams({ orderBy: 'creationTimestamp desc', maxResults: '3' });
      if (pageToken) query.set('pageToken', pageToken);
      const page = await listOps(emulator, `?${query}`);
      expect(page.status).toBe(200);
      expect(page.json.items!.length).toBeLessThanOrEqual(3);
      names.push(...page.json.items!.map((o) => o.name));
      pageToken = page.json.nextPageToken;
      pages++;
    } while (pageToken && pages < 10);
    expect(pages).toBe(2);
    expect(names).toEqual(ops.map((o) => o.name).reverse());
  });

  it('rejects a bad filter, orderBy and pageToken with 400 naming the field', async () => {
    const { emulator } = await populated();
    for (const [query, location] of [
      ['?filter=status%20%3D%20NOPE', 'filter'],
      ['?filter=(((', 'filter'],
      ['?orderBy=progress', 'orderBy'],
      ['?pageToken=garbage', 'pageToken'],
    ] as const) {
      const res = await listOps(emulator, query);
      expect(res.status).toBe(400);
      const error = (res.json as unknown as { error: Op['error'] }).error!;
      expect(error.message).toContain(`Invalid value for field '${location}'`);
      expect(error.errors[0]).toMatchObject({ reason: 'invalid', location });
    }
  });

  it('lists only the operations of its project and region', async () => {
    const { emulator } = await populated();
    for (const path of [
      '/compute/v1/projects/q/regions/r/operations',
      '/compute/v1/projects/p/regions/other/operations',
    ]) {
      const res = await call<OpList>(emulator, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.json).not.toHaveProperty('items');
    }
  });
});
