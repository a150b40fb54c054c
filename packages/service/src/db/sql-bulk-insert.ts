import type { SqlSession, SqlValue } from './sql-database.js';
import { placeholders } from './sql-text.js';

/** PostgreSQL's wire protocol counts a statement's parameters in 16 bits. */
const MAX_PARAMETERS = 65_535;

/**
 * Inserts rows in as few statements as the protocol allows (multi-row VALUES, each row's values
 * in `columns`' order), in the caller's transaction.
 *
 * @example
 * ```ts
 * await insertRows(session, 'orders', ['package_name', 'order_id', 'state', 'refunded'], rows);
 * ```
 */
export async function insertRows(
  session: SqlSession,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly SqlValue[])[],
): Promise<void> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  for (let from = 0; from < rows.length; from += perStatement) {
    const chunk = rows.slice(from, from + perStatement);
    const values = chunk.map((_, i) => `(${placeholders(columns.length, i * columns.length + 1)})`);
    await session.query(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values.join(', ')}`,
      chunk.flat(),
    );
  }
}
