// A page of 500 by name at 10^5 rows (BENCH_BUILDER_ROWS) built by each query builder
// (@listkit/query/kysely, /drizzle, /typeorm), against listFromSql with the engine's bare runner
// (sqliteRunner, pgliteRunner, pgRunner, mysql2Runner) on the same engine in the same run
// (issue 35: aim within 1.2x), and each builder's page compiled by the builder and run by that
// bare runner ("compiled", "toSQL"; SQLite, PGlite, PostgreSQL). Then each builder ALONE,
// without listkit: the same hand-written keyset statement (`resource` after a name, by name,
// LIMIT 501) through the builder's own query API against the bare driver, which is the builder's
// own fixed cost per page.
// Engines: SQLite in process (better-sqlite3, in memory), PGlite in process (no TypeORM driver),
// PostgreSQL when LISTKIT_PG_URL is set (.ci/with-postgres.sh) and MariaDB when
// LISTKIT_MARIADB_URL is (.ci/with-mariadb.sh). ms per page of consecutive pages after the first,
// the cases taking turns page by page so that the machine's load falls on each alike: the median
// and the fastest on the wall clock (at load 10+ a page that waits on another process, a server's
// or the client's, waits for a core too, and the median swings; the fastest page is the one that
// did not wait, as decision 0081 times the HTTP row), and for in-process engines the median in the
// process's CPU time, which waiting does not inflate. Rows and loading:
// sql-bench-rows.mjs. Prints; never asserts; writes no tracked file.
import { PGlite } from '@electric-sql/pglite';
import { PageTokenCodec } from '@listkit/query';
import { drizzlePage, drizzleSql } from '@listkit/query/drizzle';
import { kyselyPage, kyselySql } from '@listkit/query/kysely';
import {
  listFromSql,
  mysql2Runner,
  pgliteRunner,
  pgRunner,
  sqliteRunner,
  sqlTable,
} from '@listkit/query/sql';
import { typeormPage } from '@listkit/query/typeorm';
import { sql as dsql, gt } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { pgTable, text as pgText } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { sqliteTable, text as sqliteText } from 'drizzle-orm/sqlite-core';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { KyselyPGlite } from 'kysely-pglite';
import { createPool as createMysqlPool } from 'mysql2';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { benchRules, benchSchema, loadMysql, loadPostgres, loadSqlite } from './sql-bench-rows.mjs';

const ROWS = Number(process.env.BENCH_BUILDER_ROWS ?? 100_000);
const PAGES = Number(process.env.BENCH_BUILDER_PAGES ?? 10);
const ROUNDS = Number(process.env.BENCH_BUILDER_ROUNDS ?? 5);
const PAGE = 500;

const now = () => process.hrtime.bigint();
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fastest = (xs) => Math.min(...xs);

const codec = await PageTokenCodec.create();
const resources = benchRules(ROWS);
const sortedNames = resources.map((r) => r.name).sort();
const request = { orderBy: 'name', pageSize: PAGE };

/** Adds the wall-clock and CPU ms of `step` to `times`. */
async function timed(step, state, p, times) {
  const from = now();
  const cpuFrom = cpuNow();
  const next = await step(state, p);
  if (p > 0) {
    times.wall.push(Number(now() - from) / 1e6);
    times.cpu.push((cpuNow() - cpuFrom) / 1e3);
  }
  return next;
}

const listStep = (table, run) => async (pageToken) => {
  const page = await listFromSql({ ...request, pageToken }, { table, pageTokens: codec, run });
  return page.nextPageToken ?? null;
};
// The statement alone: the cursor of page p is the name that ends page p - 1.
const aloneStep = (page) => async (_, p) => {
  await page(p === 0 ? '' : sortedNames[p * PAGE - 1]);
};

/**
 * Each case walks PAGES consecutive pages, ROUNDS times; the cases take turns page by page, so
 * that a burst of load from elsewhere falls on all of them alike. Prints medians and ratios to
 * the first case.
 */
async function compare(name, steps, inProcess) {
  const labels = Object.keys(steps);
  const times = Object.fromEntries(labels.map((k) => [k, { wall: [], cpu: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    const states = Object.fromEntries(labels.map((k) => [k, undefined]));
    for (let p = 0; p <= PAGES; p++) {
      for (const label of labels) {
        if (states[label] === null) continue;
        states[label] = await timed(steps[label], states[label], p, times[label]);
      }
    }
  }
  const [first] = labels;
  const line = (kind, of) =>
    labels
      .map((label) => {
        const m = of(times[label][kind]);
        const base = of(times[first][kind]);
        return label === first
          ? `${label} ${m.toFixed(2)}`
          : `${label} ${m.toFixed(2)} (${(m / base).toFixed(2)}x)`;
      })
      .join('; ');
  console.log(`${name}: wall, median: ${line('wall', median)}`);
  console.log(`${name}: wall, fastest: ${line('wall', fastest)}`);
  if (inProcess) console.log(`${name}: CPU, median: ${line('cpu', median)}`);
}

// Each builder's runner, as docs/query-builders.md writes it: one statement (SQLite, MySQL) is
// one snapshot and runs without a transaction, as the bare runners do.
const kyselyQuery = (db, tableName, page) =>
  db
    .selectFrom(tableName)
    .select(page.columns)
    .where(page.where)
    .orderBy(page.orderBy)
    .limit(page.limit);
const kyselySelect = (db, tableName, page) => kyselyQuery(db, tableName, page).execute();
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

// Built by the builder, run by listkit's runner (docs/query-builders.md): the builder's compiled
// statement in place of the planned one, through the engine's bare runner on the same connection.
const compiledRun = (bare, compile) => (statements, plan) => {
  const { text, params } = compile(plan);
  return bare([...statements.slice(0, -1), { text, params }]);
};
const kyselyCompiled = (db, tableName, bare) =>
  compiledRun(bare, (plan) => {
    const query = kyselyQuery(db, tableName, kyselyPage(plan)).compile();
    return { text: query.sql, params: query.parameters };
  });
const drizzleCompiled = (db, table, bare) =>
  compiledRun(bare, (plan) => {
    const query = drizzleSelect(db, table, drizzlePage(plan)).toSQL();
    return { text: query.sql, params: query.params };
  });
const typeormCompiled = (source, tableName, bare) =>
  compiledRun(bare, (plan) => {
    const qb = source.createQueryBuilder().from(tableName, tableName);
    const [text, params] = typeormPage(qb, plan).getQueryAndParameters();
    return { text, params };
  });
// Drizzle's sqlite-core `values()`: the rows as arrays, keyed here by the page's aliases (tried
// for issue 35; Drizzle's own select already reads arrays and maps them, so this skips only the
// mapping).
const drizzleValues = (db, table) => async (_statements, plan) => {
  const page = drizzlePage(plan);
  const aliases = Object.keys(page.columns);
  const rows = await drizzleSelect(db, table, page).values();
  return rows.map((values) => Object.fromEntries(aliases.map((alias, i) => [alias, values[i]])));
};

// The builders alone: `resource` of the 501 rows after a name, by name, in each one's own words.
const kyselyAlone = (db, tableName) => (after) =>
  db
    .selectFrom(tableName)
    .select('resource')
    .where('name', '>', after)
    .orderBy('name')
    .limit(PAGE + 1)
    .execute();
const drizzleAlone = (db, rules) => (after) =>
  db
    .select({ resource: rules.resource })
    .from(rules)
    .where(gt(rules.name, after))
    .orderBy(rules.name)
    .limit(PAGE + 1);
const typeormAlone = (source, tableName) => (after) =>
  source
    .createQueryBuilder()
    .select('resource')
    .from(tableName, tableName)
    .where('name > :after', { after })
    .orderBy('name')
    .limit(PAGE + 1)
    .getRawMany();

async function sqlite() {
  const source = new DataSource({ type: 'better-sqlite3', database: ':memory:' });
  await source.initialize();
  const db = source.driver.databaseConnection;
  const table = sqlTable(benchSchema, {
    table: 'rules',
    dialect: 'sqlite',
    required: ['creationTimestamp'],
  });
  loadSqlite(db, table, resources);
  const kysely = new Kysely({ dialect: new SqliteDialect({ database: db }) });
  const drizzle = drizzleSqlite({ client: db });
  const name = 'SQLite (better-sqlite3, in memory)';
  const run = sqliteRunner(db);
  await compare(
    `${name}, through listFromSql`,
    {
      'bare runner': listStep(table, run),
      kysely: listStep(table, kyselyRun(kysely, 'rules')),
      drizzle: listStep(table, drizzleRun(drizzle, table)),
      typeorm: listStep(table, typeormRun(source, 'rules')),
      'kysely compiled': listStep(table, kyselyCompiled(kysely, 'rules', run)),
      'drizzle toSQL': listStep(table, drizzleCompiled(drizzle, table, run)),
      'typeorm compiled': listStep(table, typeormCompiled(source, 'rules', run)),
      'drizzle values()': listStep(table, drizzleValues(drizzle, table)),
    },
    true,
  );
  const statement = db.prepare(
    `SELECT resource FROM rules WHERE name > ? ORDER BY name LIMIT ${PAGE + 1}`,
  );
  const rules = sqliteTable('rules', {
    name: sqliteText('name'),
    resource: sqliteText('resource'),
  });
  await compare(
    `${name}, the builder alone`,
    {
      'prepared statement': aloneStep(async (after) => statement.all(after)),
      kysely: aloneStep(kyselyAlone(kysely, 'rules')),
      drizzle: aloneStep(drizzleAlone(drizzle, rules)),
      typeorm: aloneStep(typeormAlone(source, 'rules')),
      // The bare runner makes its rows from plucked values, which no builder's driver does.
      sqliteRunner: aloneStep((after) => run([{ text: statement.source, params: [after] }])),
    },
    true,
  );
  await source.destroy();
}

async function pglite() {
  const db = await PGlite.create();
  const table = sqlTable(benchSchema, { table: 'rules', required: ['creationTimestamp'] });
  await loadPostgres(
    { query: (text, params) => db.query(text, params), exec: (text) => db.exec(text) },
    table,
    resources,
  );
  const kysely = new Kysely({ dialect: new KyselyPGlite(db).dialect });
  const drizzle = drizzlePglite({ client: db });
  const name = 'PGlite (in process; TypeORM has no PGlite driver)';
  const run = pgliteRunner(db);
  await compare(
    `${name}, through listFromSql`,
    {
      'bare runner': listStep(table, run),
      kysely: listStep(table, kyselyRun(kysely, 'rules')),
      drizzle: listStep(table, drizzleRun(drizzle, table)),
      'kysely compiled': listStep(table, kyselyCompiled(kysely, 'rules', run)),
      'drizzle toSQL': listStep(table, drizzleCompiled(drizzle, table, run)),
    },
    true,
  );
  const text = `SELECT resource FROM rules WHERE name > $1 ORDER BY name LIMIT ${PAGE + 1}`;
  const rules = pgTable('rules', { name: pgText('name'), resource: pgText('resource') });
  await compare(
    `${name}, the builder alone`,
    {
      'bare query': aloneStep((after) => db.query(text, [after])),
      kysely: aloneStep(kyselyAlone(kysely, 'rules')),
      drizzle: aloneStep(drizzleAlone(drizzle, rules)),
    },
    true,
  );
  await db.close();
}

async function postgres() {
  const url = process.env.LISTKIT_PG_URL;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const name = `bench_builders_${process.pid}`;
  const table = sqlTable(benchSchema, { table: name, required: ['creationTimestamp'] });
  await loadPostgres(
    { query: (text, params) => pool.query(text, params), exec: (text) => pool.query(text) },
    table,
    resources,
  );
  const kysely = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
  });
  const drizzlePool = new pg.Pool({ connectionString: url, max: 1 });
  const drizzle = drizzlePg({ client: drizzlePool });
  const source = new DataSource({ type: 'postgres', url, poolSize: 1 });
  await source.initialize();
  const engine = 'PostgreSQL (node-postgres, one connection each)';
  const run = pgRunner(pool);
  await compare(`${engine}, through listFromSql`, {
    'bare runner': listStep(table, run),
    kysely: listStep(table, kyselyRun(kysely, name)),
    drizzle: listStep(table, drizzleRun(drizzle, table)),
    typeorm: listStep(table, typeormRun(source, name)),
    'kysely compiled': listStep(table, kyselyCompiled(kysely, name, run)),
    'drizzle toSQL': listStep(table, drizzleCompiled(drizzle, table, run)),
    'typeorm compiled': listStep(table, typeormCompiled(source, name, run)),
  });
  const text = `SELECT resource FROM ${name} WHERE name > $1 ORDER BY name LIMIT ${PAGE + 1}`;
  const rules = pgTable(name, { name: pgText('name'), resource: pgText('resource') });
  await compare(`${engine}, the builder alone`, {
    'bare query': aloneStep((after) => pool.query(text, [after])),
    kysely: aloneStep(kyselyAlone(kysely, name)),
    drizzle: aloneStep(drizzleAlone(drizzle, rules)),
    typeorm: aloneStep(typeormAlone(source, name)),
  });
  await pool.query(`DROP TABLE ${table.name}`);
  await Promise.all([pool.end(), kysely.destroy(), drizzlePool.end(), source.destroy()]);
}

async function mariadb() {
  const url = process.env.LISTKIT_MARIADB_URL;
  const pool = mysql.createPool({ uri: url, connectionLimit: 1 });
  const name = `bench_builders_${process.pid}`;
  const table = sqlTable(benchSchema, {
    table: name,
    dialect: 'mysql',
    required: ['creationTimestamp'],
  });
  await loadMysql(pool, table, resources);
  const kysely = new Kysely({
    dialect: new MysqlDialect({ pool: createMysqlPool({ uri: url, connectionLimit: 1 }) }),
  });
  const drizzlePool = mysql.createPool({ uri: url, connectionLimit: 1 });
  const drizzle = drizzleMysql({ client: drizzlePool });
  const socket = new URL(url).searchParams.get('socketPath');
  const source = new DataSource({
    type: 'mysql',
    username: 'root',
    database: new URL(url).pathname.slice(1),
    ...(socket ? { socketPath: socket } : { url }),
    poolSize: 1,
  });
  await source.initialize();
  const engine = 'MariaDB (mysql2, one connection each)';
  await compare(`${engine}, through listFromSql`, {
    'bare runner': listStep(table, mysql2Runner(pool)),
    kysely: listStep(table, kyselyRun(kysely, name)),
    drizzle: listStep(table, drizzleRun(drizzle, table)),
    typeorm: listStep(table, typeormRun(source, name)),
  });
  const text = `SELECT resource FROM ${name} WHERE name > ? ORDER BY name LIMIT ${PAGE + 1}`;
  const rules = mysqlTable(name, {
    name: varchar('name', { length: 1024 }),
    resource: varchar('resource', { length: 1024 }),
  });
  await compare(`${engine}, the builder alone`, {
    'prepared statement': aloneStep((after) => pool.execute(text, [after])),
    kysely: aloneStep(kyselyAlone(kysely, name)),
    drizzle: aloneStep(drizzleAlone(drizzle, rules)),
    typeorm: aloneStep(typeormAlone(source, name)),
  });
  await pool.query(`DROP TABLE ${table.name}`);
  await Promise.all([pool.end(), kysely.destroy(), drizzlePool.end(), source.destroy()]);
}

console.log(
  `Query builders: a page of ${PAGE} by name at ${ROWS} rows (ms per page, median; ratio to the first of each line)`,
);
await sqlite();
await pglite();
if (process.env.LISTKIT_PG_URL) await postgres();
if (process.env.LISTKIT_MARIADB_URL) await mariadb();
