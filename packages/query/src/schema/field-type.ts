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
export interface ScalarType extends FieldOptions {
  /**
   * - `string`: text.
   * - `int64`: a JSON string (or safe number) holding a 64-bit integer, compared exactly.
   * - `double`: a JSON number.
   * - `bool`: a JSON boolean.
   * - `timestamp`: RFC 3339 text, compared as an instant to the nanosecond.
   * - `duration`: protobuf JSON duration text such as `"1.5s"`, compared as a quantity.
   */
  kind: 'string' | 'int64' | 'double' | 'bool' | 'timestamp' | 'duration';
}

/**
 * @example
 * ```ts
 * const scheme: EnumType = t.enum(['EXTERNAL', 'INTERNAL']);
 * ```
 */
export interface EnumType extends FieldOptions {
  kind: 'enum';
  /** The value names, case-sensitive. Their declared order is the sort order. */
  values: readonly string[];
}

/**
 * @example
 * ```ts
 * const backend: MessageType = t.message({ zone: t.string(), weight: t.int64() });
 * ```
 */
export interface MessageType extends FieldOptions {
  kind: 'message';
  fields: Readonly<Record<string, FieldType>>;
}

/**
 * A map from string keys to values of one type (JSON object).
 *
 * @example
 * ```ts
 * const labels: MapType = t.map(t.string()); // labels.env = prod, labels:env
 * ```
 */
export interface MapType extends FieldOptions {
  kind: 'map';
  value: FieldType;
}

/**
 * @example
 * ```ts
 * const ports: RepeatedType = t.repeated(t.string()); // ports:80
 * ```
 */
export interface RepeatedType extends FieldOptions {
  kind: 'repeated';
  element: FieldType;
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
export interface ResourceSchema {
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
}

type Options = FieldOptions;

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
  string: (o: Options = {}): ScalarType => ({ kind: 'string', ...o }),
  int64: (o: Options = {}): ScalarType => ({ kind: 'int64', ...o }),
  double: (o: Options = {}): ScalarType => ({ kind: 'double', ...o }),
  bool: (o: Options = {}): ScalarType => ({ kind: 'bool', ...o }),
  timestamp: (o: Options = {}): ScalarType => ({ kind: 'timestamp', ...o }),
  duration: (o: Options = {}): ScalarType => ({ kind: 'duration', ...o }),
  enum: (values: readonly string[], o: Options = {}): EnumType => ({ kind: 'enum', values, ...o }),
  message: (fields: Record<string, FieldType>, o: Options = {}): MessageType => ({
    kind: 'message',
    fields,
    ...o,
  }),
  map: (value: FieldType, o: Options = {}): MapType => ({ kind: 'map', value, ...o }),
  repeated: (element: FieldType, o: Options = {}): RepeatedType => ({
    kind: 'repeated',
    element,
    ...o,
  }),
} as const;

/**
 * Declares a resource schema, checking that the key names a declared scalar field.
 *
 * @example
 * ```ts
 * const schema = defineSchema({ key: 'name', fields: { name: t.string({ sortable: true }) } });
 * ```
 */
export function defineSchema(schema: ResourceSchema): ResourceSchema {
  const key = lookupPath(schema, schema.key.split('.'));
  if (!key || key.kind === 'message' || key.kind === 'map' || key.kind === 'repeated') {
    throw new TypeError(`schema key "${schema.key}" must name a declared scalar field`);
  }
  return schema;
}

/** Resolves a dotted path through message fields; undefined when any segment is unknown. */
export function lookupPath(schema: ResourceSchema, path: readonly string[]): FieldType | undefined {
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
