// listFromSql's statement protections and token compatibility, on PGlite and the configured server.
import { Collection, defineSchema, ListkitError, PageTokenCodec, t } from '@listkit/query';
import { listFromSql, type SqlRunner, sqlTable } from '@listkit/query/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openPglite,
  openPostgres,
  postgresSkipReason,
  type TestDatabase,
} from '../support/sql-databases.js';

const schema = defineSchema({
  key: 'name',
  fields: { name: t.string(), created: t.timestamp() },
});
const codec = await PageTokenCodec.create();
const resources = Array.from({ length: 9 }, (_, i) => ({
  name: `rule-${i}`,
  created: `2024-01-0${1 + (i % 3)}T00:00:00.00000000${i}Z`,
}));

function behaviour(open: () => Promise<TestDatabase>, server: boolean) {
  let db: TestDatabase;
  const table = sqlTable(schema, { table: `listkit_list_${process.pid}`, required: ['created'] });
  beforeAll(async () => {
    db = await open();
    await db.exec(`DROP TABLE IF EXISTS ${table.name}`);
    await db.exec(table.createTable());
    for (const r of resources) {
      await db.query(
        `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) VALUES (${table.insertColumns.map((_, i) => `$${i + 1}`).join(', ')})`,
        table.row(r),
      );
    }
  }, 60_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(async () => {
    await db?.exec(`DROP TABLE IF EXISTS ${table.name}`);
    await db?.close();
  });

  it('runs the list statement with custom plans forced, for that transaction only', async () => {
    const seen: unknown[] = [];
    const run: SqlRunner = (statements) =>
      db
        .run([
          ...statements.slice(0, -1),
          { text: `SELECT current_setting('plan_cache_mode') AS mode`, params: [] },
        ])
        .then(async (rows) => {
          seen.push(rows[0]?.mode);
          return db.run(statements.slice(-1));
        });
    await listFromSql({ pageSize: 2 }, { table, pageTokens: codec, run });
    expect(seen).toEqual(['force_custom_plan']);
    const after = await db.query(`SELECT current_setting('plan_cache_mode') AS mode`);
    expect(after[0]?.mode).toBe('auto');
  });

  it('as one simple query: custom plans forced and the timeout set for that query only', async () => {
    const seen: unknown[] = [];
    const run: SqlRunner = async (statements) => {
      const rows = await db.runOneQuery([
        ...statements.slice(0, -1),
        {
          text: `SELECT current_setting('plan_cache_mode') AS mode, current_setting('statement_timeout') AS timeout`,
          params: [],
        },
      ]);
      seen.push(rows[0]);
      return db.runOneQuery(statements);
    };
    const page = await listFromSql(
      { pageSize: 2 },
      { table, pageTokens: codec, run, statementTimeoutMs: 1234 },
    );
    expect(page.items).toHaveLength(2);
    expect(seen).toEqual([{ mode: 'force_custom_plan', timeout: '1234ms' }]);
    const after = await db.query(
      `SELECT current_setting('plan_cache_mode') AS mode, current_setting('statement_timeout') AS timeout`,
    );
    expect(after[0]).toEqual({ mode: 'auto', timeout: '0' });
  });

  it.skipIf(!server)(
    'maps a statement timeout to query_timeout, as one simple query too',
    async () => {
      const slow: SqlRunner = (statements) =>
        db.runOneQuery([...statements.slice(0, -1), { text: 'SELECT pg_sleep(5)', params: [] }]);
      const error = await listFromSql(
        { pageSize: 2 },
        { table, pageTokens: codec, run: slow, statementTimeoutMs: 50 },
      ).catch((e: unknown) => e);
      expect((error as ListkitError).code).toBe('query_timeout');
    },
  );

  it.skipIf(!server)('maps a statement timeout to query_timeout', async () => {
    const slow: SqlRunner = (statements) =>
      db.run([...statements.slice(0, -1), { text: 'SELECT pg_sleep(5)', params: [] }]);
    const error = await listFromSql(
      { pageSize: 2 },
      { table, pageTokens: codec, run: slow, statementTimeoutMs: 50 },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListkitError);
    expect((error as ListkitError).code).toBe('query_timeout');
    expect((error as ListkitError).message).toContain('50 ms');
  });

  it('reads each row through readResource when given (the JSON text as the database sent it)', async () => {
    const texts: string[] = [];
    const page = await listFromSql<{ name: string }>(
      { pageSize: 3 },
      {
        table,
        pageTokens: codec,
        run: (statements) => db.run(statements),
        readResource: (json) => {
          texts.push(json);
          return JSON.parse(json);
        },
      },
    );
    expect(page.items.map((r) => r.name)).toEqual(['rule-0', 'rule-1', 'rule-2']);
    // One text per row read (the page reads one more to know whether another page follows).
    expect(texts.map((text) => JSON.parse(text).name)).toEqual([
      'rule-0',
      'rule-1',
      'rule-2',
      'rule-3',
    ]);
  });

  it('continues from a page token the in-memory Collection sealed, and vice versa', async () => {
    const collection = new Collection<object>(schema, { pageTokens: codec });
    for (const r of resources) collection.put(r);
    const request = { orderBy: 'created desc', pageSize: 3, filter: 'name != "rule-4"' };
    const first = await collection.list(request);
    const second = await listFromSql<object>(
      { ...request, pageToken: first.nextPageToken },
      { table, pageTokens: codec, run: db.run },
    );
    expect(second.nextPageToken).toBeDefined();
    const third = await collection.list({ ...request, pageToken: second.nextPageToken });
    const all = [...first.items, ...second.items, ...third.items];
    expect(all).toEqual(await collection.list({ ...request, pageSize: 100 }).then((p) => p.items));
    expect(third.nextPageToken).toBeUndefined();
  });
}

describe('listFromSql on PGlite', () => {
  behaviour(openPglite, false);
});

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `listFromSql on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    behaviour(openPostgres, true);
  },
);
