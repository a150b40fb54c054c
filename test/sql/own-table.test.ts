// The SQL planner over a table of the user's own (issue 22): `books` is created and filled with
// raw SQL (no listkit code lays it out or encodes its rows), with the column types people use
// (bigint, text, timestamptz, timestamp, integer, double precision, numeric, a PostgreSQL enum
// whose declared order differs from the schema's, jsonb, boolean, NULLs everywhere but the key).
// Every page listed through `sqlTable(schema, { document: false, … })` must equal the in-memory
// Collection's page over the same rows, and page tokens must pass between the two.
//
// Timestamps: the rows are inserted with nanoseconds; PostgreSQL keeps microseconds. The rows as
// PostgreSQL holds them are the resources (the Collection is built from them through
// `table.readRow`), and filter literals keep their nanoseconds: the planner compares them
// through their exact microsecond bound.
//
// The same properties run on SQLite, MariaDB and the Spanner emulator, each with the table as
// that engine's owner would declare it (test/support/own-table-dialects.ts: a NOCASE or
// case-insensitive collation on the title, a MySQL ENUM in another order, timestamps as the
// dialect's nanoseconds, which those engines keep whole).
import {
  Collection,
  compileFilter,
  defineSchema,
  ListkitError,
  type ListPage,
  type ListRequest,
  parseOrderBy,
  t,
} from '@listkit/query';
import {
  listFromSql,
  planListQuery,
  type SqlDialectName,
  sqlTable,
  suggestIndexes,
} from '@listkit/query/sql';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BASES,
  codec,
  DDL,
  instantLiterals,
  ORDERINGS,
  RUNS,
  requestArb,
  rowsArb,
  schema,
  table,
  walk,
} from '../support/own-table-books.js';
import { booksOn, OWN_COLUMNS, writeRows } from '../support/own-table-dialects.js';
import { openSpanner, spannerSkipReason } from '../support/spanner-database.js';
import {
  mariadbSkipReason,
  openMariadb,
  openPglite,
  openPostgres,
  openSqlite,
  postgresSkipReason,
  type TestDatabase,
} from '../support/sql-databases.js';

function ownTable(open: () => Promise<TestDatabase>, runs: number, dialect: SqlDialectName) {
  let db: TestDatabase;
  const books = booksOn(dialect);
  const { table } = books;
  const loadBooks = (database: TestDatabase, rows: Record<string, string | null>[]) =>
    books.load(database, rows);
  beforeAll(async () => {
    db = await open();
    let ddls = books.ddl;
    if (dialect === 'postgres') {
      // The title column gets a collation that is not "C" where the server has one (ICU's root
      // collation orders a < A < b < B; code points order A < B < a < b).
      const [collation] = await db.query(
        `SELECT collname FROM pg_collation WHERE collname IN ('und-x-icu', 'en_US.utf8', 'en_US') ORDER BY collname = 'und-x-icu' DESC LIMIT 1`,
      );
      const title = collation ? `text COLLATE "${String(collation.collname)}"` : 'text';
      ddls = DDL.map((ddl) => ddl.replace('title text', `title ${title}`));
    }
    for (const ddl of ddls) await db.exec(ddl);
    for (const ddl of suggestIndexes(table, { orderings: ORDERINGS })) await db.exec(ddl);
  }, 600_000); // PGlite compiles its WebAssembly, the Spanner emulator changes schemas slowly
  afterAll(async () => {
    for (const ddl of books.drop) await db?.exec(ddl);
    await db?.close();
  }, 600_000);

  it('lists every page exactly as the in-memory Collection does, tokens passing between them', async () => {
    let compared = 0;
    let invalid = 0;
    await fc.assert(
      fc.asyncProperty(rowsArb, requestArb, async (rows, request) => {
        const resources = await loadBooks(db, rows);
        const collection = new Collection<object>(schema, { pageTokens: codec });
        for (const r of resources) collection.put(r);
        const memory = (r: ListRequest) => collection.list(r);
        const sql = (r: ListRequest) =>
          listFromSql<object>(r, { table, pageTokens: codec, run: db.run });
        let expected: ListPage<object>[];
        try {
          expected = await walk([memory], request);
        } catch (error) {
          if (!(error instanceof ListkitError)) throw error;
          invalid++;
          return;
        }
        const actual = await walk([sql], request);
        compared++;
        expect(actual.map((p) => p.items)).toEqual(expected.map((p) => p.items));
        expect(actual.map((p) => p.nextPageToken !== undefined)).toEqual(
          expected.map((p) => p.nextPageToken !== undefined),
        );
        // Tokens are interchangeable: SQL, memory, SQL, … walks to the same pages.
        const mixed = await walk([sql, memory], request);
        expect(mixed.map((p) => p.items)).toEqual(expected.map((p) => p.items));
        const mixed2 = await walk([memory, sql], request);
        expect(mixed2.map((p) => p.items)).toEqual(expected.map((p) => p.items));
      }),
      { numRuns: runs },
    );
    expect(compared).toBeGreaterThan(invalid * 3);
  }, 600_000);

  it('compares every timestamp literal, nanoseconds included, as the engine does', async () => {
    // A row at each microsecond around each base, and one without timestamps.
    const rows: Record<string, string | null>[] = [{ id: '0', published: null, updated: null }];
    for (const base of BASES) {
      for (let us = 0; us <= 5; us++) {
        const at = `${base}.${String(us).padStart(6, '0')}`;
        rows.push({ id: String(rows.length), published: `${at}Z`, updated: at });
      }
    }
    const resources = await loadBooks(db, rows);
    const collection = new Collection<object>(schema, { pageTokens: codec });
    for (const r of resources) collection.put(r);
    let compared = 0;
    for (const field of ['published', 'updated']) {
      for (const op of ['=', '!=', '<', '<=', '>', '>=']) {
        for (const literal of instantLiterals) {
          for (const filter of [`${field} ${op} "${literal}"`, `NOT ${field} ${op} "${literal}"`]) {
            const request = { filter, pageSize: 100 };
            const plan = planListQuery(table, {
              filter: compileFilter(filter, schema),
              order: parseOrderBy('', schema),
              pageSize: 100,
            });
            expect(plan.exact, filter).toBe(true);
            const sql = await listFromSql<object>(request, {
              table,
              pageTokens: codec,
              run: db.run,
            });
            const memory = await collection.list(request);
            expect(sql.items, filter).toEqual(memory.items);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(2 * 6 * instantLiterals.length * 2);
  }, 600_000); // 648 statements: a minute on the Spanner emulator at load 12

  it('lays out and writes a table of its own: createTable, insert, suggestIndexes', async () => {
    // The dialect's default column types, created and written by listkit this time.
    const written = sqlTable(schema, {
      table: `${table.name.replace(/["`]/g, '')}_w`,
      dialect,
      document: false,
      columns: OWN_COLUMNS,
    });
    const resources = [
      { id: '1', title: 'é', published: '2024-01-01T00:00:00.123456789Z', pages: '-3' },
      { id: '2', title: 'E', published: '1969-12-31T23:59:59.999999999Z', rating: 0.1 },
      { id: '4', inPrint: false, author: 'a b', weight: -2.5, updated: '0001-01-01T00:00:00Z' },
      { id: '5', inPrint: true, title: '', updated: '9999-12-31T23:59:59.999999Z' },
      { id: '9007199254740993', genre: 'POETRY', tags: ['a', ''], labels: { env: 'prod' } },
    ];
    const ddl = [written.createTable(), ...suggestIndexes(written, { orderings: ORDERINGS })];
    for (const statement of ddl) await db.exec(statement);
    try {
      await writeRows(db, written, resources);
      const collection = new Collection<object>(schema, { pageTokens: codec });
      const sql = (r: ListRequest) =>
        listFromSql<object>(r, { table: written, pageTokens: codec, run: db.run });
      const all = await sql({ pageSize: 10 });
      // PostgreSQL's timestamptz keeps microseconds: the rows as read back are the resources.
      if (dialect !== 'postgres') expect(all.items).toEqual(resources);
      for (const r of all.items) collection.put(r);
      for (const orderBy of ORDERINGS) {
        const request = { orderBy, pageSize: 2, filter: 'published < "2024-01-01T00:00:00.2Z"' };
        const expected = await walk([(r: ListRequest) => collection.list(r)], request);
        const actual = await walk([sql], request);
        expect(
          actual.map((p) => p.items),
          orderBy,
        ).toEqual(expected.map((p) => p.items));
      }
    } finally {
      await db.exec(`DROP TABLE IF EXISTS ${written.name}`);
    }
  }, 600_000);

  it.skipIf(dialect === 'postgres')(
    'holds durations as nanoseconds, filtered and ordered as in memory',
    async () => {
      const durations = defineSchema({ key: 'id', fields: { id: t.int64(), ttl: t.duration() } });
      const timers = sqlTable(durations, {
        table: `${table.name.replace(/["`]/g, '')}_d`,
        dialect,
        document: false,
        columns: { id: 'id', ttl: 'ttl' },
      });
      const resources = [
        { id: '1', ttl: '-1.500s' },
        { id: '2', ttl: '0s' },
        { id: '3', ttl: '315576000000.999999999s' },
        { id: '4', ttl: '-315576000000s' },
        { id: '5' },
        { id: '6', ttl: '0.000000001s' },
      ];
      await db.exec(timers.createTable());
      try {
        await writeRows(db, timers, resources);
        const collection = new Collection<object>(durations, { pageTokens: codec });
        for (const r of resources) collection.put(r);
        const sql = (r: ListRequest) =>
          listFromSql<object>(r, { table: timers, pageTokens: codec, run: db.run });
        for (const filter of ['', 'ttl > "0s"', 'ttl <= "-1.5s"', 'ttl != "0.000000001s"']) {
          for (const orderBy of ['ttl', 'ttl desc']) {
            const request = { filter, orderBy, pageSize: 2 };
            const expected = await walk([(r: ListRequest) => collection.list(r)], request);
            const actual = await walk([sql, (r: ListRequest) => collection.list(r)], request);
            expect(
              actual.map((p) => p.items),
              `${filter} / ${orderBy}`,
            ).toEqual(expected.map((p) => p.items));
          }
        }
      } finally {
        await db.exec(`DROP TABLE IF EXISTS ${timers.name}`);
      }
    },
    600_000,
  );

  it('reads rows as the engine would: microseconds, labels, exact int64 and doubles', async () => {
    const [resource] = await loadBooks(db, [
      {
        id: '9007199254740993',
        title: 'é',
        author: null,
        published: '2024-01-01T00:00:00.123456789Z',
        updated: '1999-12-31T23:59:59.5',
        pages: '7',
        rating: '0.1',
        weight: '3.14159265358979323846',
        genre: 'POETRY',
        tags: '["web"]',
        labels: '{"env":"prod"}',
        inPrint: 'true',
      },
    ]);
    // PostgreSQL keeps microseconds (rounded) and reads a numeric as the nearest double; the
    // other engines keep nanoseconds and store the double itself.
    const micro = dialect === 'postgres';
    expect(resource).toEqual({
      id: '9007199254740993',
      title: 'é',
      published: micro ? '2024-01-01T00:00:00.123457Z' : '2024-01-01T00:00:00.123456789Z',
      updated: micro ? '1999-12-31T23:59:59.500000Z' : '1999-12-31T23:59:59.500Z',
      pages: '7',
      rating: 0.1,
      weight: Math.PI,
      genre: 'POETRY',
      tags: ['web'],
      labels: { env: 'prod' },
      inPrint: true,
    });
  });
}

describe('a table of your own: the plan', () => {
  const plan = (filter: string, orderBy: string) =>
    planListQuery(table, {
      filter: compileFilter(filter, schema),
      order: parseOrderBy(orderBy, schema),
      pageSize: 10,
    });

  it('says which columns it reads inexactly, and why', () => {
    const p = plan('published > "2024-01-01T00:00:00.000000001Z"', 'genre');
    expect(p.inexact.map((c) => c.path).sort()).toEqual(['genre', 'published']);
    expect(p.inexact.find((c) => c.path === 'published')?.reason).toContain('microseconds');
    expect(p.inexact.find((c) => c.path === 'genre')?.reason).toContain('declared order');
    // The nanosecond literal is compared through its microsecond floor, exactly.
    expect(p.text).toContain('"published" > $1::timestamptz');
    expect(p.params[0]).toBe('2024-01-01T00:00:00.000000Z');
    expect(p.exact).toBe(true);
    expect(plan('', '').inexact).toEqual([]);
  });

  it('selects the columns as text and keeps what has no column in memory', () => {
    const p = plan('summary = "x"', '');
    expect(p.text).toContain(`to_char("published" AT TIME ZONE 'UTC'`);
    expect(p.text).not.toContain('resource');
    expect(p.exact).toBe(false);
  });

  it('continues an ordering by an enum held as text from its declared index', () => {
    // The CASE orders by the index: the cursor is compared as an integer, not as text (which
    // PostgreSQL refuses: integer > text).
    const textGenre = sqlTable(schema, {
      table: 'b',
      document: false,
      columns: { genre: 'genre' },
    });
    const p = planListQuery(textGenre, {
      filter: compileFilter('', schema),
      order: parseOrderBy('genre', schema),
      pageSize: 1,
      cursor: [2, { i: '5' }],
    });
    expect(p.text).toContain(`WHEN 'SCIENCE' THEN 3 END) > $1::integer`);
  });

  it('refuses an ordering it cannot page exactly', () => {
    expect(() => plan('', 'summary')).toThrow(/no sortable column/);
  });

  it('refuses column types that would change the semantics', () => {
    expect(() =>
      sqlTable(schema, { table: 'b', document: false, columns: { published: { type: 'text' } } }),
    ).toThrow(/timestamptz or timestamp/);
    expect(() =>
      sqlTable(schema, { table: 'b', columns: { published: { type: 'timestamptz' } } }),
    ).toThrow(/tables of your own/);
  });

  it('refuses a page token whose cursor holds nanoseconds the column cannot', async () => {
    const collection = new Collection<object>(schema, { pageTokens: codec });
    collection.put({ id: '1', published: '2024-01-01T00:00:00.000000001Z' });
    collection.put({ id: '2', published: '2024-01-01T00:00:00.000000002Z' });
    const first = await collection.list({ orderBy: 'published', pageSize: 1 });
    const error = await listFromSql(
      { orderBy: 'published', pageSize: 1, pageToken: first.nextPageToken },
      { table, pageTokens: codec, run: async () => [] },
    ).catch((e: unknown) => e);
    expect((error as ListkitError).code).toBe('page_token_query_mismatch');
  });
});

describe('a table of your own on PGlite', () => {
  ownTable(openPglite, RUNS, 'postgres');
});

describe('a table of your own on SQLite', () => {
  ownTable(openSqlite, RUNS, 'sqlite');
});

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `a table of your own on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    ownTable(openPostgres, RUNS, 'postgres');
  },
);

const noMariadb = mariadbSkipReason();
describe.skipIf(noMariadb !== undefined)(
  `a table of your own on a MariaDB server${noMariadb ? ` (skipped: ${noMariadb})` : ''}`,
  () => {
    ownTable(openMariadb, RUNS, 'mysql');
  },
);

// Fewer runs: each page is a round trip to the emulator, each load a read-write transaction.
const noSpanner = spannerSkipReason();
describe.skipIf(noSpanner !== undefined)(
  `a table of your own on the Spanner emulator${noSpanner ? ` (skipped: ${noSpanner})` : ''}`,
  () => {
    ownTable(openSpanner, Math.ceil(RUNS / 5), 'spanner');
  },
);
