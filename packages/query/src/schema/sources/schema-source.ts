// What every schema source (JSON Schema, protobuf, sample data, listkit's schema JSON) shares:
// the options a caller sets on top of what the source says, and how a source refuses. A source
// never guesses a type it cannot map: it throws, or skips the field and says so in `warnings`.

/**
 * A construct a schema source skipped because it has no faithful listkit type, reported only
 * when the caller passed a `warnings` array (otherwise the source throws {@link SchemaSourceError}).
 *
 * @example
 * ```ts
 * const warnings: SchemaWarning[] = [];
 * schemaFromJsonSchema(jsonSchema, { key: 'id', warnings });
 * for (const w of warnings) console.warn(`${w.at}: ${w.message}`); // "/properties/shape: oneOf over …"
 * ```
 */
export interface SchemaWarning {
  /** Where in the source: a JSON pointer (`/properties/owner/oneOf`), a protobuf path
   * (`google.cloud.compute.v1.ForwardingRule.ports`) or a field path of the data (`owner.login`). */
  at: string;
  /** The field path in the resulting schema that was skipped, when there is one (`owner.login`). */
  field?: string;
  /** What was skipped and why, in a sentence. */
  message: string;
}

/**
 * Options every schema source accepts. What they say wins over what the source says.
 *
 * @example
 * ```ts
 * const options: SchemaSourceOptions = {
 *   key: 'id',
 *   orderings: ['', 'createTime desc'],
 *   searchable: ['title', 'author.name'],
 * };
 * ```
 */
export interface SchemaSourceOptions {
  /** Path of the unique key field (it ends every ordering). Each source documents its default. */
  key?: string;
  /** The only orderBy values accepted, as in {@link ResourceSchema.orderings}. */
  orderings?: readonly string[];
  /** String field paths searched by bare values (AIP-160 global restrictions). */
  searchable?: readonly string[];
  /**
   * When given, a construct the source cannot map is skipped and reported here instead of
   * thrown as a {@link SchemaSourceError}.
   */
  warnings?: SchemaWarning[];
}

/**
 * Stable codes of {@link SchemaSourceError}.
 *
 * @example
 * ```ts
 * if (error instanceof SchemaSourceError && error.code === 'unsupported_construct') skipField();
 * ```
 */
export type SchemaSourceErrorCode =
  /** A construct with no faithful listkit type (`oneOf` over different types, `patternProperties`…). */
  | 'unsupported_construct'
  /** The source is not what it claims (not a JSON Schema object, a `.proto` that does not parse…). */
  | 'invalid_source'
  /** A `$ref`, message or type name that does not resolve. */
  | 'unresolved_reference'
  /** Sample records disagree on a field's type. */
  | 'conflicting_types'
  /** The key, an ordering or a searchable path names no suitable field. */
  | 'invalid_option';

/**
 * A schema source refused its input. `at` says where, as in {@link SchemaWarning.at}.
 *
 * @example
 * ```ts
 * try {
 *   schemaFromJsonSchema({ type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'integer' }] } } });
 * } catch (error) {
 *   if (error instanceof SchemaSourceError) console.error(error.code, error.at); // unsupported_construct /properties/v
 * }
 * ```
 */
export class SchemaSourceError extends Error {
  override readonly name = 'SchemaSourceError';

  constructor(
    readonly code: SchemaSourceErrorCode,
    /** Where in the source (JSON pointer, protobuf path or data path); `''` for the whole input. */
    readonly at: string,
    message: string,
  ) {
    super(at ? `${at}: ${message}` : message);
  }
}

/**
 * Reports a construct a source cannot map: pushed to `options.warnings` when the caller asked
 * for warnings (the caller then skips the field), thrown otherwise.
 */
export function unsupported(options: SchemaSourceOptions, warning: SchemaWarning): void {
  if (options.warnings) options.warnings.push(warning);
  else throw new SchemaSourceError('unsupported_construct', warning.at, warning.message);
}
