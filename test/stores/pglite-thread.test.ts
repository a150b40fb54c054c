// PGlite runs in a worker thread of its own: while one statement runs, however long, the server's
// thread keeps answering; a statement past its time limit is stopped from outside, and the
// database comes back with every committed transaction and without the stopped one.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStatementTimeout, openPgliteDatabase } from '@listkit/service';
import { afterAll, expect, it } from 'vitest';

const work = mkdtempSync(join(tmpdir(), 'listkit-pglite-thread-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A statement that would run for hours: 10^10 rows counted.
const ENDLESS = 'SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b';

it('answers HTTP while a statement runs, stops the statement at its limit, and keeps what was committed', async () => {
  const dir = join(work, 'runaway');
  // Long enough that a loaded machine answers one loopback request well within it.
  const db = await openPgliteDatabase(dir, { statementTimeoutMs: 5_000 });
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    await db.transaction(async (tx) => {
      await tx.query('CREATE TABLE kept (n int)');
      await tx.query('INSERT INTO kept VALUES (1)');
    });
    const events: string[] = [];
    const runaway = db
      .transaction(async (tx) => {
        await tx.query('INSERT INTO kept VALUES (2)');
        await tx.query(ENDLESS);
      })
      .then(
        () => events.push('statement ended'),
        (error: unknown) => {
          events.push('statement stopped');
          return error;
        },
      );
    // The statement holds the database thread, not this one: a request is answered meanwhile.
    const answer = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    events.push(`http answered ${answer}`);
    const error = await runaway;
    expect(events).toEqual(['http answered ok', 'statement stopped']);
    expect(isStatementTimeout(error)).toBe(true);
    expect((error as { code?: string }).code).toBe('57014');

    // The next transaction starts a new thread on the directory: the committed row is there,
    // the stopped transaction's row is not.
    const rows = await db.transaction((tx) => tx.query<{ n: number }>('SELECT n FROM kept'));
    expect(rows.map((r) => r.n)).toEqual([1]);
    await db.transaction((tx) => tx.query('INSERT INTO kept VALUES (3)'));
  } finally {
    server.close();
    await db.close();
  }
  // And it is all on disk after a clean close.
  const again = await openPgliteDatabase(dir);
  try {
    const rows = await again.transaction((tx) =>
      tx.query<{ n: number }>('SELECT n FROM kept ORDER BY n'),
    );
    expect(rows.map((r) => r.n)).toEqual([1, 3]);
  } finally {
    await again.close();
  }
}, 120_000);

it('gives a transaction its own limit, and runs VACUUM outside any transaction', async () => {
  const db = await openPgliteDatabase(join(work, 'settings'));
  try {
    const stopped = await db
      .transaction((tx) => tx.query(ENDLESS), { statementTimeoutMs: 1_000 })
      .catch((error: unknown) => error);
    expect(isStatementTimeout(stopped)).toBe(true);
    await db.transaction(async (tx) => {
      await tx.query('CREATE TABLE churn (n int)');
      await tx.query('INSERT INTO churn SELECT generate_series(1, 1000)');
      await tx.query('DELETE FROM churn');
    });
    await db.outsideTransaction('VACUUM (ANALYZE) churn');
    const rows = await db.transaction((tx) =>
      tx.query<{ dead: number }>(
        "SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'churn'",
      ),
    );
    expect(rows[0]?.dead).toBe(0);
  } finally {
    await db.close();
  }
}, 120_000);

it('passes database errors through with their SQLSTATE, and the thread goes on', async () => {
  const db = await openPgliteDatabase(join(work, 'errors'));
  try {
    const error = await db
      .transaction((tx) => tx.query('SELECT * FROM no_such_table'))
      .catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('42P01');
    expect(String((error as Error).message)).toContain('no_such_table');
    const rows = await db.transaction((tx) => tx.query<{ one: number }>('SELECT 1 AS one'));
    expect(rows).toEqual([{ one: 1 }]);
  } finally {
    await db.close();
  }
}, 60_000);
