// Databases for the SQL planner's tests: PGlite and SQLite in-process (always), the PostgreSQL
// server named by LISTKIT_PG_URL (.ci/with-postgres.sh starts a throwaway one) and the MariaDB
// server named by LISTKIT_MARIADB_URL (.ci/with-mariadb.sh).
import { PGlite } from '@electric-sql/pglite';
import {
  mysql2Runner,
  pgliteRunner,
  pgRunner,
  type SqlDialectName,
  type SqlRunner,
  type SqlTable,
  simpleQueryText,
  sqlDialect,
  sqliteRunner,
} from '@listkit/query/sql';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

/** One database as the tests use it. */
export interface TestDatabase {
  readonly name: string;
  /** The SQL dialect its tables are laid out in. */
  readonly dialect: SqlDialectName;
  exec(sql: string): Promise<void>;
  query(text: string, params?: readonly (string | null)[]): Promise<Record<string, unknown>[]>;
  /** Statements in one transaction (what listFromSql needs). */
  run: SqlRunner;
  /** The same as one simple query (`simpleQueryText`): one message, one implicit transaction. */
  runOneQuery: SqlRunner;
  close(): Promise<void>;
  /** The driver's own object (a PGlite, a pg.Client, a better-sqlite3 Database), for query builders. */
  readonly driver: unknown;
  /** Replaces a table's rows, where one multi-row INSERT with bare `$n` does not do (Spanner). */
  load?(table: SqlTable, resources: object[]): Promise<void>;
  /** Writes statements (`$n` placeholders) in one transaction, where one each is slow (Spanner). */
  writeAll?(
    statements: readonly { text: string; params: readonly (string | null)[] }[],
  ): Promise<void>;
}

export async function openPglite(): Promise<TestDatabase> {
  const db = await PGlite.create();
  await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm').catch(() => undefined);
  return {
    name: 'PGlite',
    dialect: 'postgres',
    exec: async (sql) => {
      await db.exec(sql);
    },
    query: async (text, params = []) =>
      (await db.query<Record<string, unknown>>(text, [...params])).rows,
    run: pgliteRunner(db),
    runOneQuery: async (statements) =>
      ((await db.exec(simpleQueryText(statements))).at(-1)?.rows ?? []) as Record<
        string,
        unknown
      >[],
    close: () => db.close(),
    driver: db,
  };
}

/** Why server tests are skipped, or undefined when a server is configured. */
export function postgresSkipReason(): string | undefined {
  if (process.env.LISTKIT_PG_URL) return undefined;
  const reason =
    'no PostgreSQL server configured: set LISTKIT_PG_URL (or run under .ci/with-postgres.sh)';
  if (process.env.LISTKIT_REQUIRE_PG === '1') throw new Error(`LISTKIT_REQUIRE_PG=1 but ${reason}`);
  return reason;
}

// int8, numeric and timestamps stay text: values round-trip exactly (no Number, no Date).
const EXACT_AS_TEXT = new Set([20, 1700, 1114, 1184]);

export async function openPostgres(): Promise<TestDatabase> {
  const url = process.env.LISTKIT_PG_URL;
  if (!url) throw new Error('LISTKIT_PG_URL is not set');
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        EXACT_AS_TEXT.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as never,
    },
  });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm').catch(() => undefined);
  const pgRunnerOf = pgRunner(client);
  let queue: Promise<unknown> = Promise.resolve();
  // One client: transactions must not interleave, so calls wait their turn.
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    name: 'PostgreSQL',
    dialect: 'postgres',
    exec: (sql) => serial(async () => void (await client.query(sql))),
    query: (text, params = []) => serial(async () => (await client.query(text, [...params])).rows),
    // pgRunner keeps its own turn on the client; exec and query keep theirs.
    run: (statements) => serial(() => pgRunnerOf(statements)),
    runOneQuery: (statements) =>
      serial(async () => {
        // Without parameters node-postgres sends one simple query; several statements give an array.
        const results = (await client.query(simpleQueryText(statements))) as unknown as
          | pg.QueryResult
          | pg.QueryResult[];
        return (Array.isArray(results) ? results.at(-1)! : results).rows;
      }),
    close: () => client.end(),
    driver: client,
  };
}

/**
 * SQLite in memory through better-sqlite3. `query` takes `$n` placeholders, as the other
 * databases' do (written as SQLite's `?` by the dialect); a page is one transaction, so
 * `runOneQuery` is `run`.
 */
export async function openSqlite(
  db: Database.Database = new Database(':memory:'),
): Promise<TestDatabase> {
  const dialect = sqlDialect('sqlite');
  const run = sqliteRunner(db);
  return {
    name: 'SQLite',
    dialect: 'sqlite',
    exec: async (sql) => {
      db.exec(sql);
    },
    query: async (text, params = []) => {
      const s = dialect.finish({ text, params });
      const statement = db.prepare(s.text);
      if (!statement.reader) {
        statement.run(...s.params);
        return [];
      }
      return statement.all(...s.params) as Record<string, unknown>[];
    },
    run,
    runOneQuery: run,
    close: async () => {
      db.close();
    },
    driver: db,
  };
}

/** Why MariaDB tests are skipped, or undefined when a server is configured. */
export function mariadbSkipReason(): string | undefined {
  if (process.env.LISTKIT_MARIADB_URL) return undefined;
  const reason =
    'no MariaDB server configured: set LISTKIT_MARIADB_URL (or run under .ci/with-mariadb.sh)';
  if (process.env.LISTKIT_REQUIRE_MARIADB === '1') {
    throw new Error(`LISTKIT_REQUIRE_MARIADB=1 but ${reason}`);
  }
  return reason;
}

/**
 * The MariaDB server of LISTKIT_MARIADB_URL through mysql2 (one pool per test file). `query`
 * takes `$n` placeholders, written as `?` by the dialect; `runOneQuery` is `run` (each page is
 * one statement).
 */
export async function openMariadb(): Promise<TestDatabase> {
  const url = process.env.LISTKIT_MARIADB_URL;
  if (!url) throw new Error('LISTKIT_MARIADB_URL is not set');
  const pool = mysql.createPool({ uri: url, connectionLimit: 4, charset: 'utf8mb4' });
  const dialect = sqlDialect('mysql');
  const run = mysql2Runner(pool);
  return {
    name: 'MariaDB',
    dialect: 'mysql',
    exec: async (sql) => {
      await pool.query(sql);
    },
    query: async (text, params = []) => {
      const s = dialect.finish({ text, params });
      const [rows] = await pool.execute(s.text, [...s.params]);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    },
    run,
    runOneQuery: run,
    close: () => pool.end(),
    driver: pool,
  };
}
