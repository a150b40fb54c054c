import type {
  ArgNode,
  ComparableNode,
  ExpressionNode,
  FilterAst,
  RegexTermNode,
  Segment,
} from './ast.js';
import { encodeString } from './unescape.js';

/**
 * Prints a filter tree as canonical text: single spaces, double-quoted strings, parentheses
 * exactly where the tree has composites. `parseFilter(printFilter(ast))` gives the same tree
 * (up to spans), which makes the output a stable cache and page-token key.
 *
 * @example
 * ```ts
 * printFilter(parseFilter("a=1   AND (b:'x')")); // 'a = 1 AND (b : "x")'
 * ```
 */
export function printFilter(ast: FilterAst): string {
  switch (ast.style) {
    case 'empty':
      return '';
    case 'aip-160':
      return printExpression(ast.expression);
    case 'regex':
      return ast.terms.map(printRegexTerm).join(' ');
  }
}

function printExpression(node: ExpressionNode): string {
  switch (node.type) {
    case 'and':
      return node.operands.map(printExpression).join(' AND ');
    case 'sequence':
      return node.operands.map(printExpression).join(' ');
    case 'or':
      return node.operands.map(printExpression).join(' OR ');
    case 'not':
      return node.syntax === 'NOT'
        ? `NOT ${printExpression(node.operand)}`
        : `-${printExpression(node.operand)}`;
    case 'composite':
      return `(${printExpression(node.expression)})`;
    case 'restriction': {
      const comparable = printComparable(node.comparable);
      if (!node.comparator || !node.arg) return comparable;
      return `${comparable} ${node.comparator} ${printArg(node.arg)}`;
    }
  }
}

function printArg(node: ArgNode): string {
  return node.type === 'composite'
    ? `(${printExpression(node.expression)})`
    : printComparable(node);
}

function printComparable(node: ComparableNode): string {
  if (node.type === 'member') return node.segments.map(printSegment).join('.');
  return `${node.name.map(printSegment).join('.')}(${node.args.map(printArg).join(', ')})`;
}

function printSegment(segment: Segment): string {
  if (segment.kind === 'string') return encodeString(segment.value, segment.literalStars);
  if (segment.literalStars.length === 0) return segment.value;
  const stars = new Set(segment.literalStars);
  return segment.value
    .split('')
    .map((c, i) => (stars.has(i) ? '\\*' : c))
    .join('');
}

function printRegexTerm(term: RegexTermNode): string {
  const field = term.field.segments.map((s) => s.value).join('.');
  const { quote, value } = term.pattern;
  const text = `${field} ${term.operator} ${quote ? quote + value + quote : value}`;
  return term.parenthesized ? `(${text})` : text;
}
