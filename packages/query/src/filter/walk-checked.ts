import type { CheckedNode, FieldRef } from './checked.js';

/**
 * Called for each node of a checked filter, parents before children, with the node's parent
 * (undefined at the top). Return `false` to skip the node's children; anything else goes on.
 *
 * @example
 * ```ts
 * const visitor: CheckedVisitor = (node) => {
 *   if (node.type === 'not') return false; // leave negated clauses out
 * };
 * walkChecked(compileFilter('a = 1 AND NOT b = 2', schema).checked, visitor);
 * ```
 */
export type CheckedVisitor = (node: CheckedNode, parent: CheckedNode | undefined) => unknown;

/**
 * The direct children of a checked node, in source order: the operands of `and` and `or`, the
 * operand of `not`, nothing for a leaf (`compare`, `search`, `call`, `regex`, `all`). What a
 * recursive fold (an explanation, a trace) maps over without a switch of its own.
 *
 * @example
 * ```ts
 * const { checked } = compileFilter('a = 1 AND (b = 2 OR c = 3)', schema);
 * checkedChildren(checked).map((n) => n.type); // ['compare', 'or']
 * ```
 */
export function checkedChildren(node: CheckedNode): readonly CheckedNode[] {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.operands;
    case 'not':
      return [node.operand];
    default:
      return [];
  }
}

/**
 * Visits every node of a checked filter (`CompiledFilter.checked`, `checkFilter(...).checked`)
 * depth-first, parents before children and siblings in source order, so that callers need no
 * switch over node types to find, say, every comparison or every field read. Iterative, so any
 * tree the checker accepts is walked without deep recursion.
 *
 * @example
 * ```ts
 * const searches: string[] = [];
 * walkChecked(compileFilter('web AND labels.env = prod', schema).checked, (node) => {
 *   if (node.type === 'search') searches.push(node.text);
 * });
 * searches; // ['web']
 * ```
 */
export function walkChecked(root: CheckedNode, visit: CheckedVisitor): void {
  const stack: Array<[CheckedNode, CheckedNode | undefined]> = [[root, undefined]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop() as [CheckedNode, CheckedNode | undefined];
    if (visit(node, parent) === false) continue;
    const children = checkedChildren(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i] as CheckedNode, node]);
  }
}

/**
 * The fields a node reads, in source order: the field of a comparison or a regex term, the
 * searched fields of a bare value, the field arguments of a call. Only the node itself; walk the
 * tree for a whole filter (or use {@link checkedFieldsOf}).
 *
 * @example
 * ```ts
 * const { checked } = compileFilter('startsWith(name, "web")', schema);
 * fieldsRead(checked).map((f) => f.path); // ['name']
 * ```
 */
export function fieldsRead(node: CheckedNode): readonly FieldRef[] {
  switch (node.type) {
    case 'compare':
    case 'regex':
      return [node.field];
    case 'search':
      return node.fields;
    case 'call':
      return node.args.flatMap((a) => (a.kind === 'field' ? [a.field] : []));
    default:
      return [];
  }
}

/**
 * Every field a whole checked filter reads, in source order, repeats included: what a results
 * table shows as columns, or an index advisor looks at.
 *
 * @example
 * ```ts
 * const { checked } = compileFilter('labels.env = prod OR NOT name:web-*', schema);
 * checkedFieldsOf(checked).map((f) => f.path); // ['labels.env', 'name']
 * ```
 */
export function checkedFieldsOf(root: CheckedNode): FieldRef[] {
  const fields: FieldRef[] = [];
  walkChecked(root, (node) => {
    fields.push(...fieldsRead(node));
  });
  return fields;
}
