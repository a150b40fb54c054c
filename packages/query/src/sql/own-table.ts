import type { FieldType, ResourceSchema } from '../schema/field-type.js';
import { snakeCase } from './column-values.js';
import type { SqlDialect } from './dialect.js';
import { sqlTypeOf } from './document-table.js';
import { readOwnColumn } from './read-own-column.js';
import { quoteIdentifier, quoteLiteral } from './sql-text.js';
import type {
  SqlColumn,
  SqlColumnType,
  SqlInexactColumn,
  SqlTable,
  SqlTableOptions,
} from './table-types.js';

// A table of your own (`document: false`): the columns a server already has, no document.

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
export function ownTable(
  schema: ResourceSchema,
  options: SqlTableOptions,
  dialect: SqlDialect,
): SqlTable {
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
    dialect,
    name: table,
    document: undefined,
    documentType: undefined,
    columns,
    inexact,
    column: (path) => byPath.get(path),
    insertColumns: columns.map((c) => c.name),
    createTable: notYours('createTable lays out listkit tables only'),
    columnDefinition: notYours('columnDefinition lays out listkit tables only'),
    row: notYours('row encodes listkit tables only'),
    insert: notYours('insert writes listkit tables only'),
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
