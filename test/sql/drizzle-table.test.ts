// A Drizzle table described once (@listkit/query/drizzle's drizzleListTable): the books table of
// test/support/own-table-books.ts declared with drizzle-orm's pg-core, mysql-core and
// sqlite-core, the listkit schema and the column map derived from it, lists through Drizzle page
// for page as a Collection over the derived schema, tokens shared; on PGlite and a PostgreSQL
// server (pg-core), MariaDB (mysql-core) and SQLite (sqlite-core).

import type { PGlite } from '@electric-sql/pglite';
import { Collection, type ListRequest, t } from '@listkit/query';
import {
  type DrizzleListTable,
  type DrizzlePage,
  drizzleListTable,
  drizzlePage,
  drizzleSql,
} from '@listkit/query/drizzle';
import { listFromSql, type SqlRunner } from '@listkit/query/sql';
import type BetterSqlite3 from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import {
  decimal,
  double,
  int,
  json,
  bigint as mysqlBigint,
  boolean as mysqlBoolean,
  mysqlEnum,
  mysqlTable,
  varchar as mysqlVarchar,
  varbinary,
} from 'drizzle-orm/mysql-core';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
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
import {
  real,
  integer as sqliteInteger,
  sqliteTable,
  text as sqliteText,
} from 'drizzle-orm/sqlite-core';
import fc from 'fast-check';
import type { Pool as MysqlPromisePool } from 'mysql2/promise';
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
import { booksOn } from '../support/own-table-dialects.js';
import {
  mariadbSkipReason,
  openMariadb,
  openPglite,
  openPostgres,
  openSqlite,
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

/** The books table on MySQL/MariaDB as a Drizzle user declares it (the ENUM in its own order). */
const mysqlBooks = mysqlTable(TABLE, {
  id: mysqlBigint('id', { mode: 'bigint' }).primaryKey(),
  title: mysqlVarchar('title', { length: 200 }),
  author: varbinary('author', { length: 800 }),
  published: decimal('published', { precision: 21, scale: 0 }),
  updated: decimal('updated', { precision: 21, scale: 0 }),
  pages: int('pages'),
  rating: double('rating'),
  weight: double('weight'),
  genre: mysqlEnum('genre', ['SCIENCE', 'POETRY', 'FICTION', 'HISTORY']),
  tags: json('tags'),
  labels: json('labels'),
  inPrint: mysqlBoolean('in_print'),
});

/** The books table on SQLite: timestamps as the dialect's nanosecond text, JSON as text. */
const sqliteBooks = sqliteTable(TABLE, {
  id: sqliteInteger('id').primaryKey(),
  title: sqliteText('title'),
  author: sqliteText('author'),
  published: sqliteText('published'),
  updated: sqliteText('updated'),
  pages: sqliteInteger('pages'),
  rating: real('rating'),
  weight: real('weight'),
  genre: sqliteText('genre', { enum: ['FICTION', 'HISTORY', 'POETRY', 'SCIENCE'] }),
  tags: sqliteText('tags', { mode: 'json' }),
  labels: sqliteText('labels', { mode: 'json' }),
  inPrint: sqliteInteger('in_print', { mode: 'boolean' }),
});

// What neither Drizzle table can say: which kind a JSON or nanosecond column holds.
const nanosecondFields = {
  fields: {
    title: t.string({ searchable: true }),
    author: t.string({ searchable: true }),
    published: t.timestamp(),
    updated: t.timestamp(),
    tags: t.repeated(t.string()),
    labels: t.map(t.string()),
    summary: t.string(),
  },
};

/**
 * The Drizzle properties of a derived table on one engine: `select` runs a page's clauses on the
 * engine's Drizzle client (MySQL and SQLite: one statement, no settings, no transaction).
 */
function otherEngine(
  open: () => Promise<TestDatabase>,
  dialect: 'mysql' | 'sqlite',
  derived: DrizzleListTable,
  select: (db: TestDatabase, page: DrizzlePage) => Promise<Record<string, unknown>[]>,
) {
  let db: TestDatabase;
  const books = booksOn(dialect);
  beforeAll(async () => {
    db = await open();
    for (const ddl of books.ddl) await db.exec(ddl);
  }, 120_000);
  afterAll(async () => {
    for (const ddl of books.drop) await db?.exec(ddl);
    await db?.close();
  });

  it('derives the schema and the columns from the Drizzle table', () => {
    expect(derived.table.dialect.name).toBe(dialect);
    expect(derived.schema.key).toBe('id');
    expect(derived.schema.fields.pages).toEqual(t.int64());
    expect(derived.schema.fields.inPrint).toEqual(t.bool());
    expect(derived.schema.fields.genre?.kind).toBe('enum');
    expect(derived.table.column('published')?.storage).toBe(
      dialect === 'mysql' ? 'decimal' : 'text',
    );
  });

  it('reads doubles exactly through the builder (MariaDB: its text protocol)', async () => {
    const run: SqlRunner = (_statements, plan) => select(db, drizzlePage(plan!));
    const rating = '9.987849445826793'; // MariaDB's text protocol wrote it as …791
    await books.load(db, [{ id: '1', rating }]);
    const page = await listFromSql<{ rating?: number }>(
      { pageSize: 5 },
      { table: derived.table, pageTokens: codec, run },
    );
    expect(page.items.map((b) => b.rating)).toEqual([Number(rating)]);
  });

  it('lists each page through Drizzle as the in-memory Collection does', async () => {
    const run: SqlRunner = (_statements, plan) => select(db, drizzlePage(plan!));
    await drizzleProperty(derived, (rows) => books.load(db, rows), run);
  }, 600_000);
}

/** Pages through Drizzle equal the Collection's over the rows as read back, tokens shared. */
async function drizzleProperty(
  { schema, table }: DrizzleListTable,
  load: (rows: Record<string, string | null>[]) => Promise<object[]>,
  run: SqlRunner,
) {
  await fc.assert(
    fc.asyncProperty(rowsArb, requestArb, async (rows, request) => {
      const resources = await load(rows);
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
}

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
    await drizzleProperty({ schema, table }, (rows) => loadBooks(db, rows), run);
  }, 600_000);
}

describe('a Drizzle table on PGlite', () => suite(openPglite));

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `a Drizzle table on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => suite(openPostgres),
);

describe('a Drizzle sqlite-core table on SQLite', () =>
  otherEngine(openSqlite, 'sqlite', drizzleListTable(sqliteBooks, nanosecondFields), (db, page) =>
    drizzleSqlite({ client: db.driver as BetterSqlite3.Database })
      .select(page.columns)
      .from(sqliteBooks)
      .where(page.where)
      .orderBy(page.orderBy)
      .limit(page.limit),
  ));

const noMariadb = mariadbSkipReason();
describe.skipIf(noMariadb !== undefined)(
  `a Drizzle mysql-core table on a MariaDB server${noMariadb ? ` (skipped: ${noMariadb})` : ''}`,
  () =>
    otherEngine(
      openMariadb,
      'mysql',
      drizzleListTable(mysqlBooks, {
        ...nanosecondFields,
        // Strings compared as bytes whatever the column's collation.
      }),
      (db, page) =>
        drizzleMysql({ client: db.driver as MysqlPromisePool })
          .select(page.columns)
          .from(mysqlBooks)
          .where(page.where)
          .orderBy(page.orderBy)
          .limit(page.limit),
    ),
);
