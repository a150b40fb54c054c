// Statements as one simple-query text (SqlDatabase.batch) and transactions sent that way
// (SqlDatabase.batchedTransaction), on PGlite and on the PostgreSQL server of LISTKIT_PG_URL:
// values travel inlined as escaped constants, U+0000 is refused before anything is sent, the
// statement timeout holds, and a transaction that fails part-way leaves nothing behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listStatementSettings } from '@listkit/query/sql';
import {
  isStatementTimeout,
  openPgliteDatabase,
  openPostgresDatabase,
  type SqlDatabase,
} from '@listkit/service';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresSkipReason } from '../support/sql-databases.js';

const work = mkdtempSync(join(tmpdir(), 'listkit-sql-batch-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A statement that would run for hours: 10^10 rows counted.
const ENDLESS = 'SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b';
const AWKWARD = `it's a \\ back'slash, $1, "quoted", ünïcödé 🎉`;

function contract(name: string, open: () => Promise<SqlDatabase>) {
  describe(name, () => {
    let db: SqlDatabase;
    beforeAll(async () => {
      db = await open();
      await db.statement('CREATE TABLE kept (n integer, note text)');
    }, 60_000);
    afterAll(() => db?.close());

    it('runs statements as one text and answers each one rows, values inlined exactly', async () => {
      const results = await db.batch([
        { text: 'SELECT $1::text AS note, $2::integer AS n', params: [AWKWARD, 7] },
        { text: 'SELECT $1::boolean AS yes, $2::text AS missing', params: [true, null] },
      ]);
      expect(results).toEqual([[{ note: AWKWARD, n: 7 }], [{ yes: true, missing: null }]]);
    });

    it('refuses U+0000 before sending anything, and keeps working', async () => {
      await expect(
        db.batch([{ text: 'SELECT $1::text AS note', params: ['a\u0000b'] }]),
      ).rejects.toThrow(RangeError);
      await expect(
        db.batchedTransaction(async (tx) => {
          await tx.send([{ text: 'INSERT INTO kept VALUES (1, $1)', params: ['first'] }]);
          await tx.send([{ text: 'INSERT INTO kept VALUES (2, $1)', params: ['a\u0000b'] }], {
            commit: true,
          });
        }),
      ).rejects.toThrow(RangeError);
      // The first send's row went with the transaction the second could not finish.
      expect(await db.batch([{ text: 'SELECT count(*)::integer AS n FROM kept' }])).toEqual([
        [{ n: 0 }],
      ]);
    });

    it('commits with the send marked commit, and rolls back a transaction that fails part-way', async () => {
      const answered = await db.batchedTransaction(async (tx) => {
        const [[row] = []] = await tx.send([{ text: 'SELECT $1::integer + 1 AS n', params: [41] }]);
        await tx.send(
          [{ text: 'INSERT INTO kept VALUES ($1, $2)', params: [row?.n as number, AWKWARD] }],
          {
            commit: true,
          },
        );
        return row?.n;
      });
      expect(answered).toBe(42);
      await expect(
        db.batchedTransaction(async (tx) => {
          await tx.send([{ text: 'INSERT INTO kept VALUES (43, NULL)' }]);
          // Fails at its second statement: the first of the text and the earlier send are undone.
          await tx.send(
            [{ text: 'INSERT INTO kept VALUES (44, NULL)' }, { text: 'SELECT 1 / 0' }],
            { commit: true },
          );
        }),
      ).rejects.toThrow(/division by zero/);
      await expect(
        db.batchedTransaction(async (tx) => {
          await tx.send([{ text: 'INSERT INTO kept VALUES (45, NULL)' }]);
          throw new Error('refused in between');
        }),
      ).rejects.toThrow('refused in between');
      const rows = await db.batch([{ text: 'SELECT n, note FROM kept ORDER BY n' }]);
      expect(rows).toEqual([[{ n: 42, note: AWKWARD }]]);
    });

    it('stops a text past its statement timeout (SQLSTATE 57014), then runs the next', async () => {
      const stopped = await db
        .batch([listStatementSettings(500), { text: ENDLESS }], { statementTimeoutMs: 500 })
        .catch((error: unknown) => error);
      expect(isStatementTimeout(stopped)).toBe(true);
      expect(await db.batch([{ text: 'SELECT n FROM kept ORDER BY n' }])).toEqual([[{ n: 42 }]]);
    }, 60_000);
  });
}

contract('PGlite', () => openPgliteDatabase(join(work, 'pglite')));

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(`PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  const database = `listkit_batch_${process.pid}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: process.env.LISTKIT_PG_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${database}`);
    await admin(`CREATE DATABASE ${database}`);
  });
  afterAll(() => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  contract('PostgreSQL', () => {
    const url = new URL(process.env.LISTKIT_PG_URL!);
    url.pathname = `/${database}`;
    return openPostgresDatabase({ url: url.toString() });
  });
});
