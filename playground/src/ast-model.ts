// The syntax tree as the AST view shows it: every node of @listkit/query's FilterAst (visited
// with its walkFilter), with its kind, a short description and the span of its source text, plus
// the pieces the tree holds as fields (segments, comparators, regex operators and patterns).
import {
  type FilterAst,
  type FilterNode,
  type Segment,
  type Span,
  walkFilter,
} from '@listkit/query';

export interface TreeNode {
  /** Stable within one tree: the path of child indexes, such as `0.2.1`. */
  id: string;
  kind: string;
  detail: string;
  span: Span;
  children: TreeNode[];
}

const treeNode = (
  kind: string,
  detail: string,
  span: Span,
  children: TreeNode[] = [],
): TreeNode => ({
  id: '',
  kind,
  detail,
  span,
  children,
});

const segmentNode = (s: Segment): TreeNode =>
  treeNode(`segment (${s.kind})`, JSON.stringify(s.value), s.span);

const short = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

/** Builds the display tree of a parsed filter. */
export function buildTree(ast: FilterAst): TreeNode {
  const source = ast.source;
  const all = { start: 0, end: source.length };
  let root: TreeNode;
  if (ast.style === 'empty') root = treeNode('filter · empty', 'matches every resource', all);
  else if (ast.style === 'aip-160') root = treeNode('filter · AIP-160', '', all);
  else
    root = treeNode(
      'filter · regex style',
      `${ast.terms.length} term${ast.terms.length === 1 ? '' : 's'}, ANDed`,
      all,
    );
  const shown = new Map<FilterNode, TreeNode>();
  walkFilter(ast, (node, parent) => {
    const display = describe(node, parent, source);
    shown.set(node, display);
    (parent ? shown.get(parent)! : root).children.push(display);
  });
  inSourceOrder(root);
  assignIds(root, '0');
  return root;
}

/** One node as the view shows it, with the pieces it holds that are not nodes themselves. */
function describe(node: FilterNode, parent: FilterNode | undefined, source: string): TreeNode {
  const text = (span: Span) => source.slice(span.start, span.end);
  const count = (n: number) => `${n} operands`;
  switch (node.type) {
    case 'and':
      return treeNode('and', `${count(node.operands.length)} joined by AND`, node.span);
    case 'sequence':
      return treeNode(
        'sequence',
        `${count(node.operands.length)} side by side (implicit AND)`,
        node.span,
      );
    case 'or':
      return treeNode('or', `${count(node.operands.length)} joined by OR`, node.span);
    case 'not':
      return treeNode('not', node.syntax === 'NOT' ? 'NOT …' : '-…', node.span);
    case 'composite':
      return treeNode('composite', short(text(node.span)), node.span);
    case 'restriction':
      return treeNode(
        'restriction',
        short(text(node.span)),
        node.span,
        node.comparator && node.arg && node.comparatorSpan
          ? [treeNode('comparator', node.comparator, node.comparatorSpan)]
          : [],
      );
    case 'member': {
      const role = memberRole(node, parent);
      return treeNode(
        role ? `member · ${role}` : 'member',
        text(node.span),
        node.span,
        node.segments.map(segmentNode),
      );
    }
    case 'call':
      return treeNode(
        'call',
        `${node.name.map((s) => s.value).join('.')}(…${node.args.length} argument${node.args.length === 1 ? '' : 's'})`,
        node.span,
        node.name.map(segmentNode),
      );
    case 'regexTerm': {
      const opStart = source.indexOf(node.operator, node.field.span.end);
      const pattern = node.pattern;
      return treeNode('regexTerm', text(node.span), node.span, [
        treeNode('operator', node.operator, { start: opStart, end: opStart + 2 }),
        treeNode(
          'pattern (RE2, full match)',
          pattern.quote ? `${pattern.quote}${pattern.value}${pattern.quote}` : pattern.value,
          pattern.span,
        ),
      ]);
    }
  }
}

/** What a member path is in its restriction or term: the field, the value, or a searched value. */
function memberRole(node: FilterNode, parent: FilterNode | undefined): string | undefined {
  if (parent?.type === 'regexTerm') return 'field';
  if (parent?.type !== 'restriction') return undefined;
  if (!parent.comparator || !parent.arg || !parent.comparatorSpan) return 'searched value';
  return parent.comparable === node ? 'field' : 'value';
}

/** Children in source order: the walk's nodes and the pieces added beside them interleave. */
function inSourceOrder(node: TreeNode) {
  node.children.sort((a, b) => a.span.start - b.span.start);
  for (const child of node.children) inSourceOrder(child);
}

function assignIds(node: TreeNode, id: string) {
  node.id = id;
  node.children.forEach((child, i) => {
    assignIds(child, `${id}.${i}`);
  });
}

/** The deepest node whose span holds the offset (a cursor at a node's end still counts). */
export function nodeAt(root: TreeNode, offset: number): TreeNode {
  for (const child of root.children) {
    if (
      child.span.start <= offset &&
      offset <= child.span.end &&
      child.span.end > child.span.start
    ) {
      return nodeAt(child, offset);
    }
  }
  return root;
}

/** Every node, depth first. */
export function flatten(root: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const walk = (n: TreeNode) => {
    out.push(n);
    for (const c of n.children) walk(c);
  };
  walk(root);
  return out;
}
