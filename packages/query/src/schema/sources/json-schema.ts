// A ResourceSchema from a JSON Schema (draft 2020-12 or draft-07): what Zod's z.toJSONSchema,
// TypeBox and OpenAPI 3.1 emit. Every construct either maps to a listkit type that filters the
// same values the same way, or is refused (or skipped and listed) by its JSON pointer.
import { defineSchema, type FieldType, type ResourceSchema } from '../field-type.js';
import { withOptions } from './apply-options.js';
import { pointerToken } from './schema-json.js';
import { SchemaSourceError, type SchemaSourceOptions, unsupported } from './schema-source.js';

/**
 * Options of {@link schemaFromJsonSchema}.
 *
 * @example
 * ```ts
 * schemaFromJsonSchema(openApi.components.schemas.Book, { key: 'name', maxDepth: 2, root: openApi });
 * ```
 */
export interface JsonSchemaOptions extends SchemaSourceOptions {
  /**
   * How many times one `$ref` may be followed within itself (a tree of comments, a folder in a
   * folder). Deeper levels are left out of the schema, so filters cannot name them. Default 3.
   */
  maxDepth?: number;
  /**
   * The document `$ref`s resolve against (`#/components/schemas/…` in an OpenAPI file), when
   * `schema` is a part of it. Default: `schema` itself.
   */
  root?: unknown;
}

type Json = Record<string, unknown>;

/** Keywords that say what a value is. Annotations (title, description, examples…) are ignored. */
const CONSTRAINTS_ONLY = new Set([
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'required',
  'default',
  'readOnly',
  'writeOnly',
  'deprecated',
  'nullable',
  'contentEncoding',
  'contentMediaType',
  'propertyNames',
]);
const UNSUPPORTED = [
  'patternProperties',
  'if',
  'then',
  'else',
  'not',
  'prefixItems',
  'dependentSchemas',
  'contains',
  'unevaluatedProperties',
  '$dynamicRef',
];

interface Walk {
  root: unknown;
  options: JsonSchemaOptions;
  maxDepth: number;
  /** How many times each $ref is open on the current path. */
  open: Map<string, number>;
}

/**
 * Maps a JSON Schema object schema to a {@link ResourceSchema}: `type` (with `"null"` allowed
 * beside one other type), `properties` (nested objects are messages), `items` (repeated),
 * `additionalProperties` with a schema (map), `enum` and `const` of strings (an enum in declared
 * order), `format: date-time` (timestamp) and `format: duration` (duration), `integer` (int64),
 * `number` (double), `boolean`, local `$ref`, `$defs` and `definitions`, `allOf` of objects, and
 * `anyOf`/`oneOf` whose branches are one type or null. Anything else (`oneOf` over different
 * types, `patternProperties`, `if`/`then`, tuples, external `$ref`…) throws a
 * {@link SchemaSourceError} naming its JSON pointer, or is skipped and listed in `warnings`.
 * The key defaults to a `name`, else `id`, property.
 *
 * @example
 * ```ts
 * const schema = schemaFromJsonSchema({
 *   type: 'object',
 *   properties: {
 *     name: { type: 'string' },
 *     state: { enum: ['ACTIVE', 'DELETED'] },
 *     createTime: { type: 'string', format: 'date-time' },
 *     labels: { type: 'object', additionalProperties: { type: 'string' } },
 *   },
 * });
 * compileFilter('state = ACTIVE AND createTime > "2025-01-01T00:00:00Z"', schema);
 * ```
 */
export function schemaFromJsonSchema(
  schema: unknown,
  options: JsonSchemaOptions = {},
): ResourceSchema {
  const walk: Walk = {
    root: options.root ?? schema,
    options,
    maxDepth: options.maxDepth ?? 3,
    open: new Map(),
  };
  const top = resolveRefs(schema, '', walk);
  if (!top) throw new SchemaSourceError('invalid_source', '', 'not a JSON Schema object');
  const type = mapType(top.node, top.at, walk);
  if (type?.kind !== 'message') {
    throw new SchemaSourceError(
      'invalid_source',
      top.at,
      `a resource schema must describe an object, not ${type ? type.kind : 'this'}`,
    );
  }
  const key = options.key ?? (['name', 'id'] as const).find((k) => isKeyType(type.fields[k]));
  if (key === undefined) {
    throw new SchemaSourceError(
      'invalid_option',
      '',
      `no key: the schema has no string or integer 'name' or 'id' property; name the key field (properties: ${Object.keys(type.fields).join(', ')})`,
    );
  }
  return defineSchema(withOptions({ key, fields: type.fields }, options));
}

function isKeyType(type: FieldType | undefined): boolean {
  return type?.kind === 'string' || type?.kind === 'int64';
}

/** Follows `$ref`s; undefined when the recursion is cut at `maxDepth`. */
function resolveRefs(
  value: unknown,
  at: string,
  walk: Walk,
): { node: Json; at: string; refs: string[] } | undefined {
  let node = value;
  let where = at;
  const refs: string[] = [];
  for (let hops = 0; ; hops++) {
    if (node === true || node === false) {
      return fail(walk, where, `the boolean schema ${node} says nothing about the type`);
    }
    if (node === null || typeof node !== 'object' || Array.isArray(node)) {
      throw new SchemaSourceError('invalid_source', where, 'a schema must be a JSON object');
    }
    const ref = (node as Json).$ref;
    if (ref === undefined) return { node: node as Json, at: where, refs };
    if (typeof ref !== 'string' || !ref.startsWith('#')) {
      throw new SchemaSourceError(
        'unresolved_reference',
        `${where}/$ref`,
        `only local references ('#/$defs/…') resolve, not ${JSON.stringify(ref)}`,
      );
    }
    if (hops > 64)
      throw new SchemaSourceError('unresolved_reference', `${where}/$ref`, 'a $ref cycle');
    const depth = walk.open.get(ref) ?? 0;
    if (depth >= walk.maxDepth) return undefined;
    refs.push(ref);
    node = lookupPointer(walk.root, ref, `${where}/$ref`);
    where = ref.slice(1);
  }
}

function lookupPointer(root: unknown, ref: string, at: string): unknown {
  let node = root;
  const tokens = ref.slice(1).split('/').slice(1);
  for (const raw of tokens) {
    const token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) {
      throw new SchemaSourceError(
        'unresolved_reference',
        at,
        `${JSON.stringify(ref)} does not resolve`,
      );
    }
    node = (node as Json)[token];
  }
  return node;
}

/** The listkit type of the schema at `at`, or undefined when skipped (warned) or cut. */
function mapField(value: unknown, at: string, walk: Walk): FieldType | undefined {
  const resolved = resolveRefs(value, at, walk);
  if (!resolved) return undefined; // recursion cut at maxDepth
  for (const ref of resolved.refs) walk.open.set(ref, (walk.open.get(ref) ?? 0) + 1);
  try {
    return mapType(resolved.node, resolved.at, walk);
  } finally {
    for (const ref of resolved.refs) walk.open.set(ref, walk.open.get(ref)! - 1);
  }
}

/** Patterns that accept every key: TypeBox writes `Record(String(), T)` as patternProperties. */
const ANY_KEY = new Set(['^(.*)$', '^.*$', '.*', '^.*', '']);

function mapType(node: Json, at: string, walk: Walk): FieldType | undefined {
  const patterns = node.patternProperties;
  if (patterns && typeof patterns === 'object' && node.properties === undefined) {
    const entries = Object.entries(patterns as Json);
    if (entries.length === 1 && ANY_KEY.has(entries[0]![0]) && node.additionalProperties !== true) {
      const value = mapField(
        entries[0]![1],
        `${at}/patternProperties/${pointerToken(entries[0]![0])}`,
        walk,
      );
      return value && { kind: 'map', value };
    }
  }
  for (const keyword of UNSUPPORTED) {
    if (node[keyword] !== undefined) {
      return fail(walk, `${at}/${keyword}`, `'${keyword}' has no listkit type`);
    }
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (node[keyword] !== undefined) return alternatives(node, keyword, at, walk);
  }
  if (node.allOf !== undefined) return allOf(node, at, walk);
  if (node.enum !== undefined || node.const !== undefined) return enumeration(node, at, walk);

  const types = typeList(node, at, walk);
  if (types === undefined) return undefined;
  switch (types) {
    case 'string':
      if (node.format === 'date-time') return { kind: 'timestamp' };
      if (node.format === 'duration') return { kind: 'duration' };
      return { kind: 'string' };
    case 'integer':
      return { kind: 'int64' };
    case 'number':
      return { kind: 'double' };
    case 'boolean':
      return { kind: 'bool' };
    case 'array':
      return array(node, at, walk);
    case 'object':
      return object(node, at, walk);
    default:
      return fail(
        walk,
        `${at}/type`,
        `type ${JSON.stringify(types)} is not one listkit can filter`,
      );
  }
}

/** The one non-null type a node declares (or implies), or undefined when skipped. */
function typeList(node: Json, at: string, walk: Walk): string | undefined {
  const declared = node.type;
  if (declared === undefined) {
    if (node.properties !== undefined || node.additionalProperties !== undefined) return 'object';
    if (node.items !== undefined) return 'array';
    return fail(
      walk,
      at,
      'no type: a schema without `type`, `properties`, `items` or `enum` accepts anything',
    );
  }
  const list = (Array.isArray(declared) ? declared : [declared]).filter((t) => t !== 'null');
  if (list.length === 1 && typeof list[0] === 'string') return list[0];
  if (list.length === 2 && list.includes('integer') && list.includes('number')) return 'number';
  return fail(
    walk,
    `${at}/type`,
    list.length === 0
      ? 'only null: nothing to filter'
      : `${JSON.stringify(declared)} mixes types; a field has one type`,
  );
}

function array(node: Json, at: string, walk: Walk): FieldType | undefined {
  if (node.items === undefined || Array.isArray(node.items)) {
    return fail(
      walk,
      `${at}/items`,
      node.items === undefined
        ? 'an array without `items` has no element type'
        : 'tuple `items` have no listkit type',
    );
  }
  const element = mapField(node.items, `${at}/items`, walk);
  if (!element) return undefined;
  if (element.kind === 'repeated')
    return fail(walk, `${at}/items`, 'arrays of arrays have no listkit type');
  return { kind: 'repeated', element };
}

function object(node: Json, at: string, walk: Walk): FieldType | undefined {
  const properties = node.properties;
  const additional = node.additionalProperties;
  const hasProperties =
    properties !== undefined && properties !== null && Object.keys(properties as Json).length > 0;
  if (additional !== undefined && typeof additional === 'object' && additional !== null) {
    if (hasProperties) {
      return fail(
        walk,
        at,
        '`properties` beside `additionalProperties` with a schema: neither a message nor a map',
      );
    }
    const value = mapField(additional, `${at}/additionalProperties`, walk);
    return value && { kind: 'map', value };
  }
  if (
    properties !== undefined &&
    (properties === null || typeof properties !== 'object' || Array.isArray(properties))
  ) {
    throw new SchemaSourceError(
      'invalid_source',
      `${at}/properties`,
      'must be an object of schemas',
    );
  }
  const fields: Record<string, FieldType> = {};
  for (const [name, member] of Object.entries((properties ?? {}) as Json)) {
    const type = mapField(member, `${at}/properties/${pointerToken(name)}`, walk);
    if (type) fields[name] = type;
  }
  return { kind: 'message', fields };
}

function enumeration(node: Json, at: string, walk: Walk): FieldType | undefined {
  const keyword = node.enum !== undefined ? 'enum' : 'const';
  const raw = keyword === 'enum' ? node.enum : [node.const];
  if (!Array.isArray(raw))
    throw new SchemaSourceError('invalid_source', `${at}/enum`, 'must be an array');
  const values = raw.filter((v) => v !== null);
  if (values.length > 0 && values.every((v) => typeof v === 'string')) {
    return { kind: 'enum', values: [...new Set(values as string[])] };
  }
  if (values.length > 0 && values.every((v) => typeof v === 'boolean')) return { kind: 'bool' };
  return fail(walk, `${at}/${keyword}`, 'only an enum of strings maps to a listkit enum');
}

function alternatives(
  node: Json,
  keyword: 'anyOf' | 'oneOf',
  at: string,
  walk: Walk,
): FieldType | undefined {
  const branches = node[keyword];
  if (!Array.isArray(branches)) {
    throw new SchemaSourceError(
      'invalid_source',
      `${at}/${keyword}`,
      'must be an array of schemas',
    );
  }
  const { [keyword]: _, ...rest } = node;
  const types: FieldType[] = [];
  for (const [i, branch] of branches.entries()) {
    if (isNullSchema(branch)) continue;
    // Siblings of anyOf (a description, a format) apply to every branch.
    const merged = Object.keys(rest).length > 0 ? { ...rest, allOf: [branch] } : branch;
    const type = mapField(merged, `${at}/${keyword}/${i}`, walk);
    if (!type) return undefined;
    types.push(type);
  }
  const [first] = types;
  if (first && types.every((t) => JSON.stringify(t) === JSON.stringify(first))) return first;
  // A union of string literals (TypeBox's Union of Literals, Zod's z.union of z.literal): one enum.
  if (first && types.every((t) => t.kind === 'enum')) {
    return {
      kind: 'enum',
      values: [...new Set(types.flatMap((t) => (t.kind === 'enum' ? t.values : [])))],
    };
  }
  return fail(
    walk,
    `${at}/${keyword}`,
    `${keyword} over different types (${types.map((t) => t.kind).join(', ')}) has no one listkit type`,
  );
}

function isNullSchema(branch: unknown): boolean {
  return typeof branch === 'object' && branch !== null && (branch as Json).type === 'null';
}

function allOf(node: Json, at: string, walk: Walk): FieldType | undefined {
  const parts = node.allOf;
  if (!Array.isArray(parts))
    throw new SchemaSourceError('invalid_source', `${at}/allOf`, 'must be an array');
  const { allOf: _, ...rest } = node;
  const schemas = [...parts.map((p, i) => ({ p, at: `${at}/allOf/${i}` }))];
  if (Object.keys(rest).some((k) => !CONSTRAINTS_ONLY.has(k) && !isAnnotation(k))) {
    schemas.unshift({ p: rest, at });
  }
  const types: FieldType[] = [];
  for (const { p, at: where } of schemas) {
    const type = mapField(p, where, walk);
    if (!type) return undefined;
    types.push(type);
  }
  if (types.length === 1) return types[0];
  if (types.every((t) => t.kind === 'message')) {
    const fields: Record<string, FieldType> = {};
    for (const type of types as Extract<FieldType, { kind: 'message' }>[]) {
      for (const [name, field] of Object.entries(type.fields)) {
        if (fields[name] && JSON.stringify(fields[name]) !== JSON.stringify(field)) {
          return fail(walk, `${at}/allOf`, `the parts disagree on the type of '${name}'`);
        }
        fields[name] = field;
      }
    }
    return { kind: 'message', fields };
  }
  const [first] = types;
  if (types.every((t) => JSON.stringify(t) === JSON.stringify(first))) return first;
  return fail(
    walk,
    `${at}/allOf`,
    `allOf over different types (${types.map((t) => t.kind).join(', ')})`,
  );
}

function isAnnotation(keyword: string): boolean {
  return (
    [
      'title',
      'description',
      'examples',
      'example',
      '$comment',
      '$id',
      '$schema',
      '$anchor',
      '$defs',
      'definitions',
      'format',
      'externalDocs',
      'xml',
      'discriminator',
    ].includes(keyword) || keyword.startsWith('x-')
  );
}

function fail(walk: Walk, at: string, message: string): undefined {
  unsupported(walk.options, { at, field: fieldPath(at), message });
  return undefined;
}

/** `/properties/owner/properties/login` → `owner.login` (undefined outside properties). */
function fieldPath(at: string): string | undefined {
  const names = [...at.matchAll(/\/properties\/([^/]+)/g)].map((m) =>
    m[1]!.replaceAll('~1', '/').replaceAll('~0', '~'),
  );
  return names.length > 0 ? names.join('.') : undefined;
}
