// The books table of the own-table tests on each dialect: the table as its owner would create it
// with raw SQL in that engine (the column types the dialect takes for a table of your own), and
// the generated rows written with raw SQL, converted only where the engine stores another form
// (timestamps as nanoseconds, SQLite's booleans as 0/1).
import type { SqlDialectName, SqlTable } from '@listkit/query/sql';
import { sqlTable } from '@listkit/query/sql';
import {
  DDL,
  GENRE_TYPE,
  loadBooks,
  table as postgresTable,
  ROW_ORDER,
  schema,
  TABLE,
} from './own-table-books.js';
import type { TestDatabase } from './sql-databases.js';

/** The books table on one dialect. */
export interface BooksOn {
  readonly table: SqlTable;
  /** Creates the table (dropping an older one). */
  readonly ddl: readonly string[];
  /** Drops it. */
  readonly drop: readonly string[];
  /** Replaces the rows (raw SQL) and returns the resources as the engine holds them. */
  load(db: TestDatabase, rows: readonly Record<string, string | null>[]): Promise<object[]>;
}

/** Each field's column, by the books table's names (the dialect's default types). */
export const OWN_COLUMNS = {
  id: 'id',
  title: 'title',
  author: 'author',
  published: 'published',
  updated: 'updated',
  pages: 'pages',
  rating: 'rating',
  weight: 'weight',
  genre: 'genre',
  tags: 'tags',
  labels: 'labels',
  inPrint: 'in_print',
} as const;

/** `1969-12-31T23:59:59.000004999Z` (or without the Z: UTC) as nanoseconds since 1970. */
export function nanosOf(text: string): bigint {
  const [whole, fraction = ''] = text.replace(/Z$/, '').split('.');
  const seconds = BigInt(Date.parse(`${whole}Z`) / 1000);
  return seconds * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
}

/** Each engine's text of the values a raw row holds in another form. */
interface RowForm {
  nanos(nanos: bigint): string;
  bool(value: string): string;
  double(value: string): string;
}

const FORM: Readonly<Record<Exclude<SqlDialectName, 'postgres'>, RowForm>> = {
  sqlite: {
    nanos: (n) => (n + 10n ** 21n).toString().padStart(22, '0'),
    bool: (v) => (v === 'true' ? '1' : '0'),
    // SQLite reads `Infinity` as 0: an overflowing literal is its infinity.
    double: (v) => (v === 'Infinity' ? '9e999' : v === '-Infinity' ? '-9e999' : v),
  },
  mysql: {
    nanos: (n) => n.toString(),
    bool: (v) => (v === 'true' ? '1' : '0'),
    // DOUBLE holds no infinity: the largest doubles instead.
    double: (v) =>
      v === 'Infinity'
        ? '1.7976931348623157e308'
        : v === '-Infinity'
          ? '-1.7976931348623157e308'
          : v,
  },
  spanner: {
    nanos: (n) => n.toString(),
    bool: (v) => v,
    double: (v) => (v === 'Infinity' ? 'inf' : v === '-Infinity' ? '-inf' : v),
  },
};

const DDL_OF: Readonly<Record<Exclude<SqlDialectName, 'postgres'>, string>> = {
  // Not STRICT, the title under NOCASE: the plan compares BINARY whatever the column says.
  sqlite: `CREATE TABLE ${TABLE} (
    id INTEGER PRIMARY KEY, title TEXT COLLATE NOCASE, author TEXT, published TEXT, updated TEXT,
    pages INTEGER, rating REAL, weight REAL, genre TEXT, tags TEXT, labels TEXT, in_print INTEGER
  )`,
  // The title under a case-insensitive PAD SPACE collation, the author VARBINARY, the genre an
  // ENUM declared in another order than the schema's.
  mysql: `CREATE TABLE ${TABLE} (
    id BIGINT PRIMARY KEY,
    title VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci,
    author VARBINARY(800), published DECIMAL(21,0), updated DECIMAL(21,0), pages INT,
    rating DOUBLE, weight DOUBLE, genre ENUM('SCIENCE', 'POETRY', 'FICTION', 'HISTORY'),
    tags JSON, labels JSON, in_print BOOLEAN
  ) ENGINE=InnoDB`,
  spanner: `CREATE TABLE ${TABLE} (
    id INT64 NOT NULL, title STRING(MAX), author STRING(200), published NUMERIC, updated NUMERIC,
    pages INT64, rating FLOAT64, weight FLOAT64, genre STRING(MAX), tags JSON, labels JSON,
    in_print BOOL
  ) PRIMARY KEY (id)`,
};

// The INSERT's placeholders, in ORDER: where the engine must be told a parameter's type.
const INSERT_VALUES: Readonly<Record<Exclude<SqlDialectName, 'postgres'>, string>> = {
  sqlite: '$1, $2, $3, $4, $5, $6, CAST($7 AS REAL), CAST($8 AS REAL), $9, $10, $11, $12',
  mysql: '$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12',
  spanner:
    'CAST($1 AS INT64), $2, $3, CAST($4 AS NUMERIC), CAST($5 AS NUMERIC), CAST($6 AS INT64), CAST($7 AS FLOAT64), CAST($8 AS FLOAT64), $9, PARSE_JSON($10), PARSE_JSON($11), CAST($12 AS BOOL)',
};

const TYPES: Readonly<Record<Exclude<SqlDialectName, 'postgres'>, object>> = {
  sqlite: {},
  mysql: { title: { type: 'varchar' }, author: 'author', genre: { type: 'enum' } },
  spanner: {},
};

function rowParams(form: RowForm, row: Record<string, string | null>): (string | null)[] {
  return ROW_ORDER.map((key) => {
    const value = row[key] ?? null;
    if (value === null) return null;
    if (key === 'published' || key === 'updated') return form.nanos(nanosOf(value));
    if (key === 'inPrint') return form.bool(value);
    if (key === 'rating' || key === 'weight') return form.double(value);
    return value;
  });
}

/** The books table, its DDL and its loader on a dialect. */
export function booksOn(dialect: SqlDialectName): BooksOn {
  if (dialect === 'postgres') {
    return {
      table: postgresTable,
      ddl: DDL,
      drop: [`DROP TABLE IF EXISTS ${TABLE}`, `DROP TYPE IF EXISTS ${GENRE_TYPE}`],
      load: loadBooks,
    };
  }
  const table = sqlTable(schema, {
    table: TABLE,
    dialect,
    document: false,
    columns: { ...OWN_COLUMNS, ...TYPES[dialect] },
  });
  const form = FORM[dialect];
  const insert = `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) VALUES (${INSERT_VALUES[dialect]})`;
  const select = `SELECT ${table.columns.map((c) => `${c.select} AS ${c.name}`).join(', ')} FROM ${table.name}`;
  return {
    table,
    ddl: [`DROP TABLE IF EXISTS ${table.name}`, DDL_OF[dialect]],
    drop: [`DROP TABLE IF EXISTS ${table.name}`],
    load: async (db, rows) => {
      const statements = [
        { text: `DELETE FROM ${table.name} WHERE TRUE`, params: [] },
        ...rows.map((row) => ({ text: insert, params: rowParams(form, row) })),
      ];
      if (db.writeAll) await db.writeAll(statements);
      else for (const s of statements) await db.query(s.text, s.params);
      return (await db.query(select)).map((row) => table.readRow(row));
    },
  };
}

/**
 * Writes resources with `table.insert` (the dialect's own placeholders) through each driver: the
 * statement is already in the engine's form, so it bypasses `db.query` (which writes `$n`).
 */
export async function writeRows(db: TestDatabase, table: SqlTable, resources: object[]) {
  if (db.load) return db.load(table, resources);
  for (const resource of resources) {
    const { text, params } = table.insert(resource);
    if (db.dialect === 'sqlite') {
      (db.driver as { prepare(sql: string): { run(...p: unknown[]): unknown } })
        .prepare(text)
        .run(...params);
    } else if (db.dialect === 'mysql') {
      await (db.driver as { execute(sql: string, p: unknown[]): Promise<unknown> }).execute(text, [
        ...params,
      ]);
    } else await db.query(text, params);
  }
}
