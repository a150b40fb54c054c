import type { Span } from '../errors.js';

/** The two filter languages, plus the empty filter that matches everything. */
export type FilterStyle = 'empty' | 'aip-160' | 'regex';

/** The parsed form of a filter. Every node carries the span of its source text. */
export type FilterAst = EmptyFilter | AipFilter | RegexFilter;

export interface EmptyFilter {
  style: 'empty';
  source: string;
}

export interface AipFilter {
  style: 'aip-160';
  source: string;
  expression: ExpressionNode;
}

/** Compute Engine's regular-expression style: one bare term, or parenthesized terms ANDed. */
export interface RegexFilter {
  style: 'regex';
  source: string;
  terms: RegexTermNode[];
}

/** `field eq pattern` / `field ne pattern`; the pattern is RE2 and must match the whole value. */
export interface RegexTermNode {
  type: 'regexTerm';
  field: MemberNode;
  operator: 'eq' | 'ne';
  pattern: RegexPattern;
  /** Written inside `( … )`. */
  parenthesized: boolean;
  span: Span;
}

export interface RegexPattern {
  /** The pattern text exactly as handed to RE2 (backslashes unchanged). */
  value: string;
  /** The quote used in the source, or null for an unquoted literal. */
  quote: '"' | "'" | null;
  span: Span;
}

export type ExpressionNode =
  | AndNode
  | SequenceNode
  | OrNode
  | NotNode
  | CompositeNode
  | RestrictionNode;

/** `a AND b`: explicit conjunction, the loosest operator. */
export interface AndNode {
  type: 'and';
  operands: ExpressionNode[];
  span: Span;
}

/** `a b`: juxtaposition, an implicit AND that binds tighter than `AND` but looser than `OR`. */
export interface SequenceNode {
  type: 'sequence';
  operands: ExpressionNode[];
  span: Span;
}

/** `a OR b`: binds tighter than AND and juxtaposition (unlike SQL). */
export interface OrNode {
  type: 'or';
  operands: ExpressionNode[];
  span: Span;
}

/** `NOT a` or `-a`. */
export interface NotNode {
  type: 'not';
  operand: ExpressionNode;
  syntax: 'NOT' | '-';
  span: Span;
}

/** `( expression )`, kept in the tree so that printing and the playground see the source shape. */
export interface CompositeNode {
  type: 'composite';
  expression: ExpressionNode;
  span: Span;
}

export type Comparator = '=' | '!=' | '<' | '<=' | '>' | '>=' | ':';

/**
 * `comparable comparator arg`, or a bare comparable: a value searched in the schema's text
 * fields (a "global restriction" such as `prod`) or a boolean function call.
 */
export interface RestrictionNode {
  type: 'restriction';
  comparable: ComparableNode;
  comparator?: Comparator;
  comparatorSpan?: Span;
  arg?: ArgNode;
  span: Span;
}

export type ComparableNode = MemberNode | CallNode;
export type ArgNode = ComparableNode | CompositeNode;

/** `a.b.c`: a field path on the left of a comparator, or a (possibly dotted) literal on the right. */
export interface MemberNode {
  type: 'member';
  segments: Segment[];
  span: Span;
}

/** `f(x, y)` or `a.b.f()`. */
export interface CallNode {
  type: 'call';
  /** The dotted name, such as `["math", "mem"]`. */
  name: Segment[];
  args: ArgNode[];
  span: Span;
}

/** The lexical kind of a segment, which decides how it may be read as a value. */
export type SegmentKind = 'text' | 'string' | 'number' | 'duration' | 'timestamp' | 'keyword';

export interface Segment {
  kind: SegmentKind;
  /** The decoded value: escapes resolved for strings, the source text otherwise. */
  value: string;
  /**
   * Offsets in `value` of `*` characters that were escaped (`\*`) and are therefore literal
   * stars rather than wildcards. Empty for most segments.
   */
  literalStars: number[];
  span: Span;
}
