import type { ResourceSchema } from '../schema/field-type.js';
import { snakeCase } from './column-values.js';
import type { OwnColumnSql, SqlDialect } from './dialect.js';
import { sqlTypeOf } from './document-table.js';
import { ownRow } from './own-row.js';
import { readOwnColumn } from './read-own-column.js';
import type { SqlColumn, SqlInexactColumn, SqlTable, SqlTableOptions } from './table-types.js';

// A table of your own (`document: false`): the columns a server already has, no document.

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
  // An entry set to undefined is no entry (as an absent property).
  const declared = new Map(
    Object.entries(options.columns ?? {}).filter(([, spec]) => spec !== undefined),
  );
  if (!declared.has(schema.key)) declared.set(schema.key, {});
  const columns: SqlColumn[] = [];
  const inexact: SqlInexactColumn[] = [];
  const names = new Set<string>();
  const table = dialect.quoteIdentifier(options.table);
  const decoders = new Map<string, NonNullable<OwnColumnSql['decode']>>();
  const notNull = new Set<string>();
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
    const allowed = dialect.capabilities.ownColumnTypes[type.kind];
    if (!allowed) {
      throw new TypeError(
        `"${path}" (${type.kind}) has no column type that keeps the engine's semantics${dialect.name === 'postgres' ? '' : ` in ${dialect.name}`}; leave it out of columns (filters on it run in memory)`,
      );
    }
    const sqlType = storage ?? allowed[0]!;
    if (!allowed.includes(sqlType)) {
      throw new TypeError(
        `"${path}" (${type.kind}) cannot be stored as ${sqlType}${dialect.name === 'postgres' ? '' : ` in ${dialect.name}`}: use ${allowed.join(' or ')}`,
      );
    }
    if (names.has(name)) throw new TypeError(`two fields map to the column "${name}"`);
    names.add(name);
    const quoted = dialect.quoteIdentifier(name);
    const nullable = !required.has(path);
    const note = (reason: string) => inexact.push({ path, column: quoted, reason });
    const { value, sortValue, sortNullable, select, decode } = dialect.ownColumn({
      type,
      storage: sqlType,
      table,
      column: quoted,
      nullable,
      note,
    });
    if (decode) decoders.set(path, decode);
    if (!nullable) notNull.add(path);
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
  const coerce = options.coerce === true;
  const writes = ownRow(dialect, table, columns, notNull, schema.key);
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
    ...writes,
    readRow: (row) => {
      const resource: Record<string, unknown> = {};
      for (const column of columns) {
        const raw = row[column.name.slice(1, -1).replaceAll('""', '"')];
        if (raw === null || raw === undefined) continue;
        const decode = decoders.get(column.path);
        const value = readOwnColumn(column, decode ? decode(raw, column.path) : raw, coerce);
        if (value !== undefined) resource[column.path] = value;
      }
      return resource;
    },
  };
}
