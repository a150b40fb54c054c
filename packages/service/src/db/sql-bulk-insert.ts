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

const unquoted = (column: string) => column.replace(/^"(.*)"$/, '$1').replaceAll('""', '"');

/**
 * Inserts rows (each row's values in `columns`' order, as they would be bound to `$n`
 * parameters) in one statement per 5,000 rows, in the caller's transaction: the rows travel as
 * one JSON parameter of text values, read by `json_to_recordset` and cast to each column's type
 * (from the catalog). A statement of thousands of `$n` placeholders costs PostgreSQL far more
 * to parse and bind than one JSON text.
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
  if (rows.length === 0) return;
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
