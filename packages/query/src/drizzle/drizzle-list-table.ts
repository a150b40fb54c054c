import { type Column, getTableColumns, getTableName, type Table } from 'drizzle-orm';
import { defineSchema, type FieldType, type ResourceSchema, t } from '../schema/field-type.js';
import type { SqlDialectName } from '../sql/dialect.js';
import { type SqlColumnSpec, type SqlColumnType, type SqlTable, sqlTable } from '../sql/table.js';

/**
 * Options of {@link drizzleListTable}: what a Drizzle table cannot say.
 *
 * @example
 * ```ts
 * const options: DrizzleListOptions = {
 *   fields: { title: t.string({ searchable: true }), tags: t.repeated(t.string()) },
 *   orderings: ['', 'published desc'],
 * };
 * ```
 */
export interface DrizzleListOptions {
  /**
   * Field kinds by the Drizzle table's property name. Required for `jsonb` columns (a map or a
   * repeated field: JSON does not say which); otherwise it replaces the kind derived from the
   * column (to make a string `searchable`, say). A name that is not a column adds a field
   * without one, which the residual decides in memory.
   */
  fields?: Readonly<Record<string, FieldType>>;
  /** The schema key's property name (default: the column declared `.primaryKey()`). */
  key?: string;
  /** The schema's allowed orderings (`defineSchema`'s `orderings`). */
  orderings?: readonly string[];
  /** Properties of the table the list does not read (columns of types listkit cannot compare). */
  omit?: readonly string[];
  /** Field paths every resource sets: see `SqlTableOptions.required`. */
  required?: readonly string[];
}

/**
 * A list over a Drizzle table: the schema derived from the table, and the table of your own
 * (`document: false`) that plans its pages.
 *
 * @example
 * ```ts
 * const { schema, table }: DrizzleListTable = drizzleListTable(books);
 * ```
 */
export interface DrizzleListTable {
  readonly schema: ResourceSchema;
  readonly table: SqlTable;
}

// The dialect of a Drizzle column, by its class's prefix.
const DIALECT_OF: readonly (readonly [prefix: string, dialect: SqlDialectName])[] = [
  ['Pg', 'postgres'],
  ['SQLite', 'sqlite'],
  ['MySql', 'mysql'],
];

type Derived = { readonly kind: FieldType; readonly type: SqlColumnType };

/**
 * A column's SQL type (precision and length removed) → its field kind and column type, per
 * dialect. A type that holds several kinds (JSON: a map or a list; MySQL's DECIMAL and SQLite's
 * text: nanosecond timestamps and durations too) takes the kind given in `options.fields`.
 */
const KIND_OF_SQL_TYPE: Readonly<
  Record<Exclude<SqlDialectName, 'spanner'>, Readonly<Record<string, Derived>>>
> = {
  postgres: {
    text: { kind: t.string(), type: 'text' },
    varchar: { kind: t.string(), type: 'varchar' },
    char: { kind: t.string(), type: 'varchar' },
    bigint: { kind: t.int64(), type: 'bigint' },
    bigserial: { kind: t.int64(), type: 'bigint' },
    integer: { kind: t.int64(), type: 'integer' },
    serial: { kind: t.int64(), type: 'integer' },
    smallint: { kind: t.int64(), type: 'integer' },
    smallserial: { kind: t.int64(), type: 'integer' },
    'double precision': { kind: t.double(), type: 'double precision' },
    numeric: { kind: t.double(), type: 'numeric' },
    boolean: { kind: t.bool(), type: 'boolean' },
    'timestamp with time zone': { kind: t.timestamp(), type: 'timestamptz' },
    timestamp: { kind: t.timestamp(), type: 'timestamp' },
  },
  sqlite: {
    text: { kind: t.string(), type: 'text' },
    integer: { kind: t.int64(), type: 'integer' },
    real: { kind: t.double(), type: 'real' },
  },
  mysql: {
    varchar: { kind: t.string(), type: 'varchar' },
    char: { kind: t.string(), type: 'varchar' },
    text: { kind: t.string(), type: 'varchar' },
    tinytext: { kind: t.string(), type: 'varchar' },
    mediumtext: { kind: t.string(), type: 'varchar' },
    longtext: { kind: t.string(), type: 'varchar' },
    varbinary: { kind: t.string(), type: 'varbinary' },
    bigint: { kind: t.int64(), type: 'bigint' },
    serial: { kind: t.int64(), type: 'bigint' },
    int: { kind: t.int64(), type: 'integer' },
    mediumint: { kind: t.int64(), type: 'integer' },
    smallint: { kind: t.int64(), type: 'integer' },
    tinyint: { kind: t.int64(), type: 'integer' },
    double: { kind: t.double(), type: 'double' },
    real: { kind: t.double(), type: 'double' },
    boolean: { kind: t.bool(), type: 'boolean' },
  },
};

/** Drizzle column classes whose SQL type says less than the class (SQLite's integer modes). */
const BY_CLASS: Readonly<Record<string, Derived | string>> = {
  SQLiteBoolean: { kind: t.bool(), type: 'integer' },
  SQLiteTimestamp: 'seconds or milliseconds, not the nanoseconds a timestamp needs',
};

/** SQL types that hold a kind only `options.fields` can name, and the kinds they take. */
const GIVEN_KIND: Readonly<Record<string, string>> = {
  jsonb: 'a map or a repeated field',
  json: 'a map or a repeated field',
  decimal: 'a timestamp or a duration (DECIMAL(21,0) nanoseconds)',
};

/**
 * Describes a list over a Drizzle table once: the listkit schema and the column map are
 * derived from the table (`pgTable`, `mysqlTable`, `sqliteTable`): each property becomes a field
 * of the same name, read from its column (text, varchar and varbinary → string, bigint and
 * integer → int64, double, real and PostgreSQL's numeric → double, boolean → bool, PostgreSQL
 * timestamps → timestamp, enums → enum with the column's values). JSON columns need their kind
 * in `options.fields` (a map or a repeated field), and so do MySQL `decimal` columns and SQLite
 * `text` columns that hold timestamps or durations as the dialect's nanoseconds; a type without
 * a listkit kind throws unless the property is in `options.omit`. Plan pages with `listFromSql` and the
 * returned `table`, and build them with `drizzlePage`.
 *
 * @example
 * ```ts
 * const books = pgTable('books', {
 *   id: bigint('id', { mode: 'bigint' }).primaryKey(),
 *   title: text('title'),
 *   tags: jsonb('tags'),
 * });
 * const { schema, table } = drizzleListTable(books, { fields: { tags: t.repeated(t.string()) } });
 * ```
 */
export function drizzleListTable(
  drizzle: Table,
  options: DrizzleListOptions = {},
): DrizzleListTable {
  const omit = new Set(options.omit ?? []);
  const fields: Record<string, FieldType> = {};
  const columns: Record<string, SqlColumnSpec> = {};
  const name = getTableName(drizzle);
  let key = options.key;
  let dialect: SqlDialectName | undefined;
  for (const [property, column] of Object.entries(
    getTableColumns(drizzle) as Record<string, Column>,
  )) {
    if (omit.has(property)) continue;
    dialect ??= dialectOf(column, name);
    const derived = derive(column, dialect, options.fields?.[property], `${name}.${column.name}`);
    fields[property] = options.fields?.[property] ?? derived.kind;
    columns[property] = { name: column.name, type: derived.type };
    if (column.primary && options.key === undefined) key = property;
  }
  for (const [property, kind] of Object.entries(options.fields ?? {})) fields[property] ??= kind;
  if (key === undefined) {
    throw new TypeError(
      `drizzleListTable(${name}): no column is the primary key; name the key in options.key`,
    );
  }
  const schema = defineSchema({ key, fields, orderings: options.orderings });
  const schemaName = (drizzle as unknown as Record<symbol, string | undefined>)[
    Symbol.for('drizzle:Schema')
  ];
  const table = sqlTable(schema, {
    table: schemaName ? `${schemaName}.${name}` : name,
    dialect,
    document: false,
    columns,
    required: options.required,
  });
  return { schema, table };
}

function dialectOf(column: Column, table: string): SqlDialectName {
  const found = DIALECT_OF.find(([prefix]) => column.columnType.startsWith(prefix));
  if (!found) {
    throw new TypeError(
      `drizzleListTable(${table}): ${column.columnType} columns are not supported (${DIALECT_OF.map(([p]) => `${p}*`).join(', ')} are)`,
    );
  }
  return found[1];
}

function derive(
  column: Column,
  dialect: SqlDialectName,
  given: FieldType | undefined,
  where: string,
): Derived {
  const sqlType = column.getSQLType().replace(/\s*\([^)]*\)/g, '');
  const values = column.enumValues as readonly string[] | undefined;
  const byClass = BY_CLASS[column.columnType];
  if (typeof byClass === 'string') {
    throw new TypeError(`${where} holds ${byClass}: leave it out with options.omit`);
  }
  if (byClass) return byClass;
  if (column.columnType.includes('Enum')) return { kind: t.enum(values ?? []), type: 'enum' };
  const table = dialect === 'spanner' ? {} : KIND_OF_SQL_TYPE[dialect];
  const derived = Object.hasOwn(table, sqlType) ? table[sqlType] : undefined;
  if (values && values.length > 0 && derived?.kind.kind === 'string') {
    return { kind: t.enum(values), type: derived.type };
  }
  const needs = column.columnType === 'SQLiteTextJson' ? GIVEN_KIND.json : GIVEN_KIND[sqlType];
  if (needs) {
    if (!given) {
      throw new TypeError(
        `${where} is ${sqlType}: say in options.fields whether it holds ${needs}`,
      );
    }
    // The kind given; sqlTable refuses a kind this column type cannot hold.
    return { kind: given, type: givenType(dialect, sqlType) };
  }
  if (!derived) {
    throw new TypeError(
      `${where} is ${column.getSQLType()}, which no listkit field kind compares exactly: leave it out with options.omit`,
    );
  }
  return given ? { kind: given, type: derived.type } : derived;
}

/** The column type of a SQL type that holds a kind `options.fields` names. */
function givenType(dialect: SqlDialectName, sqlType: string): SqlColumnType {
  if (dialect === 'postgres') return 'jsonb';
  if (dialect === 'sqlite') return 'text';
  return sqlType === 'decimal' ? 'decimal' : 'json';
}
