// listkit's own schema as JSON: exactly the ResourceSchema shape (without functions), which is
// what `listkit filter --print-schema` prints and `--schema` reads back.
import type { FieldNames } from '../field-names.js';
import { defineSchema, type FieldType, type ResourceSchema } from '../field-type.js';
import { SchemaSourceError } from './schema-source.js';

const SCALARS = new Set(['string', 'int64', 'double', 'bool', 'timestamp', 'duration']);
const FIELD_NAMES: readonly FieldNames[] = ['json', 'proto', 'both'];

/**
 * Reads listkit's schema JSON (`JSON.stringify` of any {@link ResourceSchema} without functions)
 * and checks it, naming the JSON pointer of the first problem (`invalid_source`).
 *
 * @example
 * ```ts
 * const schema = parseSchemaJson(JSON.parse(readFileSync('books.schema.json', 'utf8')));
 * parseSchemaJson({ key: 'name', fields: { name: { kind: 'text' } } });
 * // SchemaSourceError: /fields/name/kind: 'text' is not a field kind (string, int64, …)
 * ```
 */
export function parseSchemaJson(value: unknown): ResourceSchema {
  const root = object(value, '');
  known(root, '', ['key', 'fields', 'orderings', 'fieldNames']);
  if (typeof root.key !== 'string') fail('/key', 'must be the path of the key field');
  const fields = fieldMap(root.fields, '/fields');
  let orderings: string[] | undefined;
  if (root.orderings !== undefined) {
    if (!Array.isArray(root.orderings) || root.orderings.some((o) => typeof o !== 'string')) {
      fail('/orderings', 'must be an array of orderBy strings');
    }
    orderings = root.orderings as string[];
  }
  const { fieldNames } = root;
  if (fieldNames !== undefined && !FIELD_NAMES.includes(fieldNames as FieldNames)) {
    fail('/fieldNames', `must be one of ${FIELD_NAMES.join(', ')}`);
  }
  const schema: ResourceSchema = {
    key: root.key,
    fields,
    ...(orderings ? { orderings } : {}),
    ...(fieldNames ? { fieldNames: fieldNames as FieldNames } : {}),
  };
  try {
    return defineSchema(schema);
  } catch (error) {
    return fail('/key', (error as Error).message);
  }
}

function fieldMap(value: unknown, at: string): Record<string, FieldType> {
  const members = object(value, at);
  const fields: Record<string, FieldType> = {};
  for (const [name, type] of Object.entries(members)) {
    fields[name] = fieldType(type, `${at}/${pointerToken(name)}`);
  }
  return fields;
}

function fieldType(value: unknown, at: string): FieldType {
  const type = object(value, at);
  const flags = ['sortable', 'searchable'] as const;
  const members = ['kind', ...flags, 'protoName'];
  for (const flag of flags) {
    if (type[flag] !== undefined && typeof type[flag] !== 'boolean')
      fail(`${at}/${flag}`, 'must be a boolean');
  }
  if (type.protoName !== undefined && typeof type.protoName !== 'string')
    fail(`${at}/protoName`, 'must be the field name in the .proto');
  const options = Object.fromEntries(
    [...flags, 'protoName'].filter((f) => type[f] !== undefined).map((f) => [f, type[f]]),
  );
  const kind = type.kind;
  if (typeof kind === 'string' && SCALARS.has(kind)) {
    known(type, at, members);
    return { kind, ...options } as FieldType;
  }
  switch (kind) {
    case 'enum': {
      known(type, at, [...members, 'values']);
      const values = type.values;
      if (
        !Array.isArray(values) ||
        values.length === 0 ||
        values.some((v) => typeof v !== 'string')
      ) {
        fail(`${at}/values`, 'must be a non-empty array of value names');
      }
      return { kind, values: values as string[], ...options };
    }
    case 'message':
      known(type, at, [...members, 'fields']);
      return { kind, fields: fieldMap(type.fields, `${at}/fields`), ...options };
    case 'map':
      known(type, at, [...members, 'value']);
      return { kind, value: fieldType(type.value, `${at}/value`), ...options };
    case 'repeated':
      known(type, at, [...members, 'element']);
      return { kind, element: fieldType(type.element, `${at}/element`), ...options };
    default:
      return fail(
        `${at}/kind`,
        `${JSON.stringify(kind)} is not a field kind (${[...SCALARS, 'enum', 'message', 'map', 'repeated'].join(', ')})`,
      );
  }
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail(at, 'must be a JSON object');
  }
  return value as Record<string, unknown>;
}

function known(value: Record<string, unknown>, at: string, names: readonly string[]): void {
  const extra = Object.keys(value).find((name) => !names.includes(name));
  if (extra !== undefined)
    fail(`${at}/${pointerToken(extra)}`, `unknown member (expected ${names.join(', ')})`);
}

/** RFC 6901: `~` and `/` escaped in a pointer token. */
export function pointerToken(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

function fail(at: string, message: string): never {
  throw new SchemaSourceError('invalid_source', at, message);
}
