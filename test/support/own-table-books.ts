// The books table of the own-table tests (issue 22): a schema, the table as its owner would
// create it with raw SQL, and generators of rows and list requests.
import { defineSchema, type ListPage, type ListRequest, PageTokenCodec, t } from '@listkit/query';
import { sqlTable } from '@listkit/query/sql';
import fc from 'fast-check';
import type { TestDatabase } from './sql-databases.js';

// The schema's order; the PostgreSQL enum below declares another.
export const GENRES = ['FICTION', 'HISTORY', 'POETRY', 'SCIENCE'] as const;

export const schema = defineSchema({
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
export const TABLE = `books_${suffix}`;
export const GENRE_TYPE = `book_genre_${suffix}`;

export const table = sqlTable(schema, {
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

export const DDL = [
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

export const INSERT = `INSERT INTO ${TABLE} (id, title, author, published, updated, pages, rating, weight, genre, tags, labels, in_print)
  VALUES ($1::bigint, $2, $3, $4::timestamptz, $5::timestamp, $6::integer, $7::float8, $8::numeric, $9::${GENRE_TYPE}, $10::jsonb, $11::jsonb, $12::boolean)`;

// ------------------------------------------------------------------------------------ rows

const TEXTS = ['', 'a', 'A', 'b', 'B', 'é', 'e', 'Z', 'a b', 'web-1', 'web-2', '100%', 'a_b', '😀'];
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });
// A few base instants, and offsets in nanoseconds: PostgreSQL rounds them to microseconds.
export const BASES = ['1969-12-31T23:59:59', '2024-01-01T00:00:00', '2024-01-01T00:00:01'];
const instantArb = fc
  .tuple(fc.constantFrom(...BASES), fc.integer({ min: 0, max: 4999 }))
  .map(([base, ns]) => `${base}.${String(ns).padStart(9, '0')}Z`);
export const instantLiterals = BASES.flatMap((b) =>
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

export const rowsArb = fc
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

export const ORDERINGS = [
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

export const requestArb = fc.record({
  filter: fc.oneof(aipArb, regexArb, fc.constant('')),
  orderBy: fc.constantFrom(...ORDERINGS),
  pageSize: fc.integer({ min: 1, max: 8 }),
});

// ------------------------------------------------------------------------------------ harness

export const codec = await PageTokenCodec.create();
export const RUNS = Number(process.env.LISTKIT_SQL_RUNS ?? 150);
/** The rows as a planned statement selects them: each column as canonical text, under its name. */
export const SELECT = `SELECT ${table.columns.map((c) => `${c.select} AS ${c.name}`).join(', ')} FROM ${TABLE}`;

/** The fields of a generated row, in the order of every INSERT's placeholders. */
export const ROW_ORDER = [
  'id',
  'title',
  'author',
  'published',
  'updated',
  'pages',
  'rating',
  'weight',
  'genre',
  'tags',
  'labels',
  'inPrint',
] as const;

/** Replaces the rows (raw SQL) and returns the resources as PostgreSQL holds them. */
export async function loadBooks(
  db: TestDatabase,
  rows: readonly Record<string, string | null>[],
): Promise<object[]> {
  await db.exec(`DELETE FROM ${TABLE}`);
  for (const r of rows)
    await db.query(
      INSERT,
      ROW_ORDER.map((k) => r[k] ?? null),
    );
  return (await db.query(SELECT)).map((row) => table.readRow(row));
}

export async function walk<T>(
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
