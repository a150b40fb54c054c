import type { SqlRunner } from '../../list-from-sql.js';
import type { SqlStatement } from '../../sql-statement.js';

/**
 * What {@link pgRunner} needs of a node-postgres `Client` (8.x): `query`. The library imports
 * no driver; pass yours.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const client: PgClient = new pg.Client(url);
 * ```
 */
export interface PgClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * What {@link pgRunner} needs of a node-postgres `Pool` (8.x): a client per page, given back
 * after it (`idleCount` tells a pool from a client, which has `connect` too).
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool: PgPool = new pg.Pool({ connectionString: url });
 * ```
 */
export interface PgPool {
  readonly idleCount: number;
  connect(): Promise<PgClient & { release(): void }>;
}

/**
 * What {@link pgliteRunner} needs of a PGlite database (0.2+): `transaction` and the
 * transaction's `query`.
 *
 * @example
 * ```ts
 * import { PGlite } from '@electric-sql/pglite';
 * const db: PgliteDatabase = await PGlite.create();
 * ```
 */
export interface PgliteDatabase {
  transaction<T>(
    fn: (tx: {
      query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
    }) => Promise<T>,
  ): Promise<T>;
}

/**
 * A {@link SqlRunner} over node-postgres: each page in one transaction (`BEGIN` … `COMMIT`), so
 * the settings statement's `set_config(…, true)` (the time limit) lasts for the page only.
 * Given a pool, each page takes a client and gives it back; given a client, pages wait their
 * turn on it.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const table = sqlTable(schema, { table: 'rules' });
 * const page = await listFromSql(request, { table, pageTokens, run: pgRunner(pool) });
 * ```
 */
export function pgRunner(driver: PgPool | PgClient): SqlRunner {
  if ('idleCount' in driver) {
    return async (statements) => {
      const client = await driver.connect();
      try {
        return await inTransaction(client, statements);
      } finally {
        client.release();
      }
    };
  }
  let queue: Promise<unknown> = Promise.resolve();
  return (statements) => {
    const page = queue.then(() => inTransaction(driver, statements));
    queue = page.catch(() => undefined);
    return page;
  };
}

async function inTransaction(
  client: PgClient,
  statements: readonly SqlStatement[],
): Promise<Record<string, unknown>[]> {
  await client.query('BEGIN');
  try {
    let rows: unknown[] = [];
    for (const { text, params } of statements) rows = (await client.query(text, [...params])).rows;
    await client.query('COMMIT');
    return rows as Record<string, unknown>[];
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * A {@link SqlRunner} over PGlite: each page in one of its transactions.
 *
 * @example
 * ```ts
 * import { PGlite } from '@electric-sql/pglite';
 * const db = await PGlite.create();
 * const page = await listFromSql(request, { table, pageTokens, run: pgliteRunner(db) });
 * ```
 */
export function pgliteRunner(db: PgliteDatabase): SqlRunner {
  return (statements) =>
    db.transaction(async (tx) => {
      let rows: unknown[] = [];
      for (const { text, params } of statements) rows = (await tx.query(text, [...params])).rows;
      return rows as Record<string, unknown>[];
    });
}
