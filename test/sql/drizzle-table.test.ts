// A Drizzle table described once (@listkit/query/drizzle's drizzleListTable): the books table of
// test/support/books.ts declared with drizzle-orm's pg-core, the listkit schema and the column map
// derived from it, lists through Drizzle page for page as a Collection over the derived schema,
// tokens shared; on PGlite and a PostgreSQL server.

import type { PGlite } from '@electric-sql/pglite';
import { Collection, type ListRequest, t } from '@listkit/query';
import { drizzleListTable, drizzlePage, drizzleSql } from '@listkit/query/drizzle';
import { listFromSql, type SqlRunner } from '@listkit/query/sql';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import {
  bigint,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codec,
  DDL,
  GENRE_TYPE,
  loadBooks,
  RUNS,
  requestArb,
  rowsArb,
  TABLE,
  walk,
} from '../support/own-table-books.js';
import {
  openPglite,
  openPostgres,
  postgresSkipReason,
  type TestDatabase,
} from '../support/sql-databases.js';

// The table as a Drizzle user declares it (the enum in PostgreSQL's order, not the schema's).
const genre = pgEnum(GENRE_TYPE, ['SCIENCE', 'POETRY', 'FICTION', 'HISTORY']);
const books = pgTable(TABLE, {
  id: bigint('id', { mode: 'bigint' }).primaryKey(),
  title: text('title'),
  author: varchar('author', { length: 200 }),
  published: timestamp('published', { withTimezone: true }),
  updated: timestamp('updated'),
  pages: integer('pages'),
  rating: doublePrecision('rating'),
  weight: numeric('weight'),
  genre: genre('genre'),
  tags: jsonb('tags'),
  labels: jsonb('labels'),
  inPrint: boolean('in_print'),
});

const { schema, table } = drizzleListTable(books, {
  fields: {
    title: t.string({ searchable: true }),
    author: t.string({ searchable: true }),
    tags: t.repeated(t.string()),
    labels: t.map(t.string()),
    summary: t.string(), // not a column: the residual decides it
  },
});

function suite(open: () => Promise<TestDatabase>) {
  let db: TestDatabase;
  let drizzle: PgDatabase<PgQueryResultHKT>;
  beforeAll(async () => {
    db = await open();
    for (const ddl of DDL) await db.exec(ddl);
    drizzle =
      db.name === 'PGlite'
        ? drizzlePglite({ client: db.driver as PGlite })
        : drizzlePg({ client: db.driver as pg.Client });
  }, 60_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(async () => {
    await db?.exec(`DROP TABLE IF EXISTS ${TABLE}`);
    await db?.close();
  });

  const run: SqlRunner = (statements, plan) =>
    drizzle.transaction(async (tx) => {
      for (const s of statements.slice(0, -1)) await tx.execute(drizzleSql(s.text, s.params));
      const page = drizzlePage(plan!);
      return tx
        .select(page.columns)
        .from(books)
        .where(page.where)
        .orderBy(page.orderBy)
        .limit(page.limit);
    });

  it('derives the schema and the columns from the Drizzle table', () => {
    expect(schema.key).toBe('id');
    expect(schema.fields.genre).toEqual(t.enum(['SCIENCE', 'POETRY', 'FICTION', 'HISTORY']));
    expect(schema.fields.published).toEqual(t.timestamp());
    expect(schema.fields.pages).toEqual(t.int64());
    expect(table.columns.map((c) => c.name)).toContain('"in_print"');
    expect(table.inexact.map((c) => c.path).sort()).toEqual(
      ['genre', 'published', 'updated', 'title', 'author', 'weight'].sort(),
    );
  });

  it('lists each page through Drizzle as the in-memory Collection does', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, requestArb, async (rows, request) => {
        const resources = await loadBooks(db, rows);
        const collection = new Collection<object>(schema, { pageTokens: codec });
        for (const r of resources) collection.put(r);
        const memory = (r: ListRequest) => collection.list(r);
        const viaDrizzle = (r: ListRequest) =>
          listFromSql<object>(r, { table, pageTokens: codec, run });
        const expected = await walk([memory], request).catch(() => undefined);
        if (!expected) return; // an invalid filter
        const alone = await walk([viaDrizzle], request);
        expect(alone.map((p) => p.items)).toEqual(expected.map((p) => p.items));
        const alternating = await walk([viaDrizzle, memory], request);
        expect(alternating.map((p) => p.items)).toEqual(expected.map((p) => p.items));
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  }, 600_000);
}

describe('a Drizzle table on PGlite', () => suite(openPglite));

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `a Drizzle table on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => suite(openPostgres),
);
