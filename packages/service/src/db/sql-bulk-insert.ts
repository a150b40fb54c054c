import type { SqlSession, SqlValue } from './sql-database.js';

/** Rows sent in one statement: a JSON text of a few MB at most. */
const ROWS_PER_STATEMENT = 5_000;

/** Column types by table, read from the catalog once per process (the schema is this build's). */
const columnTypes = new Map<string, Map<string, string>>();

async function typesOf(session: SqlSession, table: string): Promise<Map<string, string>> {
  let types = columnTypes.get(table);
  if (!types) {
    const rows = await session.query<{ name: string; type: string }>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
      [table],
    );
    types = new Map(rows.map((row) => [row.name, row.type]));
    columnTypes.set(table, types);
  }
  return types;
}

/**
 * The table that keeps a snapshot's rows of a state table (`listkit_snapshot_<table>`): the same
 * columns, and first the snapshot's name.
 *
 * @example
 * ```ts
 * snapshotTable('orders'); // 'listkit_snapshot_orders'
 * ```
 */
export const snapshotTable = (table: string): string => `listkit_snapshot_${table}`;

const unquoted = (column: string) => column.replace(/^"(.*)"$/, '$1').replaceAll('""', '"');

/**
 * Inserts rows (each row's values in `columns`' order, as they would be bound to `$n`
 * parameters) in one statement per 5,000 rows, in the caller's transaction: the rows travel as
 * one JSON parameter of text values, read by `json_to_recordset` and cast to each column's type
 * (from the catalog). A statement of thousands of `$n` placeholders costs PostgreSQL far more
 * to parse and bind than one JSON text. With `snapshot`, the rows go to the table that keeps
 * that snapshot's rows of `table` ({@link snapshotTable}) instead.
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
  given: readonly (readonly SqlValue[])[],
  snapshot?: string,
): Promise<void> {
  if (given.length === 0) return;
  if (snapshot !== undefined) {
    table = snapshotTable(table);
    columns = ['snapshot', ...columns];
  }
  const rows = snapshot === undefined ? given : given.map((row) => [snapshot, ...row]);
  const types = await typesOf(session, table);
  const fields = columns.map((column, i) => {
    const type = types.get(unquoted(column));
    if (!type) throw new Error(`insertRows: ${table} has no column ${column}`);
    return { column, key: `c${i}`, type };
  });
  const select = fields.map((f) => `u.${f.key}::${f.type}`).join(', ');
  const definition = fields.map((f) => `${f.key} text`).join(', ');
  const text = `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${select} FROM json_to_recordset($1::json) AS u(${definition})`;
  for (let from = 0; from < rows.length; from += ROWS_PER_STATEMENT) {
    const chunk = rows
      .slice(from, from + ROWS_PER_STATEMENT)
      .map((row) =>
        Object.fromEntries(
          fields.map((f, i) => [
            f.key,
            row[i] === null || row[i] === undefined ? null : String(row[i]),
          ]),
        ),
      );
    await session.query(text, [JSON.stringify(chunk)]);
  }
}
