import type { FieldType, ResourceSchema } from '../schema/field-type.js';
import type { SqlColumnType, SqlDialect, SqlDialectName } from './dialect.js';
import type { SqlStatement } from './sql-statement.js';

// The public shape of a table layout, shared by both layouts (document-table.ts, own-table.ts).

/**
 * How one field is stored: a typed column (scalars) or a `jsonb` column (maps, repeated).
 *
 * @example
 * ```ts
 * for (const column of sqlTable(schema, { table: 'rules' }).columns) console.log(column.name, column.sqlType);
 * ```
 */
export interface SqlColumn {
  /** The field's dotted path in the schema. */
  readonly path: string;
  readonly steps: readonly string[];
  /** The column name (an identifier from the table declaration, never from a request). */
  readonly name: string;
  readonly type: FieldType;
  /** The PostgreSQL type: see docs/sql.md for each encoding. */
  readonly sqlType:
    | 'text'
    | 'bigint'
    | 'double precision'
    | 'boolean'
    | 'integer'
    | 'numeric'
    | 'jsonb';
  /** False when every row has a value (so orderings need no NULLS branches). */
  readonly nullable: boolean;
  /**
   * In a table of your own (`document: false`), the column's type as declared in
   * {@link SqlTableOptions.columns}; undefined in listkit's own layout.
   */
  readonly storage?: SqlColumnType;
  /** The field's value as the filter compares it (column, COALESCE to the default, casts). */
  readonly value: string;
  /** The expression ORDER BY and the keyset condition use. */
  readonly sortValue: string;
  /** Whether {@link sortValue} can be NULL. */
  readonly sortNullable: boolean;
  /**
   * In a table of your own: the column as text in the engine's canonical form; the statement
   * selects it under the column's name.
   */
  readonly select?: string;
}

export type { SqlColumnType } from './dialect.js';

/**
 * One column of a table of your own: its name (default: the path in snake_case) and type
 * (default: the dialect's first for the field kind; PostgreSQL: `text`, `bigint`,
 * `double precision`, `boolean`, `text` for enums, `timestamptz`, `jsonb`).
 *
 * @example
 * ```ts
 * const spec: SqlColumnSpec = { name: 'genre', type: 'enum' };
 * sqlTable(schema, { table: 'books', document: false, columns: { genre: spec } });
 * ```
 */
export interface SqlColumnSpec {
  name?: string;
  type?: SqlColumnType;
}

/**
 * A column whose type cannot hold or order the engine's values exactly as the
 * in-memory engine does, and what the planner does about it.
 *
 * @example
 * ```ts
 * for (const c of plan.inexact) console.warn(`${c.path} (${c.column}): ${c.reason}`);
 * ```
 */
export interface SqlInexactColumn {
  readonly path: string;
  /** The quoted column name. */
  readonly column: string;
  readonly reason: string;
}

/**
 * Options of {@link sqlTable}.
 *
 * @example
 * ```ts
 * sqlTable(schema, { table: 'app.rules', document: 'body', columns: { creationTimestamp: 'created' }, required: ['name'] });
 * ```
 */
export interface SqlTableOptions {
  /** The table, optionally schema-qualified (`app.rules`). */
  table: string;
  /**
   * The database the table lives in (default `'postgres'`: PostgreSQL and PGlite; `'sqlite'`:
   * SQLite 3.38+; `'mysql'`: MySQL 8 and MariaDB 10.11+; `'spanner'`: Cloud Spanner).
   * Statements, DDL and rows are written in its SQL; what it cannot decide exactly is left to
   * the residual (docs/sql.md, "Dialects"), and a column of your own it cannot hold exactly is
   * refused when the table is declared.
   *
   * @example
   * ```ts
   * sqlTable(schema, { table: 'rules', dialect: 'sqlite' });
   * ```
   */
  dialect?: SqlDialectName;
  /**
   * The `jsonb` column holding each resource as given. Defaults to `resource`. `false`: a table
   * of your own, with ordinary columns and no document: only the key and the fields named in
   * {@link columns} have columns (the rest is decided in memory), and each page's rows are
   * turned into resources by `readRow` (default {@link SqlTable.readRow}).
   */
  document?: string | false;
  /**
   * The document column's type (default `jsonb`). `json` keeps the resource as the text
   * {@link SqlTable.row} wrote, which a page returns without converting each `jsonb` value to
   * text: at 10^6 rows a page of 500 took 1.6 ms instead of 2.8 ms (BENCHMARKS.md, "PostgreSQL
   * paging"). Filters that read the document itself (presence tests, nested message guards,
   * fields without a column) cast it (`::jsonb`) in each row they test; map and list columns
   * stay `jsonb` either way, so label filters and their GIN indexes are the same.
   *
   * @example
   * ```ts
   * sqlTable(schema, { table: 'rules', documentType: 'json', required: ['creationTimestamp'] });
   * ```
   */
  documentType?: 'jsonb' | 'json';
  /**
   * Column names by field path; the default is the path in snake_case (`creation_timestamp`).
   * In a table of your own, also the column's type ({@link SqlColumnSpec}).
   */
  columns?: Readonly<Record<string, string | SqlColumnSpec>>;
  /**
   * Field paths every resource sets (enums, timestamps and durations, which otherwise may be
   * NULL): their columns are NOT NULL, orderings on them need no NULLS branches, and
   * {@link SqlTable.row} rejects a resource without them.
   */
  required?: readonly string[];
  /**
   * In a table of your own, how {@link SqlTable.readRow} reads a value that is not of its
   * field's type: refused with a `ListkitError` naming the path (the default), or, with
   * `coerce: true`, converted when it is a shape a driver produces (0/1 booleans, `bigint`,
   * decimal text for doubles, `Date`; see `CheckResourceOptions.coerce`).
   */
  coerce?: boolean;
}

/**
 * A resource schema laid out as a PostgreSQL table; what the planner reads columns from.
 *
 * @example
 * ```ts
 * const table: SqlTable = sqlTable(schema, { table: 'rules' });
 * console.log(suggestIndexes(table).join(';\n'));
 * ```
 */
export interface SqlTable<T = unknown> {
  /** The schema, whose item type ({@link ResourceSchema}'s `T`) is the rows' resource type. */
  readonly schema: ResourceSchema<T>;
  /** The SQL dialect statements for this table are written in. */
  readonly dialect: SqlDialect;
  /** The quoted table name. */
  readonly name: string;
  /** The quoted document column; undefined for a table of your own (`document: false`). */
  readonly document: string | undefined;
  /** The document column's type ({@link SqlTableOptions.documentType}); undefined without one. */
  readonly documentType: 'jsonb' | 'json' | undefined;
  /** The columns whose SQL type differs from the engine's values, and why. */
  readonly inexact: readonly SqlInexactColumn[];
  /**
   * A row of a planned statement (for a table of your own: each column as text, keyed by column
   * name) as a resource: every field with a non-NULL column set, in the engine's JSON form.
   * Throws a `ListkitError` naming the path when a column's value is not of its field's type
   * (see {@link SqlTableOptions.coerce}).
   */
  readRow(row: Readonly<Record<string, unknown>>): object;
  /** One column per field reachable through messages, in declaration order. */
  readonly columns: readonly SqlColumn[];
  /** The column of a field path, if the path has one. */
  column(path: string): SqlColumn | undefined;
  /** `CREATE TABLE IF NOT EXISTS` for this layout, with the schema key as the primary key. */
  createTable(): string;
  /**
   * One column as {@link createTable} declares it (`"name" text COLLATE "C" NOT NULL`), for a
   * table that adds columns of its own around listkit's.
   *
   * @example
   * ```ts
   * `CREATE TABLE rules (parent text NOT NULL, ${table.columns.map(table.columnDefinition).join(', ')})`;
   * ```
   */
  columnDefinition(column: SqlColumn): string;
  /** The column names, document first, in the order {@link row} gives values. */
  readonly insertColumns: readonly string[];
  /**
   * The values of a resource's row, document first, as text for `$n` parameters. Throws
   * TypeError when the resource does not match the schema (the store validates on write, so the
   * database only holds what the in-memory engine would read the same way).
   */
  row(resource: object): (string | null)[];
  /**
   * `INSERT INTO … (insertColumns) VALUES (…)` with the dialect's placeholders and
   * {@link row}'s values.
   *
   * @example
   * ```ts
   * const { text, params } = table.insert(rule);
   * db.prepare(text).run(...params); // better-sqlite3
   * ```
   */
  insert(resource: object): SqlStatement;
}
