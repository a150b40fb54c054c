import type { Span } from '../errors.js';
import type { Duration } from '../schema/duration.js';
import type { FieldType, FunctionDeclaration } from '../schema/field-type.js';
import type { Instant } from '../schema/timestamp.js';
import type { Comparator } from './ast.js';

/**
 * The checked form of a filter: every field resolved against the schema and every literal
 * converted to the field's type. The compiler turns it into a predicate; the playground
 * explains it. All nodes keep the span of the source text they came from.
 *
 * @example
 * ```ts
 * const { checked } = compileFilter('size > 10', schema);
 * if (checked.type === 'compare') console.log(checked.field.path, checked.operand.kind); // size int64
 * ```
 */
export type CheckedNode =
  | { type: 'all' }
  | { type: 'and' | 'or'; operands: CheckedNode[]; span: Span }
  | { type: 'not'; operand: CheckedNode; span: Span }
  | { type: 'compare'; field: FieldRef; comparator: Comparator; operand: Operand; span: Span }
  | { type: 'search'; fields: FieldRef[]; text: string; literalStars: number[]; span: Span }
  | { type: 'call'; name: string; fn: FunctionDeclaration; args: CallArg[]; span: Span }
  | {
      type: 'regex';
      field: FieldRef;
      operator: 'eq' | 'ne';
      pattern: string;
      patternSpan: Span;
      span: Span;
    };

/**
 * One step from a value to a nested value.
 *
 * @example
 * ```ts
 * const { checked } = compileFilter('labels.env = prod', schema);
 * if (checked.type === 'compare') checked.field.steps; // [{ kind: 'field', name: 'labels' }, { kind: 'key', name: 'env' }]
 * ```
 */
export type PathStep =
  | { kind: 'field'; name: string }
  | { kind: 'key'; name: string }
  /** Every element of a repeated field (only under `:`). */
  | { kind: 'each' };

/**
 * A resolved field path. `type` is the type of the value reached at the end.
 *
 * @example
 * ```ts
 * const { checked } = compileFilter('labels.env = prod', schema);
 * if (checked.type === 'compare') checked.field.type.kind; // 'string'
 * ```
 */
export interface FieldRef {
  path: string;
  steps: PathStep[];
  type: FieldType;
  span: Span;
}

/**
 * The right-hand side of a comparison, converted to the field's type.
 *
 * @example
 * ```ts
 * const { checked } = compileFilter('labels:env', schema);
 * if (checked.type === 'compare') checked.operand; // { kind: 'key', value: 'env' }
 * ```
 */
export type Operand =
  | { kind: 'string'; value: string; literalStars: number[] }
  | { kind: 'int64'; value: bigint }
  | { kind: 'double'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'enum'; value: string }
  | { kind: 'timestamp'; value: Instant }
  | { kind: 'duration'; value: Duration }
  /** `:*` — the field is set (non-empty). */
  | { kind: 'presence' }
  /** `map:key` — the map has the key. */
  | { kind: 'key'; value: string }
  /** `repeated:value` — some element equals the value. */
  | { kind: 'element'; element: Operand };

/**
 * An argument of a checked function call: a resolved field, or a literal.
 *
 * @example
 * ```ts
 * const { checked } = compileFilter('startsWith(name, "web")', schema);
 * if (checked.type === 'call') checked.args; // [{ kind: 'field', … }, { kind: 'literal', value: 'web' }]
 * ```
 */
export type CallArg =
  | { kind: 'field'; field: FieldRef }
  | { kind: 'literal'; value: string | number };
