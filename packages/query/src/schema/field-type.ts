/**
 * Which spelling of a field name filters and orderBy accept: `json`, the lowerCamel JSON name
 * (`publishTime`, what REST callers see); `proto`, the snake_case name in the `.proto`
 * (`publish_time`, what gRPC callers and proto-first API docs write); `both`, either, with errors
 * and suggestions in the spelling the caller used. Resources, page tokens and SQL always use the
 * JSON names; only the text callers write is affected.
 *
 * @example
 * ```ts
 * const schema = defineSchema({ key: 'name', fieldNames: 'both', fields: { name: t.string(), publishTime: t.timestamp() } });
 * parseOrderBy('publish_time desc', schema).canonical; // 'publishTime desc'
 * ```
 */
export type FieldNames = 'json' | 'proto' | 'both';

/**
 * Options shared by every field declaration.
 *
 * @example
 * ```ts
 * t.string({ sortable: false, searchable: true });
 * ```
 */
export interface FieldOptions {
  /** May appear in an orderBy. Scalars and enums default to true; set false to forbid it. */
  sortable?: boolean;
  /** Searched by bare values (AIP-160 global restrictions such as `prod`). Strings only. */
  searchable?: boolean;
  /**
   * The field's name in its `.proto` when it is not the snake_case of the JSON name (a
   * `json_name` option); read when the schema's `fieldNames` is `proto` or `both`.
   */
  protoName?: string;
}

/**
 * The type of a resource field, as declared in a {@link ResourceSchema}.
 *
 * @example
 * ```ts
 * const type: FieldType | undefined = schema.fields.labels; // { kind: 'map', value: { kind: 'string' } }
 * ```
 */
export type FieldType = ScalarType | EnumType | MessageType | MapType | RepeatedType;

/**
 * @example
 * ```ts
 * const created: ScalarType = t.timestamp(); // { kind: 'timestamp' }
 * ```
 */
export interface ScalarType<K extends ScalarKind = ScalarKind> extends FieldOptions {
  /**
   * - `string`: text.
   * - `int64`: a JSON string (or safe number) holding a 64-bit integer, compared exactly.
   * - `double`: a JSON number.
   * - `bool`: a JSON boolean.
   * - `timestamp`: RFC 3339 text, compared as an instant to the nanosecond.
   * - `duration`: protobuf JSON duration text such as `"1.5s"`, compared as a quantity.
   */
  kind: K;
}

/**
 * The kinds of {@link ScalarType}.
 *
 * @example
 * ```ts
 * const kind: ScalarKind = 'timestamp';
 * ```
 */
export type ScalarKind = 'string' | 'int64' | 'double' | 'bool' | 'timestamp' | 'duration';

/**
 * @example
 * ```ts
 * const scheme: EnumType = t.enum(['EXTERNAL', 'INTERNAL']);
 * ```
 */
export interface EnumType<V extends string = string> extends FieldOptions {
  kind: 'enum';
  /** The value names, case-sensitive. Their declared order is the sort order. */
  values: readonly V[];
}

/**
 * @example
 * ```ts
 * const backend: MessageType = t.message({ zone: t.string(), weight: t.int64() });
 * ```
 */
export interface MessageType<F extends Fields = Fields> extends FieldOptions {
  kind: 'message';
  fields: F;
}

/**
 * Field types by field name: a schema's or a message's fields.
 *
 * @example
 * ```ts
 * const fields: Fields = { name: t.string(), year: t.int64() };
 * ```
 */
export type Fields = Readonly<Record<string, FieldType>>;

/**
 * A map from string keys to values of one type (JSON object).
 *
 * @example
 * ```ts
 * const labels: MapType = t.map(t.string()); // labels.env = prod, labels:env
 * ```
 */
export interface MapType<V extends FieldType = FieldType> extends FieldOptions {
  kind: 'map';
  value: V;
}

/**
 * @example
 * ```ts
 * const ports: RepeatedType = t.repeated(t.string()); // ports:80
 * ```
 */
export interface RepeatedType<E extends FieldType = FieldType> extends FieldOptions {
  kind: 'repeated';
  element: E;
}

/**
 * The JavaScript values a filter function receives and returns.
 *
 * @example
 * ```ts
 * const startsWith = (value: FunctionValue, prefix: FunctionValue) => String(value).startsWith(String(prefix));
 * ```
 */
export type FunctionValue = string | number | bigint | boolean | null | undefined | unknown;

/**
 * A function callable from AIP-160 filters, such as `startsWith(name, "web")`.
 *
 * @example
 * ```ts
 * const schema = defineSchema({
 *   key: 'name',
 *   fields: { name: t.string() },
 *   functions: { startsWith: { arity: 2, evaluate: (a, b) => String(a).startsWith(String(b)) } },
 * });
 * compileFilter('startsWith(name, "web")', schema);
 * ```
 */
export interface FunctionDeclaration {
  /**
   * The number of arguments, or `[min, max]`. Arguments are field paths (resolved to the
   * resource's value) or literals (passed as their text, or number for numeric literals).
   */
  arity: number | readonly [number, number];
  /** Returns whether the resource matches. Must not throw; return false instead. */
  evaluate(...args: FunctionValue[]): boolean;
}

/**
 * What a filter and an orderBy may refer to: the fields of one resource type.
 *
 * @example
 * ```ts
 * const schema = defineSchema({
 *   key: 'name',
 *   fields: {
 *     name: t.string({ sortable: true, searchable: true }),
 *     size: t.int64(),
 *     labels: t.map(t.string()),
 *     status: t.enum(['UP', 'DOWN']),
 *   },
 * });
 * ```
 */
export interface ResourceSchema<T = unknown> {
  /**
   * Type-level only, never set: the type of the resources this schema describes (see
   * {@link Infer}), which {@link defineSchema} infers from the fields and `Collection`,
   * `sqlTable` and `listFromSql` take their item type from. `unknown` for a schema built at run
   * time (from JSON Schema, a .proto or data): its items are then typed by the caller.
   */
  '~item'?(item: T): void;
  /** The resource fields by JSON name. */
  fields: Readonly<Record<string, FieldType>>;
  /** Path of the field whose value is unique per resource; it ends every ordering. */
  key: string;
  /** Functions that filters may call, by (possibly dotted) name. */
  functions?: Readonly<Record<string, FunctionDeclaration>>;
  /**
   * The only orderBy values accepted, in canonical form (`''` is the default order by key).
   * Unset: any ordering of sortable fields.
   */
  orderings?: readonly string[];
  /**
   * How filters and orderBy may spell field names: `json` (the default: `publishTime`), `proto`
   * (`publish_time`) or `both` (see {@link FieldNames}). Resources always hold JSON names.
   */
  fieldNames?: FieldNames;
}

type Options = FieldOptions;

/**
 * The JSON value of each scalar kind, as resources hold it (proto3 JSON).
 *
 * @example
 * ```ts
 * const year: ScalarValues['int64'] = '1965'; // or 1965
 * ```
 */
export interface ScalarValues {
  string: string;
  int64: string | number;
  double: number;
  bool: boolean;
  timestamp: string;
  duration: string;
}

/**
 * The value a field of this type holds in a resource: `string` for strings, timestamps and
 * durations, `string | number` for int64 (decimal text or a safe integer), `number`, `boolean`,
 * the union of an enum's value names, an object for a message, `Record<string, …>` for a map,
 * an array for a repeated field.
 *
 * @example
 * ```ts
 * const genre: FieldValue<EnumType<'SF' | 'CRIME'>> = 'SF';
 * ```
 */
export type FieldValue<F> =
  F extends ScalarType<infer K>
    ? ScalarValues[K]
    : F extends EnumType<infer V>
      ? V
      : F extends MessageType<infer G>
        ? ItemOf<G, never>
        : F extends MapType<infer V>
          ? Record<string, FieldValue<V>>
          : F extends RepeatedType<infer E>
            ? FieldValue<E>[]
            : never;

/**
 * The resource type of fields `F` whose key is `K`: the key required, every other field optional
 * (unset is a value, as in proto3). Fields not known when compiling (an index signature) give
 * `object`.
 *
 * @example
 * ```ts
 * type Book = ItemOf<{ name: ScalarType<'string'>; year: ScalarType<'int64'> }, 'name'>;
 * // { name: string; year?: string | number }
 * ```
 */
export type ItemOf<F, K> = string extends keyof F
  ? object
  : Simplify<
      { -readonly [N in keyof F as N extends K ? N : never]: FieldValue<F[N]> } & {
        -readonly [N in keyof F as N extends K ? never : N]?: FieldValue<F[N]>;
      }
    >;

/**
 * An intersection of object types as one object type, so that editors show an item's fields.
 *
 * @example
 * ```ts
 * type Book = Simplify<{ name: string } & { year?: string }>; // { name: string; year?: string }
 * ```
 */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The resource type a schema describes: what `defineSchema` inferred from its fields, or
 * `unknown` for a schema built at run time.
 *
 * @example
 * ```ts
 * const schema = defineSchema({ key: 'name', fields: { name: t.string(), year: t.int64() } });
 * type Book = Infer<typeof schema>; // { name: string; year?: string | number }
 * ```
 */
export type Infer<S> = S extends ResourceSchema<infer T> ? T : never;

/**
 * Field type constructors for {@link defineSchema}.
 *
 * @example
 * ```ts
 * t.message({ automaticRestart: t.bool() });
 * t.repeated(t.string());
 * ```
 */
export const t = {
  string: (o: Options = {}): ScalarType<'string'> => ({ kind: 'string', ...o }),
  int64: (o: Options = {}): ScalarType<'int64'> => ({ kind: 'int64', ...o }),
  double: (o: Options = {}): ScalarType<'double'> => ({ kind: 'double', ...o }),
  bool: (o: Options = {}): ScalarType<'bool'> => ({ kind: 'bool', ...o }),
  timestamp: (o: Options = {}): ScalarType<'timestamp'> => ({ kind: 'timestamp', ...o }),
  duration: (o: Options = {}): ScalarType<'duration'> => ({ kind: 'duration', ...o }),
  enum: <const V extends string>(values: readonly V[], o: Options = {}): EnumType<V> => ({
    kind: 'enum',
    values,
    ...o,
  }),
  message: <const F extends Fields>(fields: F, o: Options = {}): MessageType<F> => ({
    kind: 'message',
    fields,
    ...o,
  }),
  map: <V extends FieldType>(value: V, o: Options = {}): MapType<V> => ({
    kind: 'map',
    value,
    ...o,
  }),
  repeated: <E extends FieldType>(element: E, o: Options = {}): RepeatedType<E> => ({
    kind: 'repeated',
    element,
    ...o,
  }),
} as const;

/**
 * Declares a resource schema, checking that the key names a declared scalar field. The schema's
 * item type is inferred from its fields ({@link Infer}), so `new Collection(schema, …)` holds
 * typed items: the key required, every other field optional.
 *
 * @example
 * ```ts
 * const schema = defineSchema({ key: 'name', fields: { name: t.string({ sortable: true }), year: t.int64() } });
 * type Book = Infer<typeof schema>; // { name: string; year?: string | number }
 * ```
 */
export function defineSchema<const F extends Fields, const K extends string>(
  schema: Omit<ResourceSchema, 'fields' | 'key'> & { fields: F; key: K },
): ResourceSchema<ItemOf<F, K>> {
  const key = lookupPath(schema, schema.key.split('.'));
  if (!key || key.kind === 'message' || key.kind === 'map' || key.kind === 'repeated') {
    throw new TypeError(`schema key "${schema.key}" must name a declared scalar field`);
  }
  return schema as ResourceSchema<ItemOf<F, K>>;
}

/** Resolves a dotted path through message fields; undefined when any segment is unknown. */
export function lookupPath(
  schema: Pick<ResourceSchema, 'fields'>,
  path: readonly string[],
): FieldType | undefined {
  let fields: Readonly<Record<string, FieldType>> | undefined = schema.fields;
  let type: FieldType | undefined;
  for (const segment of path) {
    if (!fields || !Object.hasOwn(fields, segment)) return undefined;
    type = fields[segment];
    fields = type?.kind === 'message' ? type.fields : undefined;
  }
  return type;
}

/** The paths of every `searchable` string field, for bare-value (global) restrictions. */
export function searchablePaths(schema: ResourceSchema): string[][] {
  const out: string[][] = [];
  const walk = (fields: Readonly<Record<string, FieldType>>, prefix: string[]) => {
    for (const [name, type] of Object.entries(fields)) {
      if (type.kind === 'message') walk(type.fields, [...prefix, name]);
      else if (type.searchable) out.push([...prefix, name]);
    }
  };
  walk(schema.fields, []);
  return out;
}
