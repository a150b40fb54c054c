import { ListkitError } from '../errors.js';
import { fieldsConform, isInt64, isObject } from './conformance.js';
import { parseDuration } from './duration.js';
import type { FieldType, ResourceSchema } from './field-type.js';
import { parseInt64 } from './int64.js';
import { type Instant, parseTimestampInto } from './timestamp.js';

/**
 * Options of {@link checkResource}.
 *
 * @example
 * ```ts
 * const options: CheckResourceOptions = { coerce: true }; // rows from a SQLite driver
 * ```
 */
export interface CheckResourceOptions {
  /**
   * Also accept the shapes database drivers produce, each turned into the schema's JSON form:
   *
   * - a bool field: `0` and `1` (SQLite, MySQL `TINYINT(1)`) as `false` and `true`;
   * - an int64 field: a `bigint` (drivers reading 64-bit integers exactly) as its decimal text;
   * - a double field: decimal text such as `"12.5"` (PostgreSQL `numeric`, MySQL `DECIMAL`) as
   *   the number;
   * - a timestamp field: a valid `Date` as RFC 3339 text in UTC;
   * - any field: JSON `null` as unset (the field is left out).
   *
   * Anything else of the wrong type is still refused. Off by default: every value must already
   * be in the schema's JSON form.
   */
  coerce?: boolean;
}

/**
 * Checks a resource against the schema: every field the schema declares that the resource sets
 * must hold a value of the field's type in its JSON form (text for strings, int64 as decimal
 * text or a safe integer, a number for doubles, a boolean, an enum's value name, RFC 3339 text
 * for timestamps, `"1.5s"` for durations, an object for messages and maps, an array for
 * repeated fields). Fields the schema does not declare are left as they are. Returns the
 * resource, or with `coerce` a copy holding the converted values when any was converted.
 * Throws a {@link ListkitError} (`input: 'resource'`, code `invalid_resource_value`, `source`
 * the field's path) naming the path, the value and the type expected.
 *
 * @example
 * ```ts
 * checkResource(schema, { name: 'books/1', year: '1999' }); // returned as it is
 * checkResource(schema, { name: 'books/1', year: 'soon' });
 * // ListkitError: year: expected an int64 (decimal text or a safe integer), got "soon"
 * checkResource(schema, { name: 'books/1', inPrint: 1 }, { coerce: true }); // { …, inPrint: true }
 * ```
 */
export function checkResource<T extends object>(
  schema: ResourceSchema,
  resource: T,
  options: CheckResourceOptions = {},
): T {
  if (!isObject(resource)) throw invalid('', resource, 'a resource object');
  // The common case, every value already in its JSON form, is decided by a check compiled once
  // per schema (every put pays it); the slow pass converts, or names what is wrong.
  if (fieldsConform(schema.fields, resource)) return resource;
  return checkFields(schema.fields, resource, '', options.coerce === true) as T;
}

/**
 * Checks one value against its field type; returns the value, or its converted form when
 * `coerce` converted it (`undefined`: leave the field unset). Throws like {@link checkResource}.
 *
 * @example
 * ```ts
 * checkValue(t.bool(), 1, 'inPrint', true); // true
 * ```
 */
export function checkValue(
  type: FieldType,
  value: unknown,
  path: string,
  coerce: boolean,
): unknown {
  if (value === null && coerce) return undefined;
  switch (type.kind) {
    case 'string':
      return typeof value === 'string' ? value : invalid(path, value, 'a string');
    case 'enum':
      return typeof value === 'string' && type.values.includes(value)
        ? value
        : invalid(path, value, `one of ${type.values.join(', ')}`);
    case 'int64':
      if (isInt64(value)) return value;
      if (coerce && typeof value === 'bigint' && parseInt64(String(value)) !== undefined) {
        return String(value);
      }
      return invalid(path, value, 'an int64 (decimal text or a safe integer)');
    case 'double':
      if (
        typeof value === 'number' ||
        value === 'NaN' ||
        value === 'Infinity' ||
        value === '-Infinity'
      )
        return value;
      if (coerce && typeof value === 'string' && DECIMAL.test(value)) return Number(value);
      return invalid(path, value, 'a number');
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (coerce && (value === 0 || value === 1)) return value === 1;
      return invalid(path, value, 'a boolean');
    case 'timestamp':
      if (typeof value === 'string' && parseTimestampInto(value, SCRATCH)) return value;
      if (coerce && value instanceof Date && !Number.isNaN(value.getTime())) {
        return value.toISOString();
      }
      return invalid(path, value, 'an RFC 3339 timestamp such as "2024-01-01T00:00:00Z"');
    case 'duration':
      return typeof value === 'string' && parseDuration(value)
        ? value
        : invalid(path, value, 'a duration such as "1.5s"');
    case 'message':
      return isObject(value)
        ? checkFields(type.fields, value, `${path}.`, coerce)
        : invalid(path, value, 'an object (a message)');
    case 'map':
      return isObject(value)
        ? checkMap(type.value, value, path, coerce)
        : invalid(path, value, 'an object (a map)');
    case 'repeated':
      return Array.isArray(value)
        ? checkList(type.element, value, path, coerce)
        : invalid(path, value, 'an array');
  }
}

/** The declared fields of an object, checked; a copy only when a value was converted. */
function checkFields(
  fields: Readonly<Record<string, FieldType>>,
  object: Record<string, unknown>,
  prefix: string,
  coerce: boolean,
): Record<string, unknown> {
  let out = object;
  for (const [name, type] of entriesOf(fields)) {
    const value = object[name];
    if (value === undefined || !Object.hasOwn(object, name)) continue;
    const checked = checkValue(type, value, prefix + name, coerce);
    if (checked !== value) {
      if (out === object) out = { ...object };
      if (checked === undefined) delete out[name];
      else out[name] = checked;
    }
  }
  return out;
}

function checkMap(
  type: FieldType,
  map: Record<string, unknown>,
  path: string,
  coerce: boolean,
): Record<string, unknown> {
  let out = map;
  for (const key of Object.keys(map)) {
    const value = map[key];
    const checked = checkValue(type, value, `${path}.${key}`, coerce);
    if (checked !== value) {
      if (out === map) out = { ...map };
      if (checked === undefined) delete out[key];
      else out[key] = checked;
    }
  }
  return out;
}

function checkList(type: FieldType, list: unknown[], path: string, coerce: boolean): unknown[] {
  let out = list;
  list.forEach((value, i) => {
    if (value === null) invalid(`${path}[${i}]`, value, 'a value (a list has no unset elements)');
    const checked = checkValue(type, value, `${path}[${i}]`, coerce);
    if (checked !== value) {
      if (out === list) out = [...list];
      out[i] = checked;
    }
  });
  return out;
}

/** The entries of each fields object, listed once: every put walks them. */
const ENTRIES = new WeakMap<object, [string, FieldType][]>();

function entriesOf(fields: Readonly<Record<string, FieldType>>): [string, FieldType][] {
  let entries = ENTRIES.get(fields);
  if (!entries) {
    entries = Object.entries(fields);
    ENTRIES.set(fields, entries);
  }
  return entries;
}

/** Decimal text as PostgreSQL `numeric` and MySQL `DECIMAL` write it. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const SCRATCH: Instant = { seconds: 0, nanos: 0 };

/** At most this much of a refused value is shown in the message. */
const SHOWN = 80;

function show(value: unknown): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (value instanceof Date)
    text = `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

/**
 * Throws the error of a value that does not match its field: a {@link ListkitError} on
 * `resource`, code `invalid_resource_value`, its `source` the path.
 */
export function invalid(path: string, value: unknown, expected: string): never {
  const where = path === '' ? 'the resource' : path;
  const unset = value === null ? ' (leave the field out to unset it, or pass coerce: true)' : '';
  const message = `${where}: expected ${expected}, got ${show(value)}${unset}`;
  throw ListkitError.of(
    'resource',
    'invalid_resource_value',
    message,
    { start: 0, end: path.length },
    path,
  );
}
