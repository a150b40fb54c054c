import type { SqlDialect, SqlParamType } from './dialect.js';
import { checkStorable, encode } from './document-table.js';
import type { SqlColumn, SqlTable } from './table-types.js';

// Writing a table of your own: its DDL as `createTable` declares it, and a resource's row in each
// column's own representation (labels for enums, nanoseconds where the dialect keeps them).

/** Whether a column of your own keeps a timestamp as PostgreSQL's microsecond type. */
const microseconds = (column: SqlColumn) =>
  column.storage === 'timestamptz' || column.storage === 'timestamp';

/** The type the documented insert writes a column's value as (Spanner casts each). */
function insertType(column: SqlColumn): SqlParamType {
  switch (column.type.kind) {
    case 'int64':
      return 'bigint';
    case 'double':
      return 'float8';
    case 'bool':
      return 'boolean';
    case 'timestamp':
    case 'duration':
      return microseconds(column) ? (column.storage as SqlParamType) : 'nanos';
    case 'map':
    case 'repeated':
      return 'jsonb';
    default:
      return 'text';
  }
}

/** A field's value as its column of your own holds it; null when unset. */
function ownValue(column: SqlColumn, value: unknown, dialect: SqlDialect): string | null {
  if (value === undefined) return null;
  const text = encode(column, value);
  if (text === null) return null;
  switch (column.type.kind) {
    case 'enum':
      return value as string; // encode checked it is a label, and wrote its index
    case 'bool':
      return dialect.paramValue(text, 'boolean');
    case 'double':
      // SQLite reads the text `Infinity` as no number: its dialect writes ±9e999.
      return dialect.paramValue(text, 'float8');
    case 'timestamp':
    case 'duration':
      // PostgreSQL parses the RFC 3339 text itself (and keeps microseconds).
      return microseconds(column) ? (value as string) : dialect.paramValue(text, 'nanos');
    default:
      return text;
  }
}

/**
 * `createTable`, `columnDefinition`, `row` and `insert` of a table of your own: NOT NULL for the
 * key and `required` paths (`notNull`), the key (`keyPath`) the primary key.
 */
export function ownRow(
  dialect: SqlDialect,
  table: string,
  columns: readonly SqlColumn[],
  notNull: ReadonlySet<string>,
  keyPath: string,
): Pick<SqlTable, 'createTable' | 'columnDefinition' | 'row' | 'insert'> {
  const columnDefinition = (column: SqlColumn) => {
    const type = dialect.ownColumnType(column.type, column.storage!);
    if (type === undefined) {
      throw new TypeError(
        `"${column.path}" is a ${column.storage} column: declare its type yourself (createTable cannot name it)`,
      );
    }
    return `${column.name} ${type}${notNull.has(column.path) ? ' NOT NULL' : ''}`;
  };
  const row = (resource: object) => {
    // Scalar columns hold ±Infinity; maps and lists, JSON text, are checked as they are encoded.
    checkStorable(resource, 'resource', false);
    const fields = resource as Record<string, unknown>;
    return columns.map((column) => {
      const value = ownValue(column, fields[column.path], dialect);
      if (value === null && notNull.has(column.path)) {
        throw new TypeError(`${column.path} is required`);
      }
      return value;
    });
  };
  const key = columns.find((c) => c.path === keyPath)!;
  return {
    columnDefinition,
    createTable: () => {
      const lines = columns.map(columnDefinition);
      if (dialect.tableDefinition) return dialect.tableDefinition(table, lines, key.name);
      lines.push(`PRIMARY KEY (${key.name})`);
      return `CREATE TABLE IF NOT EXISTS ${table} (\n  ${lines.join(',\n  ')}\n)${dialect.tableSuffix}`;
    },
    row,
    insert: (resource) => {
      const names = columns.map((c) => c.name);
      const value = (i: number) =>
        dialect.insertPlaceholder
          ? dialect.insertPlaceholder(i + 1, insertType(columns[i]!))
          : `$${i + 1}`;
      return dialect.finish({
        text: `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => value(i)).join(', ')})`,
        params: row(resource),
      });
    },
  };
}
