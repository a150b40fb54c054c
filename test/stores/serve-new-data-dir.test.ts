// `listkit serve --data-dir` on a new directory: made ready (database, tables, sample data) by a
// `listkit serve --prepare-only` process of its own, then served as an existing directory
// (serve-prepare.ts); and `--prepare-only` as users call it.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServiceModule } from '../support/bundle-service.js';
import { freshPostgresDatabase } from '../support/fresh-postgres.js';
import { call } from '../support/http-call.js';
import { runListkit } from '../support/run-listkit.js';
import { type ServeProcess, servingProcesses, startServe } from '../support/serve-process.js';
import { postgresSkipReason } from '../support/sql-databases.js';

const work = mkdtempSync(join(tmpdir(), 'listkit-new-dir-'));
let cli: { file: string; dispose: () => void } | undefined;
const ENV = { LISTKIT_DATABASE_URL: '' };
const REGION = '/compute/v1/projects/my-project/regions/us-central1';

beforeAll(async () => {
  // Bundled as cli.js, as tsup builds it: the serving process finds it to prepare a directory.
  cli = await bundleServiceModule('packages/service/src/cli.ts');
}, 60_000);

afterAll(() => {
  for (const child of servingProcesses) child.kill('SIGKILL');
  cli?.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** Starts `listkit serve` with these flags, never on the LISTKIT_DATABASE_URL of the caller. */
const serve = (flags: string[]): Promise<ServeProcess> => startServe(cli!.file, flags, ENV);

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Every rule name of the sample region, and the orders, as the served state holds them. */
async function served(url: string): Promise<{ rules: number; orders: number; names: string[] }> {
  const state = (await call(url, 'GET', '/_listkit/state')).json as {
    forwardingRules: { rule: { name: string } }[];
    orders: unknown[];
  };
  const page = await call(url, 'GET', `${REGION}/forwardingRules?maxResults=500`);
  expect(page.status).toBe(200);
  return {
    rules: state.forwardingRules.length,
    orders: state.orders.length,
    names: (page.json.items ?? []).map((r: { name: string }) => r.name),
  };
}

describe('listkit serve --data-dir on a new directory', () => {
  it('is made ready by a process of its own, then served with the sample data once', async () => {
    const dir = join(work, 'fresh');
    const first = await serve(['--data-dir', dir]);
    // The preparing process says so before the serving one listens.
    expect(first.printed).toContain(`listkit: ${dir} is ready`);
    expect(first.printed.indexOf('is ready')).toBeLessThan(first.printed.indexOf('emulator on'));
    const before = await served(first.url);
    expect(before.rules).toBe(300);
    expect(before.orders).toBe(6);
    await stop(first.child);

    // The directory is existing now: opened without preparing, nothing seeded twice.
    const again = await serve(['--data-dir', dir]);
    expect(again.printed).not.toContain('is ready');
    const after = await served(again.url);
    expect(after).toEqual(before);
    await stop(again.child);
  }, 240_000);

  it('starts from a snapshot file, not the sample data', async () => {
    const dir = join(work, 'from-snapshot');
    const source = await serve(['--no-sample-data']);
    const body = {
      forwardingRules: [
        {
          project: 'my-project',
          region: 'us-central1',
          rule: {
            name: 'kept',
            IPProtocol: 'TCP',
            portRange: '80',
            loadBalancingScheme: 'EXTERNAL',
          },
        },
      ],
    };
    expect((await call(source.url, 'POST', '/_listkit/seed', { body })).status).toBe(200);
    const taken = await call(source.url, 'POST', '/_listkit/snapshots', { body: { name: 'one' } });
    expect(taken.status).toBe(200);
    const snapshot = await call(source.url, 'GET', '/_listkit/snapshots/one');
    await stop(source.child);
    const file = join(work, 'one-rule.json');
    writeFileSync(file, snapshot.text);

    const started = await serve(['--data-dir', dir, '--from-snapshot', file]);
    expect(started.printed).toContain(`listkit: ${dir} is ready`);
    const state = await served(started.url);
    expect(state).toEqual({ rules: 1, orders: 0, names: ['kept'] });
    await stop(started.child);
  }, 240_000);

  it('exits 1 saying why when the directory cannot be made ready', async () => {
    const notADirectory = join(work, 'a-file');
    writeFileSync(notADirectory, 'not a data directory');
    const run = await runListkit(cli!.file, ['serve', '--port', '0', '--data-dir', notADirectory], {
      env: ENV,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`preparing the new data directory ${notADirectory} failed`);
    expect(run.stderr).not.toContain('listkit emulator on');
  }, 240_000);
});

describe('listkit serve --prepare-only', () => {
  it('makes a directory ready and exits; serving it later finds the sample data', async () => {
    const dir = join(work, 'prepared');
    const run = await runListkit(cli!.file, ['serve', '--data-dir', dir, '--prepare-only'], {
      env: ENV,
    });
    expect(run.stderr).toContain(`listkit: ${dir} is ready`);
    expect(run.status).toBe(0);
    const later = await serve(['--data-dir', dir]);
    expect(later.printed).not.toContain('is ready');
    expect((await served(later.url)).rules).toBe(300);
    await stop(later.child);
  }, 240_000);

  const pgSkip = postgresSkipReason();
  it.skipIf(pgSkip !== undefined)(
    `fills a new PostgreSQL database once${pgSkip ? ` (skipped: ${pgSkip})` : ''}`,
    async () => {
      const database = await freshPostgresDatabase('listkit_prepare');
      try {
        const flags = ['serve', '--database', database.url, '--prepare-only'];
        const first = await runListkit(cli!.file, flags, { env: ENV });
        expect(first.stderr).toContain('listkit: the database is ready');
        expect(first.status).toBe(0);
        // Not empty any more: a second preparation adds nothing.
        expect((await runListkit(cli!.file, flags, { env: ENV })).status).toBe(0);
        const later = await serve(['--database', database.url]);
        expect(await served(later.url)).toMatchObject({ rules: 300, orders: 6 });
        await stop(later.child);
      } finally {
        await database.drop();
      }
    },
    240_000,
  );

  it('refuses the memory store, which has nothing to keep', async () => {
    const run = await runListkit(cli!.file, ['serve', '--prepare-only'], { env: ENV });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--prepare-only needs --data-dir or --database');
  });
});
