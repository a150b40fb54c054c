// A schema read off sample records: what `listkit filter` uses when no schema is given. The rules
// are few and deterministic (same records, same schema), and every one is stated in docs/schemas.md.

import { defineSchema, type FieldType, type ResourceSchema } from '../field-type.js';
import { parseTimestamp } from '../timestamp.js';
import { withOptions } from './apply-options.js';
import { SchemaSourceError, type SchemaSourceOptions, unsupported } from './schema-source.js';

/**
 * Options of {@link inferSchema}.
 *
 * @example
 * ```ts
 * inferSchema(records, { key: 'id', sampleSize: 1000, mapKeys: 8 });
 * ```
 */
export interface InferSchemaOptions extends SchemaSourceOptions {
  /**
   * How many records are read, from the start of `records` (default 10,000). The rest are never
   * read, so inference costs the same on 10^6 records as on 10^4: a field that first appears
   * later is unknown to the schema.
   */
  sampleSize?: number;
  /**
   * An object field with more distinct keys than this across the sample is a map (default 32).
   * Objects whose keys are not identifiers (`app.kubernetes.io/name`, `80`), and objects of strings
   * whose keys differ between records (labels), are maps whatever their count.
   */
  mapKeys?: number;
}

const DEFAULT_SAMPLE = 10_000;
const DEFAULT_MAP_KEYS = 32;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** RFC 3339 date-time shape: parseTimestamp decides the rest. A date alone is not a timestamp. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}/;

/** What the sample showed at one path. */
class Observed {
  /** Record index of the first value of each JSON kind seen. */
  readonly firstSeen = new Map<string, number>();
  strings = 0;
  timestamps = 0;
  nonIntegers = 0;
  /** Present on this many of the objects holding it. */
  present = 0;
  /** Object members by key, in first-seen order. */
  readonly members = new Map<string, Observed>();
  /** Objects seen here, and how many of them had exactly the keys of the first. */
  objects = 0;
  objectsWithFirstKeys = 0;
  firstKeys: string | undefined;
  elements: Observed | undefined;

  see(value: unknown, record: number): void {
    const kind = jsonKind(value);
    if (!this.firstSeen.has(kind)) this.firstSeen.set(kind, record);
    if (kind === 'string') {
      this.strings++;
      if (DATE_TIME.test(value as string) && parseTimestamp(value as string)) this.timestamps++;
    } else if (kind === 'number') {
      if (!Number.isInteger(value)) this.nonIntegers++;
    } else if (kind === 'array') {
      this.elements ??= new Observed();
      for (const element of value as unknown[]) this.elements.see(element, record);
    } else if (kind === 'object') {
      const keys = Object.keys(value as object);
      const signature = keys.slice().sort().join('\u0000');
      this.objects++;
      this.firstKeys ??= signature;
      if (signature === this.firstKeys) this.objectsWithFirstKeys++;
      for (const key of keys) {
        let member = this.members.get(key);
        if (!member) {
          member = new Observed();
          this.members.set(key, member);
        }
        member.present++;
        member.see((value as Record<string, unknown>)[key], record);
      }
    }
  }
}

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * A schema inferred from sample records: strings, integers (int64) and other numbers (double),
 * booleans, nested objects (messages), arrays (repeated), objects with many or varied keys (maps),
 * and RFC 3339 date-times (timestamps, only when every sampled value parses). Records disagreeing
 * on a field's type are a {@link SchemaSourceError} `conflicting_types` naming the field and two
 * records, or a skipped field when `warnings` is given; so is a field that is only ever null or an
 * empty array. Reads at most `sampleSize` records. The key defaults to `name`, else `id`, when
 * every sampled record has it and no two share it.
 *
 * @example
 * ```ts
 * const schema = inferSchema([
 *   { name: 'a', size: 3, labels: { env: 'prod' }, created: '2025-01-01T00:00:00Z' },
 *   { name: 'b', size: 7, labels: { team: 'web' }, created: '2025-02-01T00:00:00Z' },
 * ]);
 * schema.fields.created; // { kind: 'timestamp' }
 * schema.fields.labels; // { kind: 'map', value: { kind: 'string' } }
 * compileFilter('labels.env = prod AND size > 2', schema);
 * ```
 */
export function inferSchema(
  records: Iterable<unknown>,
  options: InferSchemaOptions = {},
): ResourceSchema {
  const sampleSize = options.sampleSize ?? DEFAULT_SAMPLE;
  if (!Number.isInteger(sampleSize) || sampleSize < 1) {
    throw new SchemaSourceError('invalid_option', '', `sampleSize must be a positive integer`);
  }
  const root = new Observed();
  const sample: Record<string, unknown>[] = [];
  for (const record of records) {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      throw new SchemaSourceError(
        'invalid_source',
        `[${sample.length}]`,
        `record ${sample.length} is ${jsonKind(record)}, not an object`,
      );
    }
    root.see(record, sample.length);
    sample.push(record as Record<string, unknown>);
    if (sample.length >= sampleSize) break;
  }
  const context = { options, mapKeys: options.mapKeys ?? DEFAULT_MAP_KEYS };
  const fields = messageFields(root, '', context);
  const key = options.key ?? defaultKey(fields, sample);
  return defineSchema(withOptions({ key, fields }, options));
}

interface Context {
  options: SchemaSourceOptions;
  mapKeys: number;
}

function messageFields(
  observed: Observed,
  prefix: string,
  context: Context,
): Record<string, FieldType> {
  const fields: Record<string, FieldType> = {};
  for (const [name, member] of observed.members) {
    const path = prefix ? `${prefix}.${name}` : name;
    const type = fieldType(member, path, context);
    if (type) fields[name] = type;
  }
  return fields;
}

function fieldType(observed: Observed, path: string, context: Context): FieldType | undefined {
  const kinds = [...observed.firstSeen.keys()].filter((kind) => kind !== 'null');
  if (kinds.length > 1) {
    const [a, b] = kinds as [string, string];
    const at = (kind: string) => observed.firstSeen.get(kind);
    unsupported(context.options, {
      at: path,
      field: path,
      message: `records disagree on its type: ${a} in record ${at(a)}, ${b} in record ${at(b)}`,
    });
    return undefined;
  }
  switch (kinds[0]) {
    case undefined:
      unsupported(context.options, {
        at: path,
        field: path,
        message: 'only null in the sample, so its type is unknown',
      });
      return undefined;
    case 'string':
      return observed.timestamps === observed.strings ? { kind: 'timestamp' } : { kind: 'string' };
    case 'number':
      return observed.nonIntegers > 0 ? { kind: 'double' } : { kind: 'int64' };
    case 'boolean':
      return { kind: 'bool' };
    case 'array': {
      const elements = observed.elements;
      if (!elements || elements.firstSeen.size === 0) {
        unsupported(context.options, {
          at: path,
          field: path,
          message: 'only empty arrays in the sample, so its element type is unknown',
        });
        return undefined;
      }
      if (elements.firstSeen.has('array')) {
        unsupported(context.options, {
          at: path,
          field: path,
          message: 'arrays of arrays have no listkit type (filters cannot reach into them)',
        });
        return undefined;
      }
      const element = fieldType(elements, `${path}[]`, context);
      return element && { kind: 'repeated', element };
    }
    case 'object': {
      if (isMap(observed, context)) {
        const values = new Observed();
        for (const member of observed.members.values()) absorb(values, member);
        const value = fieldType(values, `${path}.*`, context);
        return value && { kind: 'map', value };
      }
      return { kind: 'message', fields: messageFields(observed, path, context) };
    }
    default:
      return undefined;
  }
}

/** Folds the object and array structure of `from` into `into` (map values share one type). */
function mergeInto(into: Observed, from: Observed): void {
  for (const [key, member] of from.members) {
    const existing = into.members.get(key);
    if (!existing) into.members.set(key, member);
    else absorb(existing, member);
  }
  into.objects += from.objects;
  into.objectsWithFirstKeys += from.objectsWithFirstKeys;
  into.firstKeys ??= from.firstKeys;
  if (from.elements) {
    if (!into.elements) into.elements = from.elements;
    else absorb(into.elements, from.elements);
  }
}

function absorb(into: Observed, from: Observed): void {
  for (const [kind, record] of from.firstSeen) {
    const first = into.firstSeen.get(kind);
    if (first === undefined || record < first) into.firstSeen.set(kind, record);
  }
  into.strings += from.strings;
  into.timestamps += from.timestamps;
  into.nonIntegers += from.nonIntegers;
  into.present += from.present;
  mergeInto(into, from);
}

function isMap(observed: Observed, context: Context): boolean {
  const keys = [...observed.members.keys()];
  if (keys.length === 0) return false;
  if (keys.length > context.mapKeys) return true;
  if (keys.some((key) => !IDENTIFIER.test(key))) return true;
  // Labels: strings under keys that change from record to record.
  const allStrings = [...observed.members.values()].every(
    (member) => member.firstSeen.size === 1 && member.firstSeen.has('string'),
  );
  return allStrings && observed.objectsWithFirstKeys < observed.objects;
}

function defaultKey(fields: Record<string, FieldType>, sample: Record<string, unknown>[]): string {
  for (const candidate of ['name', 'id']) {
    const type = fields[candidate];
    if (!type || !['string', 'int64'].includes(type.kind)) continue;
    const seen = new Set<unknown>();
    if (
      sample.every(
        (record) =>
          record[candidate] != null && !seen.has(record[candidate]) && seen.add(record[candidate]),
      )
    ) {
      return candidate;
    }
  }
  throw new SchemaSourceError(
    'invalid_option',
    '',
    "no key: neither 'name' nor 'id' is present and unique in every sampled record; name the key field",
  );
}
