import type { SqlRunner } from '../../list-from-sql.js';
import type { SqlStatement } from '../../sql-statement.js';

/**
 * What {@link mysql2Runner} needs of a mysql2 connection from `mysql2/promise` (3.x): `execute`
 * (server-side prepared statements, so values never become SQL text) and `query` for the
 * transaction's own statements. The library imports no driver; pass yours.
 *
 * @example
 * ```ts
 * import mysql from 'mysql2/promise';
 * const connection: Mysql2Connection = await mysql.createConnection(url);
 * ```
 */
export interface Mysql2Connection {
  execute(sql: string, values: (string | null)[]): Promise<[unknown, unknown]>;
  query(sql: string): Promise<unknown>;
}

/**
 * What {@link mysql2Runner} needs of a mysql2 pool (`mysql.createPool(…)` from
 * `mysql2/promise`): a connection per page, given back after it.
 *
 * @example
 * ```ts
 * import mysql from 'mysql2/promise';
 * const pool: Mysql2Pool = mysql.createPool({ uri: url, connectionLimit: 10 });
 * ```
 */
export interface Mysql2Pool {
  getConnection(): Promise<Mysql2Connection & { release(): void }>;
}

/**
 * A {@link SqlRunner} over mysql2 (MySQL or MariaDB): each page on one connection, in one
 * read-only transaction when it has more than one statement (one statement is one snapshot
 * already). Given a pool, each page takes a connection and gives it back; given a single
 * connection, pages wait their turn on it.
 *
 * @example
 * ```ts
 * import mysql from 'mysql2/promise';
 * const pool = mysql.createPool({ uri: process.env.DATABASE_URL });
 * const table = sqlTable(schema, { table: 'rules', dialect: 'mysql' });
 * const page = await listFromSql(request, { table, pageTokens, run: mysql2Runner(pool) });
 * ```
 */
export function mysql2Runner(driver: Mysql2Pool | Mysql2Connection): SqlRunner {
  if ('getConnection' in driver) {
    return async (statements) => {
      const connection = await driver.getConnection();
      try {
        return await runOn(connection, statements);
      } finally {
        connection.release();
      }
    };
  }
  let queue: Promise<unknown> = Promise.resolve();
  return (statements) => {
    const page = queue.then(() => runOn(driver, statements));
    queue = page.catch(() => undefined);
    return page;
  };
}

async function runOn(
  connection: Mysql2Connection,
  statements: readonly SqlStatement[],
): Promise<Record<string, unknown>[]> {
  const execute = async ({ text, params }: SqlStatement) =>
    (await connection.execute(text, [...params]))[0];
  if (statements.length === 1) return rowsOf(await execute(statements[0]!));
  await connection.query('START TRANSACTION READ ONLY');
  try {
    let rows: unknown;
    for (const statement of statements) rows = await execute(statement);
    await connection.query('COMMIT');
    return rowsOf(rows);
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

const rowsOf = (result: unknown): Record<string, unknown>[] =>
  Array.isArray(result) ? (result as Record<string, unknown>[]) : [];
