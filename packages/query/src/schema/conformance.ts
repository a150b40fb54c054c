// Whether a resource already holds every declared field in its JSON form: the question every
// validated put asks. Compiled once per fields object into closures (a Set per enum, a Map from
// name to check per message), so a put walks the resource's own keys, not the schema's, and
// re-reads nothing about the schema; a resource that does not conform goes to checkResource's
// slow pass, which converts or names the problem.
import { parseDuration } from './duration.js';
import type { Fields, FieldType } from './field-type.js';
import { type Instant, parseTimestampInto } from './timestamp.js';

/** Whether one value holds its field's JSON form. */
type Conforms = (value: unknown) => boolean;

const COMPILED = new WeakMap<Fields, (object: object) => boolean>();

/**
 * Whether every declared field that `object` sets holds its JSON form (nothing to convert, nothing
 * wrong). Fields the schema does not declare are not looked at.
 *
 * @example
 * ```ts
 * fieldsConform(schema.fields, { name: 'books/1', year: '1999' }); // true
 * fieldsConform(schema.fields, { name: 'books/1', year: 'soon' }); // false
 * ```
 */
export function fieldsConform(fields: Fields, object: object): boolean {
  let conforms = COMPILED.get(fields);
  if (!conforms) {
    conforms = compileFields(fields);
    COMPILED.set(fields, conforms);
  }
  return conforms(object);
}

function compileFields(fields: Fields): (object: object) => boolean {
  const byName = new Map<string, Conforms>();
  for (const [name, type] of Object.entries(fields)) byName.set(name, compile(type));
  return (object) => {
    // Own and inherited enumerable keys: an inherited value that does not conform sends the item
    // to the slow pass, which reads own properties only.
    for (const key in object) {
      const conforms = byName.get(key);
      if (conforms === undefined) continue;
      const value = (object as Record<string, unknown>)[key];
      if (value !== undefined && !conforms(value)) return false;
    }
    return true;
  };
}

function compile(type: FieldType): Conforms {
  switch (type.kind) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'enum': {
      const values = new Set<unknown>(type.values);
      return (value) => values.has(value);
    }
    case 'int64':
      return isInt64;
    case 'double':
      return (value) =>
        typeof value === 'number' ||
        value === 'NaN' ||
        value === 'Infinity' ||
        value === '-Infinity';
    case 'bool':
      return (value) => typeof value === 'boolean';
    case 'timestamp':
      return (value) => typeof value === 'string' && parseTimestampInto(value, SCRATCH);
    case 'duration':
      return (value) => typeof value === 'string' && parseDuration(value) !== undefined;
    case 'message': {
      const fields = type.fields;
      return (value) => isObject(value) && fieldsConform(fields, value);
    }
    case 'map': {
      const conforms = compile(type.value);
      return (value) => {
        if (!isObject(value)) return false;
        for (const key in value) {
          if (Object.hasOwn(value, key) && !conforms(value[key])) return false;
        }
        return true;
      };
    }
    case 'repeated': {
      const conforms = compile(type.element);
      return (value) => {
        if (!Array.isArray(value)) return false;
        for (let i = 0; i < value.length; i++) if (!conforms(value[i])) return false;
        return true;
      };
    }
  }
}

/** The int64 bounds as decimal text (19 digits), compared as text: no BigInt per value. */
const MAX_DIGITS = '9223372036854775807';
const MIN_DIGITS = '9223372036854775808';

/**
 * Whether a value is an int64 in JSON form: a safe integer, or decimal text in range.
 *
 * @example
 * ```ts
 * isInt64('9223372036854775807'); // true
 * isInt64('9223372036854775808'); // false
 * ```
 */
export function isInt64(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  // parseInt64's bound on the text, so that both accept the same values.
  if (typeof value !== 'string' || value.length > 21) return false;
  const negative = value.charCodeAt(0) === 45; // -
  const start = negative || value.charCodeAt(0) === 43 ? 1 : 0; // - +
  const length = value.length - start;
  if (length === 0) return false;
  for (let i = start; i < value.length; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
  }
  // Leading zeros keep the value, not the length: compare the significant digits.
  let first = start;
  while (first < value.length - 1 && value.charCodeAt(first) === 48) first++;
  const significant = value.length - first;
  if (significant < 19) return true;
  if (significant > 19) return false;
  return value.slice(first) <= (negative ? MIN_DIGITS : MAX_DIGITS);
}

const SCRATCH: Instant = { seconds: 0, nanos: 0 };

/**
 * A plain object (not null, an array or a Date): what messages and maps hold.
 *
 * @example
 * ```ts
 * isObject({ a: 1 }); // true
 * isObject([1]); // false
 * ```
 */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
