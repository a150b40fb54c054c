// A page of 500 by name at 10^5 rows (BENCH_BUILDER_ROWS) built by each query builder
// (@listkit/query/kysely, /drizzle, /typeorm), against listFromSql with the engine's bare runner
// on the same engine in the same run (issue 35: aim within 1.2x). Engines: SQLite in process
// (better-sqlite3, in memory), PGlite in process (no TypeORM driver), PostgreSQL when
// LISTKIT_PG_URL is set and MariaDB when LISTKIT_MARIADB_URL is (.ci/with-mariadb.sh). ms per page: the median of consecutive keyset pages after the first;
// the runners take turns, round after round, so that the machine's load falls on each alike.
// Prints; never asserts; writes no tracked file.
import { PGlite } from '@electric-sql/pglite';
import { defineSchema, PageTokenCodec, t } from '@listkit/query';
import { drizzlePage, drizzleSql } from '@listkit/query/drizzle';
import { kyselyPage, kyselySql } from '@listkit/query/kysely';
import {
  listFromSql,
  mysql2Runner,
  sqliteRunner,
  sqlTable,
  suggestIndexes,
} from '@listkit/query/sql';
import { typeormPage } from '@listkit/query/typeorm';
import { sql as dsql } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { KyselyPGlite } from 'kysely-pglite';
import { createPool as createMysqlPool } from 'mysql2';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { DataSource } from 'typeorm';

const ROWS = Number(process.env.BENCH_BUILDER_ROWS ?? 100_000);
const PAGES = Number(process.env.BENCH_BUILDER_PAGES ?? 10);
const ROUNDS = Number(process.env.BENCH_BUILDER_ROUNDS ?? 5);
const PAGE = 500;
const BATCH = 2000;

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string({ searchable: true }),
    description: t.string({ searchable: true }),
    creationTimestamp: t.timestamp(),
    labels: t.map(t.string()),
  },
});

const now = () => process.hrtime.bigint();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function rules(n) {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed >>> 12;
  };
  return Array.from({ length: n }, (_, i) => ({
    name: `rule-${(next() % 1_000_000).toString(36)}-${i}`,
    description: `forwards ${next() % 100} to pool ${next() % 50}`,
    creationTimestamp: new Date(Date.UTC(2020, 0, 1) + (next() % 100_000_000) * 1000).toISOString(),
    labels: { env: ['prod', 'dev', 'test'][next() % 3], team: `t${next() % 20}` },
  }));
}

const codec = await PageTokenCodec.create();
const resources = rules(ROWS);
const request = { orderBy: 'name', pageSize: PAGE };

/** Times of consecutive pages after the first, one walk of PAGES pages. */
async function walk(table, run, times) {
  let pageToken;
  for (let p = 0; p <= PAGES; p++) {
    const from = now();
    const page = await listFromSql({ ...request, pageToken }, { table, pageTokens: codec, run });
    if (p > 0) times.push(Number(now() - from) / 1e6);
    pageToken = page.nextPageToken;
    if (!pageToken) break;
  }
}

async function compare(name, table, runners) {
  const times = Object.fromEntries(Object.keys(runners).map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const [label, run] of Object.entries(runners)) await walk(table, run, times[label]);
  const bare = median(times.bare);
  const cells = Object.keys(runners).map((label) => {
    const m = median(times[label]);
    return label === 'bare'
      ? `bare runner ${m.toFixed(2)}`
      : `${label} ${m.toFixed(2)} (${(m / bare).toFixed(2)}x)`;
  });
  console.log(`${name}: ${cells.join('; ')}`);
}

const kyselySelect = (db, tableName, page) =>
  db
    .selectFrom(tableName)
    .select(page.columns)
    .where(page.where)
    .orderBy(page.orderBy)
    .limit(page.limit)
    .execute();
// One statement (SQLite) is one snapshot: no transaction, as the bare runner's own is free.
const kyselyRun = (db, tableName) => (statements, plan) =>
  statements.length === 1
    ? kyselySelect(db, tableName, kyselyPage(plan))
    : db.transaction().execute(async (tx) => {
        for (const s of statements.slice(0, -1))
          await sql`${kyselySql(s.text, s.params)}`.execute(tx);
        return kyselySelect(tx, tableName, kyselyPage(plan));
      });
const drizzleSelect = (db, table, page) =>
  db
    .select(page.columns)
    .from(dsql.raw(table.name))
    .where(page.where)
    .orderBy(page.orderBy)
    .limit(page.limit);
const drizzleRun = (db, table) => (statements, plan) =>
  statements.length === 1
    ? drizzleSelect(db, table, drizzlePage(plan))
    : db.transaction(async (tx) => {
        for (const s of statements.slice(0, -1)) await tx.execute(drizzleSql(s.text, s.params));
        return drizzleSelect(tx, table, drizzlePage(plan));
      });
const typeormSelect = (manager, tableName, plan) =>
  typeormPage(manager.createQueryBuilder().from(tableName, tableName), plan).getRawMany();
const typeormRun = (source, tableName) => (statements, plan) =>
  statements.length === 1
    ? typeormSelect(source.manager, tableName, plan)
    : source.transaction(async (manager) => {
        for (const s of statements.slice(0, -1)) await manager.query(s.text, [...s.params]);
        return typeormSelect(manager, tableName, plan);
      });

async function sqlite() {
  const source = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
  await source.initialize();
  const db = source.driver.databaseConnection;
  const table = sqlTable(schema, {
    table: 'rules',
    dialect: 'sqlite',
    required: ['creationTimestamp'],
  });
  db.exec(table.createTable());
  for (const ddl of suggestIndexes(table)) db.exec(ddl);
  const insert = db.prepare(table.insert(resources[0]).text);
  db.transaction(() => {
    for (const r of resources) insert.run(...table.insert(r).params);
  })();
  const kysely = new Kysely({ dialect: new SqliteDialect({ database: db }) });
  await compare('SQLite (better-sqlite3, in memory)', table, {
    bare: sqliteRunner(db),
    kysely: kyselyRun(kysely, 'rules'),
    drizzle: drizzleRun(drizzleSqlite({ client: db }), table),
    typeorm: typeormRun(source, 'rules'),
  });
  await source.destroy();
}

async function loadPg(query, exec, table) {
  await exec(table.createTable());
  for (const ddl of suggestIndexes(table)) await exec(ddl);
  const cols = table.insertColumns;
  for (let i = 0; i < resources.length; i += BATCH) {
    const batch = resources.slice(i, i + BATCH);
    const values = batch.map(
      (_, r) => `(${cols.map((_, c) => `$${r * cols.length + c + 1}`).join(', ')})`,
    );
    await query(
      `INSERT INTO ${table.name} (${cols.join(', ')}) VALUES ${values.join(', ')}`,
      batch.flatMap((r) => table.row(r)),
    );
  }
  await exec(`ANALYZE ${table.name}`);
}

async function pglite() {
  const db = await PGlite.create();
  const table = sqlTable(schema, { table: 'rules', required: ['creationTimestamp'] });
  await loadPg(
    (text, params) => db.query(text, params),
    (text) => db.exec(text),
    table,
  );
  const bare = (statements) =>
    db.transaction(async (tx) => {
      let rows = [];
      for (const s of statements) rows = (await tx.query(s.text, [...s.params])).rows;
      return rows;
    });
  await compare('PGlite (in process; TypeORM has no PGlite driver)', table, {
    bare,
    kysely: kyselyRun(new Kysely({ dialect: new KyselyPGlite(db).dialect }), 'rules'),
    drizzle: drizzleRun(drizzlePglite({ client: db }), table),
  });
  await db.close();
}

async function postgres() {
  const url = process.env.LISTKIT_PG_URL;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const name = `bench_builders_${process.pid}`;
  const table = sqlTable(schema, { table: name, required: ['creationTimestamp'] });
  await loadPg(
    (text, params) => pool.query(text, params),
    (text) => pool.query(text),
    table,
  );
  const bare = async (statements) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      let rows = [];
      for (const s of statements) rows = (await client.query(s.text, [...s.params])).rows;
      await client.query('COMMIT');
      return rows;
    } finally {
      client.release();
    }
  };
  const kysely = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
  });
  const drizzlePool = new pg.Pool({ connectionString: url, max: 1 });
  const source = new DataSource({ type: 'postgres', url, poolSize: 1 });
  await source.initialize();
  await compare('PostgreSQL (node-postgres, one connection each)', table, {
    bare,
    kysely: kyselyRun(kysely, name),
    drizzle: drizzleRun(drizzlePg({ client: drizzlePool }), table),
    typeorm: typeormRun(source, name),
  });
  await pool.query(`DROP TABLE ${table.name}`);
  await Promise.all([pool.end(), kysely.destroy(), drizzlePool.end(), source.destroy()]);
}

async function mariadb() {
  const url = process.env.LISTKIT_MARIADB_URL;
  const pool = mysql.createPool({ uri: url, connectionLimit: 1 });
  const name = `bench_builders_${process.pid}`;
  const table = sqlTable(schema, {
    table: name,
    dialect: 'mysql',
    required: ['creationTimestamp'],
  });
  await pool.query(`DROP TABLE IF EXISTS ${table.name}`);
  await pool.query(table.createTable());
  for (const ddl of suggestIndexes(table)) await pool.query(ddl);
  const cols = table.insertColumns;
  for (let i = 0; i < resources.length; i += BATCH) {
    const batch = resources.slice(i, i + BATCH);
    const values = batch.map(() => `(${cols.map(() => '?').join(', ')})`);
    await pool.execute(
      `INSERT INTO ${table.name} (${cols.join(', ')}) VALUES ${values.join(', ')}`,
      batch.flatMap((r) => table.row(r)),
    );
  }
  await pool.query(`ANALYZE TABLE ${table.name}`);
  const kysely = new Kysely({
    dialect: new MysqlDialect({ pool: createMysqlPool({ uri: url, connectionLimit: 1 }) }),
  });
  const drizzlePool = mysql.createPool({ uri: url, connectionLimit: 1 });
  const socket = new URL(url).searchParams.get('socketPath');
  const source = new DataSource({
    type: 'mysql',
    username: 'root',
    database: new URL(url).pathname.slice(1),
    ...(socket ? { socketPath: socket } : { url }),
    poolSize: 1,
  });
  await source.initialize();
  await compare('MariaDB (mysql2, one connection each)', table, {
    bare: mysql2Runner(pool),
    kysely: kyselyRun(kysely, name),
    drizzle: drizzleRun(drizzleMysql({ client: drizzlePool }), table),
    typeorm: typeormRun(source, name),
  });
  await pool.query(`DROP TABLE ${table.name}`);
  await Promise.all([pool.end(), kysely.destroy(), drizzlePool.end(), source.destroy()]);
}

console.log(
  `Query builders: a page of ${PAGE} by name at ${ROWS} rows (ms per page, median; ratio to the bare runner)`,
);
await sqlite();
await pglite();
if (process.env.LISTKIT_PG_URL) await postgres();
if (process.env.LISTKIT_MARIADB_URL) await mariadb();
