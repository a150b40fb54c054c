import type { Span } from '../errors.js';

/**
 * The two filter languages, plus the empty filter that matches everything.
 *
 * @example
 * ```ts
 * const style: FilterStyle = parseFilter('name eq "web-.*"').style; // 'regex'
 * ```
 */
export type FilterStyle = 'empty' | 'aip-160' | 'regex';

/**
 * The parsed form of a filter. Every node carries the span of its source text.
 *
 * @example
 * ```ts
 * const ast: FilterAst = parseFilter('a = 1 OR b = 2');
 * if (ast.style === 'aip-160') console.log(ast.expression.type); // 'or'
 * ```
 */
export type FilterAst = EmptyFilter | AipFilter | RegexFilter;

/**
 * An empty or all-space filter: it matches every resource.
 *
 * @example
 * ```ts
 * const ast = parseFilter('   ');
 * if (ast.style === 'empty') console.log('matches everything');
 * ```
 */
export interface EmptyFilter {
  style: 'empty';
  source: string;
}

/**
 * An AIP-160 filter: one expression tree.
 *
 * @example
 * ```ts
 * const ast = parseFilter('labels.env = prod');
 * if (ast.style === 'aip-160') walkFilter(ast, (node) => console.log(node.type));
 * ```
 */
export interface AipFilter {
  style: 'aip-160';
  source: string;
  expression: ExpressionNode;
}

/**
 * Compute Engine's regular-expression style: one bare term, or parenthesized terms ANDed.
 *
 * @example
 * ```ts
 * const ast = parseFilter('(name eq "web-.*")(region ne ".*west.*")');
 * if (ast.style === 'regex') ast.terms.length; // 2
 * ```
 */
export interface RegexFilter {
  style: 'regex';
  source: string;
  terms: RegexTermNode[];
}

/**
 * `field eq pattern` / `field ne pattern`; the pattern is RE2 and must match the whole value.
 *
 * @example
 * ```ts
 * const ast = parseFilter('name ne "web-.*"');
 * if (ast.style === 'regex') ast.terms[0]?.operator; // 'ne'
 * ```
 */
export interface RegexTermNode {
  type: 'regexTerm';
  field: MemberNode;
  operator: 'eq' | 'ne';
  pattern: RegexPattern;
  /** Written inside `( … )`. */
  parenthesized: boolean;
  span: Span;
}

/**
 * The pattern of a regex-style term, as written.
 *
 * @example
 * ```ts
 * const ast = parseFilter("name eq 'web-\\d+'");
 * if (ast.style === 'regex') ast.terms[0]?.pattern.quote; // "'"
 * ```
 */
export interface RegexPattern {
  /** The pattern text exactly as handed to RE2 (backslashes unchanged). */
  value: string;
  /** The quote used in the source, or null for an unquoted literal. */
  quote: '"' | "'" | null;
  span: Span;
}

/**
 * Any node of an AIP-160 expression tree.
 *
 * @example
 * ```ts
 * function count(node: ExpressionNode): number {
 *   return node.type === 'restriction' ? 1 : 0;
 * }
 * ```
 */
export type ExpressionNode =
  | AndNode
  | SequenceNode
  | OrNode
  | NotNode
  | CompositeNode
  | RestrictionNode;

/**
 * `a AND b`: explicit conjunction, the loosest operator.
 *
 * @example
 * ```ts
 * const ast = parseFilter('a = 1 AND b = 2');
 * if (ast.style === 'aip-160' && ast.expression.type === 'and') ast.expression.operands.length; // 2
 * ```
 */
export interface AndNode {
  type: 'and';
  operands: ExpressionNode[];
  span: Span;
}

/**
 * `a b`: juxtaposition, an implicit AND that binds tighter than `AND` but looser than `OR`.
 *
 * @example
 * ```ts
 * const ast = parseFilter('a = 1 b = 2');
 * if (ast.style === 'aip-160') ast.expression.type; // 'sequence'
 * ```
 */
export interface SequenceNode {
  type: 'sequence';
  operands: ExpressionNode[];
  span: Span;
}

/**
 * `a OR b`: binds tighter than AND and juxtaposition (unlike SQL).
 *
 * @example
 * ```ts
 * const ast = parseFilter('a = 1 OR a = 2');
 * if (ast.style === 'aip-160') ast.expression.type; // 'or'
 * ```
 */
export interface OrNode {
  type: 'or';
  operands: ExpressionNode[];
  span: Span;
}

/**
 * `NOT a` or `-a`.
 *
 * @example
 * ```ts
 * const ast = parseFilter('-name:web');
 * if (ast.style === 'aip-160' && ast.expression.type === 'not') ast.expression.syntax; // '-'
 * ```
 */
export interface NotNode {
  type: 'not';
  operand: ExpressionNode;
  syntax: 'NOT' | '-';
  span: Span;
}

/**
 * `( expression )`, kept in the tree so that printing and the playground see the source shape.
 *
 * @example
 * ```ts
 * const ast = parseFilter('(a = 1 OR a = 2)');
 * if (ast.style === 'aip-160') ast.expression.type; // 'composite'
 * ```
 */
export interface CompositeNode {
  type: 'composite';
  expression: ExpressionNode;
  span: Span;
}

/**
 * The comparators of AIP-160; `:` is "has".
 *
 * @example
 * ```ts
 * const ast = parseFilter('size >= 10');
 * if (ast.style === 'aip-160' && ast.expression.type === 'restriction') ast.expression.comparator; // '>='
 * ```
 */
export type Comparator = '=' | '!=' | '<' | '<=' | '>' | '>=' | ':';

/**
 * `comparable comparator arg`, or a bare comparable: a value searched in the schema's text
 * fields (a "global restriction" such as `prod`) or a boolean function call.
 *
 * @example
 * ```ts
 * const ast = parseFilter('labels.env:*');
 * if (ast.style === 'aip-160' && ast.expression.type === 'restriction') ast.expression.comparator; // ':'
 * ```
 */
export interface RestrictionNode {
  type: 'restriction';
  comparable: ComparableNode;
  comparator?: Comparator;
  comparatorSpan?: Span;
  arg?: ArgNode;
  span: Span;
}

/**
 * The left side of a restriction: a member path or a function call.
 *
 * @example
 * ```ts
 * walkFilter(parseFilter('startsWith(name, "web")'), (node) => {
 *   if (node.type === 'restriction') console.log(node.comparable.type); // 'call'
 * });
 * ```
 */
export type ComparableNode = MemberNode | CallNode;
/**
 * The right side of a restriction: a value, a call, or a parenthesised expression.
 *
 * @example
 * ```ts
 * walkFilter(parseFilter('a = (1 OR 2)'), (node) => {
 *   if (node.type === 'restriction') console.log(node.arg?.type); // 'composite'
 * });
 * ```
 */
export type ArgNode = ComparableNode | CompositeNode;

/**
 * `a.b.c`: a field path on the left of a comparator, or a (possibly dotted) literal on the right.
 *
 * @example
 * ```ts
 * walkFilter(parseFilter('labels.env = prod'), (node) => {
 *   if (node.type === 'member') console.log(node.segments.map((s) => s.value).join('.'));
 * });
 * ```
 */
export interface MemberNode {
  type: 'member';
  segments: Segment[];
  span: Span;
}

/**
 * `f(x, y)` or `a.b.f()`.
 *
 * @example
 * ```ts
 * walkFilter(parseFilter('startsWith(name, "web")'), (node) => {
 *   if (node.type === 'call') console.log(node.name.map((s) => s.value).join('.'), node.args.length);
 * });
 * ```
 */
export interface CallNode {
  type: 'call';
  /** The dotted name, such as `["math", "mem"]`. */
  name: Segment[];
  args: ArgNode[];
  span: Span;
}

/**
 * The lexical kind of a segment, which decides how it may be read as a value.
 *
 * @example
 * ```ts
 * walkFilter(parseFilter('created > 2024-01-01T00:00:00Z'), (node) => {
 *   if (node.type === 'member') console.log(node.segments[0]?.kind); // 'text', then 'timestamp'
 * });
 * ```
 */
export type SegmentKind = 'text' | 'string' | 'number' | 'duration' | 'timestamp' | 'keyword';

/**
 * One dot-separated part of a member or function name, with its lexical kind.
 *
 * @example
 * ```ts
 * walkFilter(parseFilter('name = "web\\*"'), (node) => {
 *   if (node.type === 'member' && node.segments[0]?.kind === 'string') console.log(node.segments[0].literalStars); // [3]
 * });
 * ```
 */
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
