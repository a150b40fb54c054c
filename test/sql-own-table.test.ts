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
import {
  Collection,
  compileFilter,
  defineSchema,
  ListkitError,
  type ListPage,
  type ListRequest,
  PageTokenCodec,
  parseOrderBy,
  t,
} from '@listkit/query';
import { listFromSql, planListQuery, sqlTable, suggestIndexes } from '@listkit/query/sql';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openPglite,
  openPostgres,
  postgresSkipReason,
  type TestDatabase,
} from './support/sql-databases.js';

// The schema's order; the PostgreSQL enum below declares another.
const GENRES = ['FICTION', 'HISTORY', 'POETRY', 'SCIENCE'] as const;

const schema = defineSchema({
  key: 'id',
  fields: {
    id: t.int64(),
    title: t.string({ searchable: true }),
    author: t.string({ searchable: true }),
    published: t.timestamp(),
    updated: t.timestamp(),
    pages: t.int64(),
    rating: t.double(),
    weight: t.double(),
    genre: t.enum(GENRES),
    tags: t.repeated(t.string()),
    labels: t.map(t.string()),
    inPrint: t.bool(),
    // Not a column of the table: filters on it are decided in memory, orderings refused.
    summary: t.string(),
  },
});

const suffix = `${process.pid}`;
const TABLE = `books_${suffix}`;
const GENRE_TYPE = `book_genre_${suffix}`;

const table = sqlTable(schema, {
  table: TABLE,
  document: false,
  columns: {
    id: 'id',
    title: 'title',
    author: { type: 'varchar' },
    published: { type: 'timestamptz' },
    updated: { type: 'timestamp' },
    pages: { type: 'integer' },
    rating: 'rating',
    weight: { type: 'numeric' },
    genre: { type: 'enum' },
    tags: 'tags',
    labels: 'labels',
    inPrint: 'in_print',
  },
});

const DDL = [
  `DROP TABLE IF EXISTS ${TABLE}`,
  `DROP TYPE IF EXISTS ${GENRE_TYPE}`,
  `CREATE TYPE ${GENRE_TYPE} AS ENUM ('SCIENCE', 'POETRY', 'FICTION', 'HISTORY')`,
  `CREATE TABLE ${TABLE} (
    id bigint PRIMARY KEY,
    title text,
    author varchar(200),
    published timestamptz,
    updated timestamp,
    pages integer,
    rating double precision,
    weight numeric,
    genre ${GENRE_TYPE},
    tags jsonb,
    labels jsonb,
    in_print boolean
  )`,
  `CREATE INDEX ON ${TABLE} (published)`,
];

const INSERT = `INSERT INTO ${TABLE} (id, title, author, published, updated, pages, rating, weight, genre, tags, labels, in_print)
  VALUES ($1::bigint, $2, $3, $4::timestamptz, $5::timestamp, $6::integer, $7::float8, $8::numeric, $9::${GENRE_TYPE}, $10::jsonb, $11::jsonb, $12::boolean)`;

// ------------------------------------------------------------------------------------ rows

const TEXTS = ['', 'a', 'A', 'b', 'B', 'é', 'e', 'Z', 'a b', 'web-1', 'web-2', '100%', 'a_b', '😀'];
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });
// A few base instants, and offsets in nanoseconds: PostgreSQL rounds them to microseconds.
const BASES = ['1969-12-31T23:59:59', '2024-01-01T00:00:00', '2024-01-01T00:00:01'];
const instantArb = fc
  .tuple(fc.constantFrom(...BASES), fc.integer({ min: 0, max: 4999 }))
  .map(([base, ns]) => `${base}.${String(ns).padStart(9, '0')}Z`);
const instantLiterals = BASES.flatMap((b) =>
  [0, 1, 999, 1000, 1499, 1500, 2000, 2001, 4999].map(
    (ns) => `${b}.${String(ns).padStart(9, '0')}Z`,
  ),
);

const rowArb = fc.record({
  title: nullable(fc.constantFrom(...TEXTS)),
  author: nullable(fc.constantFrom(...TEXTS)),
  published: nullable(instantArb),
  updated: nullable(instantArb.map((s) => s.slice(0, -1))),
  pages: nullable(fc.constantFrom('0', '1', '-3', '100', '2147483647')),
  rating: nullable(
    fc.oneof(
      fc.constantFrom('0', '-0', '1.5', '3', 'Infinity', '-Infinity', '4.1'),
      fc.double({ min: -10, max: 10, noNaN: true }).map(String),
    ),
  ),
  weight: nullable(
    fc.constantFrom('0', '1.5', '0.1', '3.14159265358979323846264338', '0.30000000000000004', '-2'),
  ),
  genre: nullable(fc.constantFrom(...GENRES)),
  tags: nullable(
    fc.array(fc.constantFrom('web', 'db', 'a%', 'x_y', ''), { maxLength: 3 }).map(JSON.stringify),
  ),
  labels: nullable(
    fc
      .dictionary(fc.constantFrom('env', 'team', 'a%'), fc.constantFrom('prod', 'dev', '', 'x*'), {
        maxKeys: 2,
      })
      .map(JSON.stringify),
  ),
  inPrint: nullable(fc.boolean().map(String)),
});

const rowsArb = fc
  .uniqueArray(fc.integer({ min: -50, max: 200 }), { maxLength: 25 })
  .chain((ids) => fc.tuple(...ids.map((id) => rowArb.map((row) => ({ id: String(id), ...row })))));

// ------------------------------------------------------------------------------------ requests

const quote = (s: string) => JSON.stringify(s);

const leafArb: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('title', 'author'),
      fc.constantFrom('=', '!=', '<', '>=', ':'),
      fc.constantFrom(...TEXTS, 'web-*', 'a*', '*b'),
    )
    .map(([f, op, v]) => `${f} ${op} ${quote(v)}`),
  fc
    .tuple(fc.constantFrom('=', '!=', '<', '>='), fc.constantFrom('0', '1', '100', '-3'))
    .map(([op, v]) => `pages ${op} ${v}`),
  fc
    .tuple(
      fc.constantFrom('rating', 'weight'),
      fc.constantFrom('=', '!=', '<', '>='),
      fc.constantFrom('0', '1.5', '-2', '3.141592653589793', '0.30000000000000004'),
    )
    .map(([f, op, v]) => `${f} ${op} ${v}`),
  fc
    .tuple(fc.constantFrom('=', '!=', ':'), fc.constantFrom(...GENRES))
    .map(([op, v]) => `genre ${op} ${v}`),
  fc
    .tuple(
      fc.constantFrom('published', 'updated'),
      fc.constantFrom('=', '!=', '<', '<=', '>', '>='),
      fc.constantFrom(...instantLiterals),
    )
    .map(([f, op, v]) => `${f} ${op} ${quote(v)}`),
  fc.tuple(fc.constantFrom('=', '!='), fc.boolean()).map(([op, v]) => `inPrint ${op} ${v}`),
  fc
    .tuple(
      fc.constantFrom('env', 'team'),
      fc.constantFrom('=', '!=', ':'),
      fc.constantFrom('prod', 'dev', ''),
    )
    .map(([k, op, v]) => `labels.${k} ${op} ${quote(v)}`),
  fc.constantFrom('env', 'team', 'a%').map((k) => `labels:${quote(k)}`),
  fc.constantFrom('web', 'db', 'a%', 'x_y', 'w*').map((v) => `tags:${quote(v)}`),
  fc
    .constantFrom('title', 'author', 'published', 'genre', 'tags', 'labels', 'summary')
    .map((f) => `${f}:*`),
  fc.constantFrom('summary = ""', 'summary != "x"'),
  fc.constantFrom('web', 'a', 'é').map(quote),
);

const aipArb: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a}) AND (${b})`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `${a} OR ${b}`),
    tie('expr').map((a) => `NOT (${a})`),
  ),
})).expr;

const regexArb = fc
  .tuple(
    fc.constantFrom('title', 'author', 'genre', 'pages'),
    fc.constantFrom('eq', 'ne'),
    fc.constantFrom('a.*', 'web-[0-9]', '(?i)A', 'FICTION|POETRY', '1.*', '.*'),
  )
  .map(([f, op, p]) => `${f} ${op} ${quote(p)}`);

const ORDERINGS = [
  '',
  'id desc',
  'title',
  'title desc',
  'author, id desc',
  'published desc',
  'published',
  'updated',
  'pages, rating desc',
  'rating desc',
  'weight',
  'genre',
  'genre desc, title',
  'inPrint desc, published',
];

const requestArb = fc.record({
  filter: fc.oneof(aipArb, regexArb, fc.constant('')),
  orderBy: fc.constantFrom(...ORDERINGS),
  pageSize: fc.integer({ min: 1, max: 8 }),
});

// ------------------------------------------------------------------------------------ harness

const codec = await PageTokenCodec.create();
const RUNS = Number(process.env.LISTKIT_SQL_RUNS ?? 150);
const SELECT = `SELECT ${table.columns.map((c) => c.select).join(', ')} FROM ${TABLE}`;

async function walk<T>(
  lists: ((r: ListRequest) => Promise<ListPage<T>>)[],
  request: ListRequest,
): Promise<ListPage<T>[]> {
  const pages: ListPage<T>[] = [];
  let pageToken: string | undefined;
  do {
    // Alternating listers: each continues from the other's token.
    const page = await lists[pages.length % lists.length]!({ ...request, pageToken });
    pages.push(page);
    pageToken = page.nextPageToken;
    if (pages.length > 200) throw new Error('walk did not end');
  } while (pageToken);
  return pages;
}

function ownTable(open: () => Promise<TestDatabase>, runs: number) {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await open();
    // The title column gets a collation that is not "C" where the server has one (ICU's root
    // collation orders a < A < b < B; code points order A < B < a < b).
    const [collation] = await db.query(
      `SELECT collname FROM pg_collation WHERE collname IN ('und-x-icu', 'en_US.utf8', 'en_US') ORDER BY collname = 'und-x-icu' DESC LIMIT 1`,
    );
    const title = collation ? `text COLLATE "${String(collation.collname)}"` : 'text';
    for (const ddl of DDL) await db.exec(ddl.replace('title text', `title ${title}`));
    for (const ddl of suggestIndexes(table, { orderings: ORDERINGS })) await db.exec(ddl);
  }, 60_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(async () => {
    await db?.exec(`DROP TABLE IF EXISTS ${TABLE}`);
    await db?.exec(`DROP TYPE IF EXISTS ${GENRE_TYPE}`);
    await db?.close();
  });

  /** Replaces the rows (raw SQL) and returns the resources as PostgreSQL holds them. */
  async function load(rows: readonly Record<string, string | null>[]): Promise<object[]> {
    await db.exec(`DELETE FROM ${TABLE}`);
    for (const r of rows) {
      await db.query(
        INSERT,
        [
          r.id!,
          r.title!,
          r.author!,
          r.published!,
          r.updated!,
          r.pages!,
          r.rating!,
          r.weight!,
          r.genre!,
          r.tags!,
          r.labels!,
          r.inPrint!,
        ].map((v) => v ?? null),
      );
    }
    return (await db.query(SELECT)).map((row) => table.readRow(row));
  }

  it('lists every page exactly as the in-memory Collection does, tokens passing between them', async () => {
    let compared = 0;
    let invalid = 0;
    await fc.assert(
      fc.asyncProperty(rowsArb, requestArb, async (rows, request) => {
        const resources = await load(rows);
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

  it('reads rows as the engine would: microseconds, labels, exact int64 and doubles', async () => {
    const [resource] = await load([
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
    expect(resource).toEqual({
      id: '9007199254740993',
      title: 'é',
      published: '2024-01-01T00:00:00.123457Z',
      updated: '1999-12-31T23:59:59.500000Z',
      pages: '7',
      rating: 0.1,
      weight: Math.PI, // the numeric read as the nearest double
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
  ownTable(openPglite, RUNS);
});

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `a table of your own on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    ownTable(openPostgres, RUNS);
  },
);
