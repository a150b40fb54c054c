// The public API of @listkit/query. Everything here is documented with an example.

export {
  formatProblem,
  type ListInput,
  ListkitError,
  type ListkitErrorCode,
  type Problem,
  type Span,
} from './errors.js';
export {
  explainFilter,
  type FilterClause,
  type FilterTrace,
  formatExplanation,
  traceFilter,
} from './explain/explain-filter.js';
export {
  compileFieldMask,
  type FieldMask,
  type FieldMaskOptions,
  listResponseType,
} from './field-mask/compile-field-mask.js';
export {
  DEFAULT_FIELD_MASK_LIMITS,
  type FieldMaskLimits,
  type MaskSegment,
  type MaskSelection,
  parseFieldMask,
} from './field-mask/parse-field-mask.js';
export type {
  AipFilter,
  AndNode,
  ArgNode,
  CallNode,
  ComparableNode,
  Comparator,
  CompositeNode,
  EmptyFilter,
  ExpressionNode,
  FilterAst,
  FilterStyle,
  MemberNode,
  NotNode,
  OrNode,
  RegexFilter,
  RegexPattern,
  RegexTermNode,
  RestrictionNode,
  Segment,
  SegmentKind,
  SequenceNode,
} from './filter/ast.js';
export type { CallArg, CheckedNode, FieldRef, Operand, PathStep } from './filter/checked.js';
export { type CheckResult, checkFilter } from './filter/checker.js';
export { type CompiledFilter, type CompileOptions, compileFilter } from './filter/compile.js';
export { detectFilterStyle } from './filter/detect-style.js';
export { DEFAULT_FILTER_LIMITS, type FilterLimits } from './filter/limits.js';
export { type ParseOptions, parseFilter } from './filter/parser.js';
export { printFilter } from './filter/printer.js';
export { re2jsEngine } from './filter/regex/re2js-engine.js';
export {
  DEFAULT_REGEX_CACHE_BYTES,
  RegexCache,
  type RegexCacheLimits,
} from './filter/regex/regex-cache.js';
export {
  type CompiledRegex,
  type RegexEngine,
  RegexSyntaxError,
  RegexTooLargeError,
} from './filter/regex/regex-engine.js';
export {
  type FilterToken,
  type FilterTokenKind,
  type Tokenized,
  tokenize,
} from './filter/tokenize.js';
export { type FilterNode, type FilterVisitor, walkFilter } from './filter/walk.js';
export {
  type CheckedVisitor,
  checkedChildren,
  checkedFieldsOf,
  fieldsRead,
  walkChecked,
} from './filter/walk-checked.js';
export type { AccessPath, ListPlan } from './list/access-path.js';
export {
  Collection,
  type CollectionOptions,
  type ListPage,
  type ListRequest,
} from './list/collection.js';
export { resolvePageSize } from './list/page-size.js';
export { SortedIndex } from './list/sorted-index.js';
export {
  type OrderBy,
  type OrderByOptions,
  type OrderTerm,
  parseOrderBy,
  type SortKey,
} from './order-by/order-by.js';
export type { SortValue } from './order-by/sort-key.js';
export {
  BoundPageQuery,
  type PageTokenBinding,
  PageTokenCodec,
  type PageTokenCodecOptions,
} from './page-token/page-token-codec.js';
export {
  type CheckResourceOptions,
  checkResource,
} from './schema/check-resource.js';
export { type Duration, parseDuration } from './schema/duration.js';
export type { FieldNames } from './schema/field-names.js';
export {
  defineSchema,
  type EnumType,
  type FieldOptions,
  type Fields,
  type FieldType,
  type FieldValue,
  type FunctionDeclaration,
  type FunctionValue,
  type Infer,
  type ItemOf,
  type MapType,
  type MessageType,
  type RepeatedType,
  type ResourceSchema,
  type ScalarKind,
  type ScalarType,
  type ScalarValues,
  type Simplify,
  t,
} from './schema/field-type.js';
export { type InferSchemaOptions, inferSchema } from './schema/sources/infer-schema.js';
export { type JsonSchemaOptions, schemaFromJsonSchema } from './schema/sources/json-schema.js';
export { parseSchemaJson } from './schema/sources/schema-json.js';
export {
  SchemaSourceError,
  type SchemaSourceErrorCode,
  type SchemaSourceOptions,
  type SchemaWarning,
} from './schema/sources/schema-source.js';
export { type Instant, parseTimestamp } from './schema/timestamp.js';
// The PostgreSQL planner is its own entry, `@listkit/query/sql`: not re-exported here.
