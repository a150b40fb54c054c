import pg from 'pg';
import { batchText, runBatchedTransaction } from './batched-transaction.js';
import type { SqlDatabase, SqlRows } from './sql-database.js';

// int8, numeric, timestamp and timestamptz stay text: values round-trip exactly (no Number
// rounding past 2^53, no Date cutting nanoseconds to milliseconds).
const EXACT_AS_TEXT = new Set([20, 1700, 1114, 1184]);

/**
 * Options of {@link openPostgresDatabase}.
 *
 * @example
 * ```ts
 * await openPostgresDatabase({ url: 'postgres://listkit@localhost/listkit', maxConnections: 4 });
 * ```
 */
export interface PostgresDatabaseOptions {
  /** `postgres://user@host/db` (libpq-style options such as `?host=/socket/dir` allowed). */
  url: string;
  /** The most connections this process opens (default 10). */
  maxConnections?: number;
}

/**
 * A PostgreSQL server through a `pg` pool; each transaction takes one connection. Many
 * processes may open the same database.
 *
 * @example
 * ```ts
 * const db = await openPostgresDatabase({ url: process.env.LISTKIT_DATABASE_URL! });
 * ```
 */
export async function openPostgresDatabase(options: PostgresDatabaseOptions): Promise<SqlDatabase> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        EXACT_AS_TEXT.has(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) as never,
    },
  });
  // An idle client's error (the server restarting) must not crash the process; the next query
  // gets a fresh connection.
  pool.on('error', () => undefined);
  const probe = await pool.connect().catch((error: unknown) => {
    throw new Error(
      `cannot connect to the PostgreSQL database (${redact(options.url)}): ${(error as Error).message}`,
    );
  });
  probe.release();
  return {
    kind: 'postgres',
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async (text, params = []) => (await client.query(text, [...params])).rows,
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    outsideTransaction: async (text) => {
      await pool.query(text);
    },
    statement: async (text, params = []) => (await pool.query(text, [...params])).rows,
    // A text without parameters goes as one simple query; the server's statement_timeout is
    // set by the text itself (listStatementSettings), so `settings` has nothing to add.
    batch: async (statements) => {
      const text = batchText(statements);
      return rowsOf(await pool.query(text));
    },
    batchedTransaction: async (work) => {
      const client = await pool.connect();
      try {
        return await runBatchedTransaction(async (text) => rowsOf(await client.query(text)), work);
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Each statement's rows: node-postgres answers a text of one statement with one result, not a list. */
function rowsOf(result: pg.QueryResult | pg.QueryResult[]): SqlRows[] {
  return Array.isArray(result) ? result.map((r) => r.rows) : [result.rows];
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparseable URL';
  }
}
