import { parseDuration } from '../schema/duration.js';
import type { FieldType, ResourceSchema } from '../schema/field-type.js';
import { parseInt64 } from '../schema/int64.js';
import { parseTimestamp } from '../schema/timestamp.js';
import { readOwnColumn } from './read-own-column.js';
import { isStorableText, quoteIdentifier, quoteLiteral } from './sql-text.js';

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
   * In a table of your own (`document: false`), the column's PostgreSQL type as declared in
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

/**
 * The PostgreSQL type of a column in a table of your own: `text`/`varchar` (strings, enums),
 * `bigint`/`integer`/`numeric` (int64), `double precision`/`numeric` (double), `boolean`,
 * `timestamptz`/`timestamp` (timestamps, UTC), `enum` (a PostgreSQL enum type, for enum
 * fields), `jsonb` (maps and repeated fields).
 *
 * @example
 * ```ts
 * const type: SqlColumnType = 'timestamptz';
 * sqlTable(schema, { table: 'books', document: false, columns: { published: { type } } });
 * ```
 */
export type SqlColumnType =
  | 'text'
  | 'varchar'
  | 'bigint'
  | 'integer'
  | 'numeric'
  | 'double precision'
  | 'boolean'
  | 'timestamptz'
  | 'timestamp'
  | 'enum'
  | 'jsonb';

/**
 * One column of a table of your own: its name (default: the path in snake_case) and PostgreSQL
 * type (default by field kind: `text`, `bigint`, `double precision`, `boolean`, `text` for
 * enums, `timestamptz`, `jsonb`).
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
 * A column whose PostgreSQL type cannot hold or order the engine's values exactly as the
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
   * In a table of your own, also the column's PostgreSQL type ({@link SqlColumnSpec}).
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
  /** The quoted table name. */
  readonly name: string;
  /** The quoted document column; undefined for a table of your own (`document: false`). */
  readonly document: string | undefined;
  /** The document column's type ({@link SqlTableOptions.documentType}); undefined without one. */
  readonly documentType: 'jsonb' | 'json' | undefined;
  /** The columns whose PostgreSQL type differs from the engine's values, and why. */
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
  /** The column names, document first, in the order {@link row} gives values. */
  readonly insertColumns: readonly string[];
  /**
   * The values of a resource's row, document first, as text for `$n` parameters. Throws
   * TypeError when the resource does not match the schema (the store validates on write, so the
   * database only holds what the in-memory engine would read the same way).
   */
  row(resource: object): (string | null)[];
}

/** `creationTimestamp` → `creation_timestamp`, `IPAddress` → `ip_address`, `a.b` → `a__b`. */
const snakeCase = (path: string) =>
  path
    .split('.')
    .map((s) =>
      s
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
        .toLowerCase(),
    )
    .join('__')
    // PostgreSQL cuts identifiers at 63 bytes; cut here so that a clash is reported.
    .slice(0, 63);

/**
 * Lays out a resource schema as a table: the resource as `jsonb` (or `json`, which pages read
 * without conversion: {@link SqlTableOptions.documentType}), plus one typed column per
 * field reachable through messages (strings as `text COLLATE "C"`, int64 as `bigint`,
 * timestamps and durations as `numeric` nanoseconds, enums as their declared index, maps and
 * repeated fields as `jsonb`).
 *
 * @example
 * ```ts
 * const rules = sqlTable(forwardingRuleSchema, { table: 'forwarding_rules', required: ['creationTimestamp'] });
 * await db.exec(rules.createTable());
 * await db.query(
 *   `INSERT INTO forwarding_rules (${rules.insertColumns.join(', ')})
 *    VALUES (${rules.insertColumns.map((_, i) => `$${i + 1}`).join(', ')})`,
 *   rules.row(rule),
 * );
 * ```
 */
export function sqlTable<T = unknown>(
  schema: ResourceSchema<T>,
  options: SqlTableOptions,
): SqlTable<T> {
  if (options.document === false) return ownTable(schema, options);
  const required = new Set(options.required ?? []);
  const columns: SqlColumn[] = [];
  const names = new Set<string>();
  const walk = (fields: Readonly<Record<string, FieldType>>, prefix: string[]) => {
    for (const [field, type] of Object.entries(fields)) {
      const steps = [...prefix, field];
      const path = steps.join('.');
      if (type.kind === 'message') {
        walk(type.fields, steps);
        continue;
      }
      const declared = options.columns?.[path];
      if (typeof declared === 'object' && declared.type !== undefined) {
        throw new TypeError(
          `column types are for tables of your own (document: false), not "${path}"`,
        );
      }
      const name = (typeof declared === 'object' ? declared.name : declared) ?? snakeCase(path);
      if (names.has(name)) throw new TypeError(`two fields map to the column "${name}"`);
      names.add(name);
      const sqlType = sqlTypeOf(type);
      const alwaysSet =
        sqlType === 'text' ||
        sqlType === 'bigint' ||
        sqlType === 'double precision' ||
        sqlType === 'boolean';
      const topLevel = steps.length === 1;
      const quoted = quoteIdentifier(name);
      const nullable = !(required.has(path) || (alwaysSet && topLevel) || path === schema.key);
      const value = sqlType === 'text' ? `${quoted} COLLATE "C"` : quoted;
      columns.push({
        path,
        steps,
        name: quoted,
        type,
        sqlType,
        nullable,
        value,
        sortValue: value,
        sortNullable: nullable,
      });
    }
  };
  walk(schema.fields, []);
  for (const path of required) {
    if (!columns.some((c) => c.path === path))
      throw new TypeError(`required field "${path}" has no column`);
  }
  const byPath = new Map(columns.map((c) => [c.path, c]));
  const table = quoteIdentifier(options.table);
  const document = quoteIdentifier((options.document as string | undefined) ?? 'resource');
  const documentType = options.documentType ?? 'jsonb';
  if (documentType !== 'jsonb' && documentType !== 'json') {
    throw new TypeError(`documentType must be 'jsonb' or 'json', not ${String(documentType)}`);
  }
  const key = byPath.get(schema.key);
  if (!key) throw new TypeError(`schema key "${schema.key}" has no column`);
  return {
    schema,
    name: table,
    document,
    documentType,
    columns,
    inexact: [],
    readRow: (row) => {
      const text = row.resource;
      if (typeof text === 'string') return JSON.parse(text) as object;
      if (isObject(text)) return text;
      throw new TypeError('the row has no resource column');
    },
    column: (path) => byPath.get(path),
    insertColumns: [document, ...columns.map((c) => c.name)],
    createTable: () => {
      const lines = [
        `${document} ${documentType} NOT NULL`,
        ...columns.map(
          (c) =>
            `${c.name} ${c.sqlType}${c.sqlType === 'text' ? ' COLLATE "C"' : ''}${c.nullable ? '' : ' NOT NULL'}`,
        ),
        `PRIMARY KEY (${key.name})`,
      ];
      return `CREATE TABLE IF NOT EXISTS ${table} (\n  ${lines.join(',\n  ')}\n)`;
    },
    row: (resource) => {
      checkStorable(resource, 'resource');
      const values: (string | null)[] = [JSON.stringify(resource)];
      for (const column of columns) {
        let parent: unknown = resource;
        for (const step of column.steps.slice(0, -1)) {
          const next: unknown = (parent as Record<string, unknown>)[step];
          if (next !== undefined && !isObject(next)) {
            throw new TypeError(
              `${column.steps.slice(0, column.steps.indexOf(step) + 1).join('.')} must be a message`,
            );
          }
          parent = next;
          if (parent === undefined) break;
        }
        const value =
          parent === undefined
            ? undefined
            : (parent as Record<string, unknown>)[column.steps.at(-1)!];
        const encoded = parent === undefined ? null : encode(column, value);
        if (encoded === null && !column.nullable) {
          throw new TypeError(`${column.path} is required`);
        }
        values.push(encoded);
      }
      return values;
    },
  };
}

function sqlTypeOf(type: FieldType): SqlColumn['sqlType'] {
  switch (type.kind) {
    case 'string':
      return 'text';
    case 'int64':
      return 'bigint';
    case 'double':
      return 'double precision';
    case 'bool':
      return 'boolean';
    case 'enum':
      return 'integer';
    case 'timestamp':
    case 'duration':
      return 'numeric';
    default:
      return 'jsonb';
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Nanoseconds as exact decimal text: how timestamps and durations are stored and compared. */
export function nanosText(seconds: number, nanos: number): string {
  return (BigInt(seconds) * 1_000_000_000n + BigInt(nanos)).toString();
}

/** A field value as its column's text; null for "no value". Throws on a value of the wrong type. */
function encode(column: SqlColumn, value: unknown): string | null {
  const { type, path } = column;
  const wrong = (what: string): never => {
    throw new TypeError(`${path} must be ${what}, not ${JSON.stringify(value)}`);
  };
  switch (type.kind) {
    case 'string':
      if (value === undefined) return '';
      return typeof value === 'string' ? value : wrong('a string');
    case 'int64': {
      if (value === undefined) return '0';
      const n = parseInt64(value);
      return n === undefined ? wrong('a 64-bit integer') : n.toString();
    }
    case 'double':
      if (value === undefined) return '0';
      return typeof value === 'number' && !Number.isNaN(value) ? String(value) : wrong('a number');
    case 'bool':
      if (value === undefined) return 'false';
      return typeof value === 'boolean' ? String(value) : wrong('a boolean');
    case 'enum': {
      if (value === undefined) return null;
      const index = typeof value === 'string' ? type.values.indexOf(value) : -1;
      return index < 0 ? wrong(`one of ${type.values.join(', ')}`) : String(index);
    }
    case 'timestamp': {
      if (value === undefined) return null;
      const t = typeof value === 'string' ? parseTimestamp(value) : undefined;
      return t ? nanosText(t.seconds, t.nanos) : wrong('an RFC 3339 timestamp');
    }
    case 'duration': {
      if (value === undefined) return null;
      const d = typeof value === 'string' ? parseDuration(value) : undefined;
      return d ? nanosText(d.seconds, d.nanos) : wrong('a duration such as "1.5s"');
    }
    case 'map':
      if (value === undefined) return null;
      if (!isObject(value)) wrong('an object');
      for (const [k, v] of Object.entries(value as object))
        checkValue(type.value, v, `${path}.${k}`);
      return JSON.stringify(value);
    case 'repeated':
      if (value === undefined) return null;
      if (!Array.isArray(value)) wrong('an array');
      for (const [i, v] of (value as unknown[]).entries())
        checkValue(type.element, v, `${path}[${i}]`);
      return JSON.stringify(value);
    default:
      return null;
  }
}

/** Rejects text PostgreSQL cannot store exactly (U+0000, lone surrogates) anywhere in a value. */
function checkStorable(value: unknown, where: string): void {
  if (typeof value === 'string') {
    if (!isStorableText(value))
      throw new TypeError(
        `${where} holds text PostgreSQL cannot store (U+0000 or a lone surrogate)`,
      );
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) checkStorable(v, `${where}[${i}]`);
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      checkStorable(k, `${where} key`);
      checkStorable(v, `${where}.${k}`);
    }
  } else if (value === null) {
    throw new TypeError(`${where} is null; omit unset fields instead`);
  }
}

/** Checks a value inside a map or list against its declared type (SQL casts it when filtering). */
function checkValue(type: FieldType, value: unknown, path: string): void {
  if (type.kind === 'message') {
    if (!isObject(value)) throw new TypeError(`${path} must be a message`);
    for (const [name, field] of Object.entries(type.fields)) {
      if (value[name] !== undefined) checkValue(field, value[name], `${path}.${name}`);
    }
    return;
  }
  if (type.kind === 'map' || type.kind === 'repeated') {
    encode({ path, type } as SqlColumn, value);
    return;
  }
  if (value !== undefined) encode({ path, type } as SqlColumn, value);
}

/** The PostgreSQL types a table of your own may use for each field kind; the first is the default. */
const OWN_TYPES: Partial<Record<FieldType['kind'], readonly SqlColumnType[]>> = {
  string: ['text', 'varchar'],
  int64: ['bigint', 'integer', 'numeric'],
  double: ['double precision', 'numeric'],
  bool: ['boolean'],
  enum: ['text', 'varchar', 'enum'],
  timestamp: ['timestamptz', 'timestamp'],
  map: ['jsonb'],
  repeated: ['jsonb'],
};

/** Timestamps as the engine reads them: RFC 3339 in UTC with six fractional digits. */
const TIMESTAMP_TEXT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * How the engine reads an own column of this kind: its comparable value, its sort value (and
 * whether that can be null), and the text it selects; `note` records where SQL's semantics
 * differ from the engine's.
 */
function ownColumnSql(
  type: FieldType,
  sqlType: string,
  quoted: string,
  nullable: boolean,
  note: (reason: string) => void,
): { value: string; sortValue: string; sortNullable: boolean; select: string } {
  const or = (fallback: string, expr = quoted) =>
    nullable ? `COALESCE(${expr}, ${fallback})` : expr;
  let value: string;
  let sortValue: string;
  let sortNullable = false;
  let select = `${quoted}::text`;
  switch (type.kind) {
    case 'string':
      value = `${or(`''`)} COLLATE "C"`;
      sortValue = value;
      select = quoted;
      note(
        'compared and ordered under COLLATE "C" (code points), whatever the column\'s collation: only an index built COLLATE "C" serves it',
      );
      break;
    case 'int64':
      value = or('0');
      sortValue = value;
      break;
    case 'double':
      value = sqlType === 'numeric' ? or('0', `${quoted}::float8`) : or('0');
      sortValue = value;
      select = sqlType === 'numeric' ? `${quoted}::float8::text` : select;
      if (sqlType === 'numeric') {
        note('numeric: compared and ordered as float8, the double the resource holds');
      }
      break;
    case 'bool':
      value = or('false');
      sortValue = value;
      break;
    case 'enum': {
      value = `${quoted}::text COLLATE "C"`;
      const cases = type.values.map((v, i) => `WHEN ${quoteLiteral(v)} THEN ${i}`).join(' ');
      sortValue = `(CASE ${quoted}::text ${cases} END)`;
      sortNullable = true;
      note(
        `${sqlType === 'enum' ? 'a PostgreSQL enum orders by its own declared order' : 'text orders alphabetically'}: ordered by the schema's declared order through a CASE, which no plain index serves`,
      );
      break;
    }
    case 'timestamp':
      value = quoted;
      sortValue = quoted;
      sortNullable = nullable;
      select = `to_char(${sqlType === 'timestamptz' ? `${quoted} AT TIME ZONE 'UTC'` : quoted}, ${TIMESTAMP_TEXT})`;
      note(
        `${sqlType} keeps microseconds, the engine nanoseconds: rows read back hold microseconds, a filter literal with nanoseconds is compared through its exact microsecond bound, and a page token whose cursor holds nanoseconds is refused`,
      );
      break;
    default:
      value = quoted;
      sortValue = quoted;
      sortNullable = nullable;
  }
  return { value, sortValue, sortNullable, select };
}

/** `sqlTable(schema, { document: false, … })`: a table of your own, with ordinary columns. */
function ownTable(schema: ResourceSchema, options: SqlTableOptions): SqlTable {
  if (options.documentType !== undefined) {
    throw new TypeError('documentType is for the document layout, not a table of your own');
  }
  const required = new Set([...(options.required ?? []), schema.key]);
  const declared = new Map(Object.entries(options.columns ?? {}));
  if (!declared.has(schema.key)) declared.set(schema.key, {});
  const columns: SqlColumn[] = [];
  const inexact: SqlInexactColumn[] = [];
  const names = new Set<string>();
  for (const [path, spec] of declared) {
    const { name = snakeCase(path), type: storage } =
      typeof spec === 'string' ? { name: spec, type: undefined } : spec;
    const steps = path.split('.');
    const type = steps.length === 1 ? schema.fields[path] : undefined;
    if (!type) {
      throw new TypeError(
        steps.length > 1
          ? `"${path}": a table of your own maps top-level fields only (nested message fields need the document layout)`
          : `"${path}" is not a field of the schema`,
      );
    }
    const allowed = OWN_TYPES[type.kind];
    if (!allowed) {
      throw new TypeError(
        `"${path}" (${type.kind}) has no column type that keeps the engine's semantics; leave it out of columns (filters on it run in memory)`,
      );
    }
    const sqlType = storage ?? allowed[0]!;
    if (!allowed.includes(sqlType)) {
      throw new TypeError(
        `"${path}" (${type.kind}) cannot be stored as ${sqlType}: use ${allowed.join(' or ')}`,
      );
    }
    if (names.has(name)) throw new TypeError(`two fields map to the column "${name}"`);
    names.add(name);
    const quoted = quoteIdentifier(name);
    const nullable = !required.has(path);
    const note = (reason: string) => inexact.push({ path, column: quoted, reason });
    const { value, sortValue, sortNullable, select } = ownColumnSql(
      type,
      sqlType,
      quoted,
      nullable,
      note,
    );
    columns.push({
      path,
      steps,
      name: quoted,
      type,
      sqlType: type.kind === 'map' || type.kind === 'repeated' ? 'jsonb' : sqlTypeOf(type),
      nullable: sortNullable,
      storage: sqlType,
      value,
      sortValue,
      sortNullable,
      select,
    });
  }
  const byPath = new Map(columns.map((c) => [c.path, c]));
  const table = quoteIdentifier(options.table);
  const coerce = options.coerce === true;
  const notYours = (what: string) => () => {
    throw new TypeError(`${what}: the table ${table} is your own (document: false)`);
  };
  return {
    schema,
    name: table,
    document: undefined,
    documentType: undefined,
    columns,
    inexact,
    column: (path) => byPath.get(path),
    insertColumns: columns.map((c) => c.name),
    createTable: notYours('createTable lays out listkit tables only'),
    row: notYours('row encodes listkit tables only'),
    readRow: (row) => {
      const resource: Record<string, unknown> = {};
      for (const column of columns) {
        const raw = row[column.name.slice(1, -1).replaceAll('""', '"')];
        if (raw === null || raw === undefined) continue;
        const value = readOwnColumn(column, raw, coerce);
        if (value !== undefined) resource[column.path] = value;
      }
      return resource;
    },
  };
}

/**
 * A timestamp with whole microseconds as PostgreSQL input text: RFC 3339 in UTC for
 * `timestamptz`, the same wall-clock time without the zone for `timestamp` (read as UTC).
 */
export function microsecondText(
  seconds: number,
  nanos: number,
  storage: 'timestamptz' | 'timestamp',
): string {
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  const text = `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}`;
  return storage === 'timestamptz' ? `${text}Z` : text;
}
