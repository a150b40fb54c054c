import { parseDuration } from '../schema/duration.js';
import type { FieldType, ResourceSchema } from '../schema/field-type.js';
import { parseInt64 } from '../schema/int64.js';
import { parseTimestamp } from '../schema/timestamp.js';
import { isObject, nanosText, snakeCase } from './column-values.js';
import type { SqlDialect, SqlParamType } from './dialect.js';
import { isStorableText } from './sql-text.js';
import type { SqlColumn, SqlTable, SqlTableOptions } from './table-types.js';

// listkit's own layout: the resource as a jsonb (or json) document, plus a typed column per
// field reachable through messages.

/** `sqlTable(schema, { … })` in listkit's own layout: the resource as a document, a column per field. */
export function documentTable(
  schema: ResourceSchema,
  options: SqlTableOptions,
  dialect: SqlDialect,
): SqlTable {
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
      const quoted = dialect.quoteIdentifier(name);
      const nullable = !(required.has(path) || (alwaysSet && topLevel) || path === schema.key);
      const value = sqlType === 'text' ? dialect.codePoint(quoted) : quoted;
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
  const table = dialect.quoteIdentifier(options.table);
  const document = dialect.quoteIdentifier((options.document as string | undefined) ?? 'resource');
  const allowed = dialect.capabilities.documentTypes;
  const documentType = options.documentType ?? (allowed[0] as 'jsonb' | 'json');
  if (!allowed.includes(documentType)) {
    throw new TypeError(
      `documentType must be ${allowed.map((t) => `'${t}'`).join(' or ')} in ${dialect.name}, not ${String(documentType)}`,
    );
  }
  const columnDefinition = (c: SqlColumn) =>
    `${c.name} ${dialect.columnType(c.sqlType)}${c.nullable ? '' : ' NOT NULL'}`;
  const insertColumns = [document, ...columns.map((c) => c.name)];
  const row = (resource: object) => rowValues(columns, resource, dialect);
  const key = byPath.get(schema.key);
  if (!key) throw new TypeError(`schema key "${schema.key}" has no column`);
  return {
    schema,
    dialect,
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
    insertColumns,
    columnDefinition,
    createTable: () => {
      const lines = [
        `${document} ${dialect.columnType(documentType)} NOT NULL`,
        ...columns.map(columnDefinition),
      ];
      if (dialect.tableDefinition) return dialect.tableDefinition(table, lines, key.name);
      lines.push(`PRIMARY KEY (${key.name})`);
      return `CREATE TABLE IF NOT EXISTS ${table} (\n  ${lines.join(',\n  ')}\n)${dialect.tableSuffix}`;
    },
    row,
    insert: (resource) => {
      const types: SqlParamType[] = ['jsonb', ...columns.map(insertType)];
      const value = (i: number) =>
        dialect.insertPlaceholder ? dialect.insertPlaceholder(i + 1, types[i]!) : `$${i + 1}`;
      return dialect.finish({
        text: `INSERT INTO ${table} (${insertColumns.join(', ')}) VALUES (${insertColumns.map((_, i) => value(i)).join(', ')})`,
        params: row(resource),
      });
    },
  };
}

/** The values of a resource's row, document first, as the dialect stores them. */
function rowValues(
  columns: readonly SqlColumn[],
  resource: object,
  dialect: SqlDialect,
): (string | null)[] {
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
      parent === undefined ? undefined : (parent as Record<string, unknown>)[column.steps.at(-1)!];
    const encoded = parent === undefined ? null : encode(column, value);
    if (encoded === null && !column.nullable) {
      throw new TypeError(`${column.path} is required`);
    }
    values.push(dialect.paramValue(encoded, storedAs(column)));
  }
  return values;
}

/** How a column's canonical text is stored: the dialect may write booleans and nanoseconds its own way. */
function storedAs(column: SqlColumn): SqlParamType {
  if (column.sqlType === 'boolean') return 'boolean';
  return column.sqlType === 'numeric' ? 'nanos' : 'text';
}

/** The type a column's value is written as by the documented insert. */
function insertType(column: SqlColumn): SqlParamType {
  const types: Record<SqlColumn['sqlType'], SqlParamType> = {
    text: 'text',
    bigint: 'bigint',
    'double precision': 'float8',
    boolean: 'boolean',
    integer: 'integer',
    numeric: 'nanos',
    jsonb: 'jsonb',
  };
  return types[column.sqlType];
}

export function sqlTypeOf(type: FieldType): SqlColumn['sqlType'] {
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

/** A field value as its column's text; null for "no value". Throws on a value of the wrong type. */
export function encode(column: SqlColumn, value: unknown): string | null {
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
      checkStorable(value, path);
      return JSON.stringify(value);
    case 'repeated':
      if (value === undefined) return null;
      if (!Array.isArray(value)) wrong('an array');
      for (const [i, v] of (value as unknown[]).entries())
        checkValue(type.element, v, `${path}[${i}]`);
      checkStorable(value, path);
      return JSON.stringify(value);
    default:
      return null;
  }
}

/**
 * Rejects text PostgreSQL cannot store exactly (U+0000, lone surrogates) anywhere in a value,
 * and, where the value is written as JSON text (`json`), a number JSON has no text for: ±Infinity
 * (NaN is no double of a resource), which JSON.stringify would write as null.
 */
export function checkStorable(value: unknown, where: string, json = true): void {
  if (typeof value === 'string') {
    if (!isStorableText(value))
      throw new TypeError(
        `${where} holds text PostgreSQL cannot store (U+0000 or a lone surrogate)`,
      );
  } else if (typeof value === 'number') {
    if (json && !Number.isFinite(value)) {
      throw new TypeError(`${where} is ${value}, which JSON text cannot hold (it reads as null)`);
    }
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) checkStorable(v, `${where}[${i}]`, json);
  } else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      checkStorable(k, `${where} key`, json);
      checkStorable(v, `${where}.${k}`, json);
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
