// @listkit/query/kysely: the planned page added to a Kysely user's own `selectFrom(…)`, run
// through kysely-pglite, lists the books table (test/support/own-table-books.ts, created with raw
// SQL) page for page as the in-memory Collection does, with tokens shared between the two.
import {
  Collection,
  compileFilter,
  defineSchema,
  type ListRequest,
  parseOrderBy,
  t,
} from '@listkit/query';
import { kyselyPage, kyselySql } from '@listkit/query/kysely';
import {
  listFromSql,
  planListQuery,
  readPlannedPage,
  type SqlRunner,
  sqlTable,
} from '@listkit/query/sql';
import fc from 'fast-check';
import { Kysely, sql } from 'kysely';
import { KyselyPGlite } from 'kysely-pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codec,
  DDL,
  loadBooks,
  RUNS,
  requestArb,
  rowsArb,
  schema,
  TABLE,
  table,
  walk,
} from '../support/own-table-books.js';
import type { TestDatabase } from '../support/sql-databases.js';

// The user's own database type, as Kysely users declare it.
interface Database {
  [TABLE]: { id: string; title: string | null; genre: string | null };
}

let pglite: KyselyPGlite;
let db: Kysely<Database>;
let raw: TestDatabase;

beforeAll(async () => {
  pglite = await KyselyPGlite.create();
  db = new Kysely<Database>({ dialect: pglite.dialect });
  const client = pglite.client;
  raw = {
    name: 'PGlite (kysely-pglite)',
    dialect: 'postgres',
    exec: async (text) => void (await client.exec(text)),
    query: async (text, params = []) =>
      (await client.query<Record<string, unknown>>(text, [...params])).rows,
    run: () => Promise.reject(new Error('unused')),
    runOneQuery: () => Promise.reject(new Error('unused')),
    close: () => client.close(),
    driver: client,
  };
  for (const ddl of DDL) await raw.exec(ddl);
}, 60_000); // PGlite compiles its WebAssembly: slow on a loaded machine
afterAll(async () => {
  await db?.destroy();
});

/** A SqlRunner that builds the page with Kysely from the plan listFromSql passes. */
const run: SqlRunner = (statements, plan) =>
  db.transaction().execute(async (tx) => {
    const settings = statements[0]!;
    await sql`${kyselySql(settings.text, settings.params)}`.execute(tx);
    const page = kyselyPage(plan!);
    return tx
      .selectFrom(TABLE)
      .select(page.columns)
      .where(page.where)
      .orderBy(page.orderBy)
      .limit(page.limit)
      .execute();
  });

describe('Kysely fragments', () => {
  it('turns $n into Kysely parameters, leaving quoted text alone', () => {
    const fragment = kyselySql(`"a$1" = $2::text AND b = '$1''$2' AND c = $1::bigint`, ['7', 'x']);
    const compiled = sql`SELECT 1 WHERE ${fragment}`.compile(db);
    expect(compiled.sql).toBe(
      `SELECT 1 WHERE "a$1" = $1::text AND b = '$1''$2' AND c = $2::bigint`,
    );
    expect(compiled.parameters).toEqual(['x', '7']);
  });

  it('lists each page of a Kysely selectFrom as the in-memory Collection does', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, requestArb, async (rows, request) => {
        const resources = await loadBooks(raw, rows);
        const collection = new Collection<object>(schema, { pageTokens: codec });
        for (const r of resources) collection.put(r);
        const memory = (r: ListRequest) => collection.list(r);
        const kysely = (r: ListRequest) =>
          listFromSql<object>(r, { table, pageTokens: codec, run });
        const expected = await walk([memory], request).catch(() => undefined);
        if (!expected) return; // an invalid filter
        const actual = await walk([kysely, memory], request);
        expect(actual.map((p) => p.items)).toEqual(expected.map((p) => p.items));
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  }, 600_000);

  it("lists listkit's document layout through Kysely too", async () => {
    const rules = sqlTable(
      defineSchema({ key: 'name', fields: { name: t.string(), size: t.int64() } }),
      { table: `kysely_rules_${process.pid}` },
    );
    await raw.exec(rules.createTable());
    const collection = new Collection<object>(rules.schema, { pageTokens: codec });
    for (let i = 0; i < 7; i++) {
      const rule = { name: `rule-${i}`, size: String(i % 3) };
      collection.put(rule);
      await raw.query(
        `INSERT INTO ${rules.name} (${rules.insertColumns.join(', ')}) VALUES (${rules.insertColumns.map((_, i) => `$${i + 1}`).join(', ')})`,
        rules.row(rule),
      );
    }
    const viaKysely: SqlRunner = (_statements, plan) => {
      const page = kyselyPage(plan!);
      return sql<
        Record<string, unknown>
      >`SELECT ${sql.join(page.columns)} FROM ${sql.table(rules.name.slice(1, -1))} WHERE ${page.where} ORDER BY ${page.orderBy} LIMIT ${sql.lit(page.limit)}`
        .execute(db)
        .then((r) => r.rows);
    };
    const request = { filter: 'size > 0', orderBy: 'size desc', pageSize: 2 };
    const expected = await walk([(r: ListRequest) => collection.list(r)], request);
    const actual = await walk(
      [
        (r: ListRequest) =>
          listFromSql<object>(r, { table: rules, pageTokens: codec, run: viaKysely }),
      ],
      request,
    );
    expect(actual.map((p) => p.items)).toEqual(expected.map((p) => p.items));
    expect(expected.flatMap((p) => p.items)).toHaveLength(4);
  });

  it('adds to a query the user writes, without listFromSql', async () => {
    const resources = await loadBooks(raw, [
      { id: '1', title: 'b', genre: 'POETRY' },
      { id: '2', title: 'a', genre: 'FICTION' },
      { id: '3', title: 'c', genre: 'POETRY' },
      { id: '4', title: null, genre: 'POETRY' },
    ]);
    expect(resources).toHaveLength(4);
    const plan = planListQuery(table, {
      filter: compileFilter('genre = POETRY', schema),
      order: parseOrderBy('title desc', schema),
      pageSize: 2,
    });
    const page = kyselyPage(plan);
    const rows = await db
      .selectFrom(TABLE)
      .select(page.columns)
      .where(page.where)
      .orderBy(page.orderBy)
      .limit(page.limit)
      .execute();
    const first = readPlannedPage(
      plan,
      rows.map((r) => table.readRow(r)),
    );
    expect(first.items.map((b) => (b as { id: string }).id)).toEqual(['3', '1']);
    expect(first.next).toBeDefined();
  });
});
