// Each query builder's SqlRunner over a test database (test/support/sql-databases.ts), written as
// a builder's user writes it: the page's clauses added to the builder's own select from the table.
// One builder client per database (created on first use, closed by closeBuilders).
import type { PGlite } from '@electric-sql/pglite';
import { drizzlePage, drizzleSql } from '@listkit/query/drizzle';
import { kyselyPage, kyselySql } from '@listkit/query/kysely';
import type { SqlRunner, SqlStatement, SqlTable } from '@listkit/query/sql';
import { typeormPage } from '@listkit/query/typeorm';
import type BetterSqlite3 from 'better-sqlite3';
import { sql as drizzleRaw } from 'drizzle-orm';
import { type BetterSQLite3Database, drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql, type MySql2Database } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Kysely, MysqlDialect, type MysqlPool, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { KyselyPGlite } from 'kysely-pglite';
import { createPool as createMysqlPool } from 'mysql2';
import type { Pool as MysqlPromisePool } from 'mysql2/promise';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { openSpanner } from './spanner-database.js';
import { openMariadb, openPostgres, openSqlite, type TestDatabase } from './sql-databases.js';
import type { RunnerOf } from './sql-properties.js';

const closers: (() => Promise<unknown>)[] = [];

/** Closes every builder client the runners opened. */
export async function closeBuilders(): Promise<void> {
  for (const close of closers.splice(0)) await close();
}

/** A runner per database, made once. */
function perDatabase<C>(
  make: (db: TestDatabase) => C,
  runner: (client: C, table: SqlTable, db: TestDatabase) => SqlRunner,
): RunnerOf {
  const clients = new WeakMap<TestDatabase, C>();
  return (db, table) => {
    let client = clients.get(db);
    if (client === undefined) {
      client = make(db);
      clients.set(db, client);
    }
    return runner(client, table, db);
  };
}

/**
 * The statements with the builder's page in place of the planned one, run by the test
 * database's bare runner (`sqliteRunner`, `pgliteRunner`, `pgRunner` over the same connection):
 * docs/query-builders.md, "Built by the builder, run by listkit's runner". The values are the
 * plan's text (or NULL) and the builders' LIMIT, a number, which the drivers bind as they are.
 */
const runCompiled = (
  db: TestDatabase,
  statements: readonly SqlStatement[],
  text: string,
  params: readonly unknown[],
) => db.run([...statements.slice(0, -1), { text, params: params as (string | null)[] }]);

/** The table's name as builders take it (the tests' names need no quotes). */
const bare = (table: SqlTable) => table.name.slice(1, -1);

// biome-ignore lint/suspicious/noExplicitAny: the tests' tables are not declared to Kysely
type AnyKysely = Kysely<any>;

/** A Kysely client over a test database, in its dialect. */
const newKysely = (db: TestDatabase): AnyKysely => {
  const dialect =
    db.dialect === 'sqlite'
      ? new SqliteDialect({ database: db.driver as BetterSqlite3.Database })
      : db.dialect === 'mysql'
        ? new MysqlDialect({
            // Kysely takes mysql2's callback pool (its own type for it is narrower than mysql2's).
            pool: createMysqlPool({
              uri: process.env.LISTKIT_MARIADB_URL,
              connectionLimit: 2,
            }) as unknown as MysqlPool,
          })
        : db.name === 'PGlite'
          ? new KyselyPGlite(db.driver as PGlite).dialect
          : new PostgresDialect({
              pool: new pg.Pool({ connectionString: process.env.LISTKIT_PG_URL, max: 1 }),
            });
  const kysely: AnyKysely = new Kysely({ dialect });
  // PGlite and better-sqlite3 belong to the test database, which closes them.
  if (dialect instanceof PostgresDialect || dialect instanceof MysqlDialect) {
    closers.push(() => kysely.destroy());
  }
  return kysely;
};

export const kyselyRunner: RunnerOf = perDatabase(
  newKysely,
  (db, table) => (statements, plan) =>
    db.transaction().execute(async (tx) => {
      for (const s of statements.slice(0, -1))
        await sql`${kyselySql(s.text, s.params)}`.execute(tx);
      const page = kyselyPage(plan!);
      return tx
        .selectFrom(bare(table))
        .select(page.columns)
        .where(page.where)
        .orderBy(page.orderBy)
        .limit(page.limit)
        .execute();
    }),
);

/** Kysely's page compiled (`compile()`) and run by the bare runner. */
export const kyselyCompiledRunner: RunnerOf = perDatabase(
  newKysely,
  (kysely, table, db) => (statements, plan) => {
    const page = kyselyPage(plan!);
    const query = kysely
      .selectFrom(bare(table))
      .select(page.columns)
      .where(page.where)
      .orderBy(page.orderBy)
      .limit(page.limit)
      .compile();
    return runCompiled(db, statements, query.sql, query.parameters);
  },
);

type DrizzleClient =
  | { readonly sqlite: BetterSQLite3Database }
  | { readonly mysql: MySql2Database }
  | { readonly pg: PgDatabase<PgQueryResultHKT> };

/** A Drizzle client over a test database's own driver. */
const newDrizzle = (db: TestDatabase): DrizzleClient =>
  db.dialect === 'sqlite'
    ? { sqlite: drizzleSqlite({ client: db.driver as BetterSqlite3.Database }) }
    : db.dialect === 'mysql'
      ? { mysql: drizzleMysql({ client: db.driver as MysqlPromisePool }) }
      : {
          pg:
            db.name === 'PGlite'
              ? drizzlePglite({ client: db.driver as PGlite })
              : drizzlePg({ client: db.driver as pg.Client }),
        };

export const drizzleRunner: RunnerOf = perDatabase(
  newDrizzle,
  (client, table) => async (statements, plan) => {
    const page = drizzlePage(plan!);
    const from = drizzleRaw.raw(table.name);
    if ('mysql' in client) {
      // MySQL has no settings statement either: one statement, one snapshot.
      return client.mysql
        .select(page.columns)
        .from(from)
        .where(page.where)
        .orderBy(page.orderBy)
        .limit(page.limit);
    }
    if ('sqlite' in client) {
      // SQLite has no settings statement: the page is one statement, which needs no transaction.
      return client.sqlite
        .select(page.columns)
        .from(from)
        .where(page.where)
        .orderBy(page.orderBy)
        .limit(page.limit);
    }
    return client.pg.transaction(async (tx) => {
      for (const s of statements.slice(0, -1)) await tx.execute(drizzleSql(s.text, s.params));
      return tx
        .select(page.columns)
        .from(from)
        .where(page.where)
        .orderBy(page.orderBy)
        .limit(page.limit);
    });
  },
);

/** Drizzle's page as text and values (`toSQL()`), run by the bare runner. */
export const drizzleCompiledRunner: RunnerOf = perDatabase(
  newDrizzle,
  (client, table, db) => (statements, plan) => {
    const page = drizzlePage(plan!);
    const from = drizzleRaw.raw(table.name);
    // Not on MySQL (docs/query-builders.md): the plan's time limit is in the planned text.
    if ('mysql' in client) throw new Error('the compiled path is not offered on MySQL');
    // Each core's select written out: their builders' types do not unite.
    const query =
      'sqlite' in client
        ? client.sqlite
            .select(page.columns)
            .from(from)
            .where(page.where)
            .orderBy(page.orderBy)
            .limit(page.limit)
            .toSQL()
        : client.pg
            .select(page.columns)
            .from(from)
            .where(page.where)
            .orderBy(page.orderBy)
            .limit(page.limit)
            .toSQL();
    return runCompiled(db, statements, query.sql, query.params);
  },
);

/**
 * TypeORM on an engine: `open` starts its DataSource (a PostgreSQL pool, or a better-sqlite3
 * database, which the test database then uses so that both see the same rows) and opens the test
 * database; `runner` builds each page with a query builder of that DataSource.
 */
export function typeormOn(engine: 'postgres' | 'sqlite' | 'mysql' | 'spanner'): {
  open: () => Promise<TestDatabase>;
  runner: RunnerOf;
  /** The page built by TypeORM (`getQueryAndParameters()`) and run by the bare runner. */
  compiled: RunnerOf;
} {
  let source: DataSource | undefined;
  const open = async () => {
    if (engine === 'spanner') {
      // TypeORM's own Spanner driver over the test database on the emulator.
      const db = await openSpanner();
      source = new DataSource({
        type: 'spanner',
        projectId: process.env.LISTKIT_SPANNER_PROJECT ?? 'listkit-test',
        instanceId: process.env.LISTKIT_SPANNER_INSTANCE ?? 'listkit',
        databaseId: db.database.formattedName_.split('/').at(-1)!,
      });
      await source.initialize();
      const opened = source;
      closers.push(() => (opened.isInitialized ? opened.destroy() : Promise.resolve()));
      return db;
    }
    source =
      engine === 'sqlite'
        ? new DataSource({ type: 'better-sqlite3', database: ':memory:' })
        : engine === 'mysql'
          ? new DataSource({ type: 'mysql', ...mariadbLogin(), poolSize: 2 })
          : new DataSource({ type: 'postgres', url: process.env.LISTKIT_PG_URL, poolSize: 1 });
    await source.initialize();
    const opened = source;
    closers.push(() => (opened.isInitialized ? opened.destroy() : Promise.resolve()));
    if (engine === 'postgres') return openPostgres();
    if (engine === 'mysql') return openMariadb();
    const driver = opened.driver as unknown as { databaseConnection: BetterSqlite3.Database };
    const db = await openSqlite(driver.databaseConnection);
    // TypeORM closes the connection it opened.
    return { ...db, close: async () => undefined };
  };
  const compiled: RunnerOf = (db, table) => (statements, plan) => {
    const qb = source!.createQueryBuilder().from(bare(table), bare(table));
    const [text, params] = typeormPage(qb, plan!).getQueryAndParameters();
    return runCompiled(db, statements, text, params);
  };
  if (engine === 'spanner') {
    // A SELECT outside a transaction: TypeORM reads it in a single-use snapshot.
    const runner: RunnerOf = (_db, table) => (_statements, plan) =>
      typeormPage(source!.createQueryBuilder().from(bare(table), bare(table)), plan!).getRawMany();
    return { open, runner, compiled };
  }
  const runner: RunnerOf = (_db, table) => (statements, plan) =>
    source!.transaction(async (manager) => {
      for (const s of statements.slice(0, -1)) await manager.query(s.text, [...s.params]);
      const qb = manager.createQueryBuilder().from(bare(table), bare(table));
      return typeormPage(qb, plan!).getRawMany();
    });
  return { open, runner, compiled };
}

/** TypeORM's MySQL options for LISTKIT_MARIADB_URL (its `url` drops the socket path). */
function mariadbLogin() {
  const url = new URL(process.env.LISTKIT_MARIADB_URL ?? '');
  return {
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
    ...(url.searchParams.get('socketPath')
      ? { socketPath: url.searchParams.get('socketPath')! }
      : { host: url.hostname, port: Number(url.port || 3306) }),
  };
}
