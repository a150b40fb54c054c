// The stores through the real `listkit serve` process, over HTTP: two emulators sharing one
// PostgreSQL database (one requestId, one name, one page token across both), and kill -9 of an
// emulator on a --data-dir in the middle of a write burst, restarted on the same directory.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServiceModule } from '../support/bundle-service.js';
import { freshPostgresDatabase } from '../support/fresh-postgres.js';
import { call } from '../support/http-call.js';
import { type ServeProcess, servingProcesses, startServe } from '../support/serve-process.js';
import { postgresSkipReason } from '../support/sql-databases.js';

const work = mkdtempSync(join(tmpdir(), 'listkit-serve-'));
const SECRETS = `stores-over-http-${randomBytes(12).toString('hex')}`;
const REGION = '/compute/v1/projects/p/regions/us-east1';
let cli: { file: string; dispose: () => void } | undefined;
// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read loosely in assertions
type Json = any;

beforeAll(async () => {
  // The CLI from its TypeScript sources, bundled.
  cli = await bundleServiceModule('packages/service/src/cli.ts');
}, 60_000);

afterAll(() => {
  for (const child of servingProcesses) child.kill('SIGKILL');
  cli?.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** Starts `listkit serve` with these flags, empty and with this file's page-token secret. */
function serve(flags: string[]): Promise<ServeProcess> {
  return startServe(cli?.file ?? '', ['--no-sample-data', ...flags], {
    LISTKIT_PAGE_TOKEN_SECRETS: SECRETS,
    LISTKIT_DATABASE_URL: '',
  });
}

const rule = (name: string, port: number) => ({
  name,
  IPProtocol: 'TCP',
  portRange: String(port),
  loadBalancingScheme: 'EXTERNAL',
  target: 'projects/p/regions/us-east1/targetPools/pool',
});

const pgSkip = postgresSkipReason();
describe.skipIf(pgSkip !== undefined)(
  `two emulator processes on one PostgreSQL${pgSkip ? ` (skipped: ${pgSkip})` : ''}`,
  () => {
    let a = '';
    let b = '';
    let dropDatabase = async (): Promise<void> => undefined;

    beforeAll(async () => {
      const database = await freshPostgresDatabase('listkit_http');
      dropDatabase = database.drop;
      // Both start at once on a new database: the migrations are applied once.
      [{ url: a }, { url: b }] = await Promise.all([
        serve(['--database', database.url]),
        serve(['--database', database.url]),
      ]);
    }, 120_000);
    afterAll(async () => {
      for (const child of servingProcesses) child.kill('SIGTERM');
      await dropDatabase();
    });

    it('one requestId sent to both creates one rule and one operation', async () => {
      const requestId = crypto.randomUUID();
      const answers = await Promise.all(
        [a, b, a, b].map((url) =>
          call(url, 'POST', `${REGION}/forwardingRules?requestId=${requestId}`, {
            body: rule('once', 81),
          }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((r) => r.json.name)).size).toBe(1);
      for (const url of [a, b]) {
        const rules = await call(url, 'GET', `${REGION}/forwardingRules?filter=name%3Donce`);
        expect(rules.json.items).toHaveLength(1);
        const ops = await call(url, 'GET', `${REGION}/operations`);
        const forOnce = ops.json.items.filter((o: { targetLink: string }) =>
          o.targetLink.endsWith('/forwardingRules/once'),
        );
        expect(forOnce.map((o: { name: string }) => o.name)).toEqual([answers[0]!.json.name]);
      }
    });

    it('50 inserts of one name across both: 1 success and 49 conflicts', async () => {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(i % 2 ? a : b, 'POST', `${REGION}/forwardingRules`, {
            body: rule('raced', 1000 + i),
          }),
        ),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(49);
      const conflict = answers.find((r) => r.status === 409)!;
      expect(conflict.json.error.errors[0].reason).toBe('alreadyExists');
    });

    it('a page token from one continues the listing on the other', async () => {
      for (let i = 0; i < 5; i++) {
        expect(
          (
            await call(a, 'POST', `${REGION}/forwardingRules`, {
              body: rule(`page-${i}`, 2000 + i),
            })
          ).status,
        ).toBe(200);
      }
      const names = (page: Json) => page.json.items.map((r: { name: string }) => r.name);
      const all = names(await call(b, 'GET', `${REGION}/forwardingRules?orderBy=name`));
      const first = await call(a, 'GET', `${REGION}/forwardingRules?maxResults=2&orderBy=name`);
      expect(names(first)).toEqual(all.slice(0, 2));
      const second = await call(
        b,
        'GET',
        `${REGION}/forwardingRules?maxResults=2&orderBy=name&pageToken=${encodeURIComponent(first.json.nextPageToken)}`,
      );
      expect(second.status).toBe(200);
      expect(names(second)).toEqual(all.slice(2, 4));
    });
  },
);

describe('kill -9 of listkit serve --data-dir during a write burst', () => {
  it('a second process on the same directory exits naming the holder', async () => {
    const dir = join(work, 'locked');
    const first = await serve(['--data-dir', dir]);
    const refused = await serve(['--data-dir', dir]).catch(
      (error: Error & { code: number }) => error,
    );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error & { code: number }).code).toBe(1);
    expect((refused as Error).message).toContain(`is in use by process ${first.child.pid}`);
    first.child.kill('SIGTERM');
  }, 120_000);

  it('keeps every acknowledged rule, label change, operation and refund, and nothing half', async () => {
    const dir = join(work, 'burst');
    const { url, child } = await serve(['--data-dir', dir]);
    const orders = Array.from({ length: 200 }, (_, i) => ({
      packageName: 'com.example.app',
      orderId: `GPA.${i}`,
      kind: 'oneTimeProduct',
      purchaseTime: new Date().toISOString(),
    }));
    expect((await call(url, 'POST', '/_listkit/seed', { body: { orders } })).status).toBe(200);
    const acked = {
      rules: new Map<string, string>(),
      labels: new Map<string, string>(),
      refunds: new Set<string>(),
    };
    let killed = false;
    const refusals: string[] = [];
    const ok = <T extends { status: number }>(
      what: string,
      answer: T | undefined,
      expected: number,
    ): answer is T => {
      if (answer?.status === expected) return true;
      if (!killed) refusals.push(`${what}: ${answer?.status ?? 'no answer'}`);
      return false;
    };
    const writer = async (lane: number) => {
      for (let i = lane; !killed && i < 200; i += 4) {
        const name = `burst-${i}`;
        const inserted = await call(url, 'POST', `${REGION}/forwardingRules`, {
          body: rule(name, 3000 + i),
        }).catch(() => undefined);
        if (!ok(`insert ${name}`, inserted, 200)) return;
        acked.rules.set(name, inserted.json.name);
        const got = await call(url, 'GET', `${REGION}/forwardingRules/${name}`).catch(
          () => undefined,
        );
        if (!ok(`get ${name}`, got, 200)) return;
        const labelled = await call(url, 'POST', `${REGION}/forwardingRules/${name}/setLabels`, {
          body: { labels: { lane: String(lane) }, labelFingerprint: got.json.labelFingerprint },
        }).catch(() => undefined);
        if (!ok(`setLabels ${name}`, labelled, 200)) return;
        acked.labels.set(name, String(lane));
        const refund = await call(
          url,
          'POST',
          `/androidpublisher/v3/applications/com.example.app/orders/GPA.${i}:refund`,
        ).catch(() => undefined);
        if (!ok(`refund GPA.${i}`, refund, 204)) return;
        acked.refunds.add(`GPA.${i}`);
      }
    };
    let running = true;
    const lanes = Promise.all([0, 1, 2, 3].map(writer)).finally(() => {
      running = false;
    });
    while (running && acked.refunds.size < 12) await new Promise((r) => setTimeout(r, 20));
    expect(refusals).toEqual([]);
    expect(acked.refunds.size).toBeGreaterThanOrEqual(12);
    killed = true;
    child.kill('SIGKILL');
    await lanes;
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise((r) => child.once('exit', r));
    }

    const restarted = await serve(['--data-dir', dir]);
    const state = (await call(restarted.url, 'GET', '/_listkit/state')).json;
    const rules = new Map<string, Json>(
      state.forwardingRules.map((r: { rule: Json }) => [r.rule.name, r.rule]),
    );
    const operations = new Map<string, Json>(state.operations.map((o: Json) => [o.name, o]));
    for (const [name, operation] of acked.rules) {
      expect(rules.has(name), name).toBe(true);
      expect(operations.get(operation)?.operationType, operation).toBe('insert');
    }
    for (const [name, lane] of acked.labels)
      expect(rules.get(name)?.labels, name).toEqual({ lane });
    const refunded = new Set(
      state.orders
        .filter((o: { refund?: unknown }) => o.refund)
        .map((o: { orderId: string }) => o.orderId),
    );
    for (const orderId of acked.refunds) expect(refunded.has(orderId), orderId).toBe(true);
    // Nothing half there: every rule has its insert operation, every label change its operation.
    const byTarget = new Map<string, string[]>();
    for (const op of operations.values()) {
      const name = String(op.targetLink).split('/').pop()!;
      byTarget.set(name, [...(byTarget.get(name) ?? []), op.operationType]);
    }
    for (const [name, stored] of rules) {
      expect(byTarget.get(name), name).toContain('insert');
      if (stored.labels) expect(byTarget.get(name), name).toContain('setLabels');
    }
    restarted.child.kill('SIGTERM');
  }, 120_000);
});

/** Every page of a list as answered, without its page token (sealed anew each time). */
async function listWalk(url: string, path: string, pageSize: number): Promise<string[]> {
  const pages: string[] = [];
  let token = '';
  do {
    const res = await call(
      url,
      'GET',
      `${path}?maxResults=${pageSize}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`,
      { headers: { 'accept-encoding': 'identity' } },
    );
    expect(res.status, res.text).toBe(200);
    pages.push(res.text.replace(/"nextPageToken": ?"[^"]*",?/, ''));
    token = res.json.nextPageToken ?? '';
  } while (token);
  return pages;
}

/** Stops a child with a signal; resolves its exit code. */
function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve(code));
    child.kill(signal);
  });
}

describe('listkit serve --save-on-exit, then --from-snapshot: the same list walk, byte for byte', () => {
  const stores: [string, () => Promise<{ flags: string[]; done: () => Promise<void> }>][] = [
    ['memory', async () => ({ flags: [], done: async () => undefined })],
    [
      'PGlite',
      async () => ({
        flags: ['--data-dir', mkdtempSync(join(work, 'snapshot-'))],
        done: async () => undefined,
      }),
    ],
    ...(pgSkip === undefined
      ? [
          [
            'PostgreSQL',
            async () => {
              const database = await freshPostgresDatabase('listkit_http');
              return { flags: ['--database', database.url], done: database.drop };
            },
          ] as [string, () => Promise<{ flags: string[]; done: () => Promise<void> }>],
        ]
      : []),
  ];

  it.each(stores)(
    '%s',
    async (_store, place) => {
      const file = join(work, `state-${_store}.json`);
      const first = await place();
      const a = await serve([...first.flags, '--save-on-exit', file]);
      const rules = Array.from({ length: 120 }, (_, i) => ({
        project: 'p',
        region: 'us-east1',
        rule: { ...rule(`walk-${i}`, 100 + i), labels: { i: String(i % 7) } },
      }));
      expect(
        (await call(a.url, 'POST', '/_listkit/seed', { body: { forwardingRules: rules } })).status,
      ).toBe(200);
      const walk = async (url: string) => [
        ...(await listWalk(url, `${REGION}/forwardingRules`, 25)),
        ...(await listWalk(url, `${REGION}/operations`, 25)),
        ...(await listWalk(url, '/compute/v1/projects/p/aggregated/forwardingRules', 50)),
      ];
      const expected = await walk(a.url);
      expect(await stopped(a.child, 'SIGTERM')).toBe(0);

      const second = await place();
      const b = await serve([...second.flags, '--from-snapshot', file]);
      expect(await walk(b.url)).toEqual(expected);
      const kept = await call(b.url, 'GET', '/_listkit/snapshots');
      expect(kept.json.snapshots.map((s: { name: string }) => s.name)).toEqual(['on-exit']);
      expect(await stopped(b.child, 'SIGINT')).toBe(0);
      await first.done();
      await second.done();
    },
    300_000,
  );

  it('a file that is no snapshot stops serve with status 1, saying what is wrong', async () => {
    const file = join(work, 'not-a-snapshot.json');
    writeFileSync(file, '{"listkit": "snapshot", "version": 1, "name": "x"}');
    const refused = await serve(['--from-snapshot', file]).catch(
      (error: Error & { code: number }) => error,
    );
    expect((refused as Error & { code: number }).code).toBe(1);
    expect((refused as Error).message).toContain(
      `--from-snapshot ${file}: snapshot file: takenAt is missing`,
    );
  }, 120_000);
});
