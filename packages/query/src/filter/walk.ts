import type { CallNode, ExpressionNode, FilterAst, MemberNode, RegexTermNode } from './ast.js';

/**
 * Any node of a parsed filter: an expression, a member path, a call or a regex-style term.
 *
 * @example
 * ```ts
 * walkFilter(parseFilter('a = 1'), (node: FilterNode) => console.log(node.type)); // restriction, member, member
 * ```
 */
export type FilterNode = ExpressionNode | MemberNode | CallNode | RegexTermNode;

/**
 * Called for each node, parents before children, with the node's parent (undefined at the top).
 * Return `false` to skip the node's children; anything else (`true`, nothing) goes on. The
 * result is `unknown` so a visitor with no `return` (returning `void`) fits.
 *
 * @example
 * ```ts
 * const fields: string[] = [];
 * const visitor: FilterVisitor = (node) => {
 *   if (node.type === 'member') fields.push(node.segments.map((s) => s.value).join('.'));
 * };
 * walkFilter(parseFilter('a = 1 AND b:x'), visitor);
 * ```
 */
export type FilterVisitor = (node: FilterNode, parent: FilterNode | undefined) => unknown;

/** The direct children of a node, in source order. */
function childrenOf(node: FilterNode): readonly FilterNode[] {
  switch (node.type) {
    case 'and':
    case 'or':
    case 'sequence':
      return node.operands;
    case 'not':
      return [node.operand];
    case 'composite':
      return [node.expression];
    case 'restriction':
      return node.arg ? [node.comparable, node.arg] : [node.comparable];
    case 'call':
      return node.args;
    case 'regexTerm':
      return [node.field];
    case 'member':
      return [];
  }
}

/**
 * Visits every node of a parsed filter depth-first, parents before children and siblings in
 * source order, so callers need no switch over node types of their own to find, say, every field
 * a filter reads. The empty filter has no nodes. Iterative, so any tree the parser accepts is
 * walked without deep recursion.
 *
 * @example
 * ```ts
 * const fields: string[] = [];
 * walkFilter(parseFilter('labels.env = prod AND NOT name:web-*'), (node, parent) => {
 *   if (node.type === 'member' && parent?.type === 'restriction' && parent.comparable === node) {
 *     fields.push(node.segments.map((s) => s.value).join('.'));
 *   }
 * });
 * fields; // ['labels.env', 'name']
 * ```
 */
export function walkFilter(ast: FilterAst, visit: FilterVisitor): void {
  const roots: readonly FilterNode[] =
    ast.style === 'aip-160' ? [ast.expression] : ast.style === 'regex' ? ast.terms : [];
  const stack: Array<[FilterNode, FilterNode | undefined]> = [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push([roots[i] as FilterNode, undefined]);
  while (stack.length > 0) {
    const [node, parent] = stack.pop() as [FilterNode, FilterNode | undefined];
    if (visit(node, parent) === false) continue;
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i] as FilterNode, node]);
  }
}
