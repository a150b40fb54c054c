// The syntax tree as the AST view shows it: every node of @listkit/query's FilterAst, with its
// kind, a short description and the span of its source text.
import type {
  ArgNode,
  ComparableNode,
  ExpressionNode,
  FilterAst,
  RegexTermNode,
  Segment,
  Span,
} from '@listkit/query';

export interface TreeNode {
  /** Stable within one tree: the path of child indexes, such as `0.2.1`. */
  id: string;
  kind: string;
  detail: string;
  span: Span;
  children: TreeNode[];
}

/** Builds the display tree of a parsed filter. */
export function buildTree(ast: FilterAst): TreeNode {
  const source = ast.source;
  const text = (span: Span) => source.slice(span.start, span.end);
  const short = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);
  const node = (kind: string, detail: string, span: Span, children: TreeNode[] = []): TreeNode => ({
    id: '',
    kind,
    detail,
    span,
    children,
  });

  const segment = (s: Segment): TreeNode =>
    node(`segment (${s.kind})`, JSON.stringify(s.value), s.span);

  const comparable = (c: ComparableNode, role?: string): TreeNode => {
    if (c.type === 'member') {
      const label = role ? `member · ${role}` : 'member';
      return node(label, text(c.span), c.span, c.segments.map(segment));
    }
    return node(
      'call',
      `${c.name.map((s) => s.value).join('.')}(…${c.args.length} argument${c.args.length === 1 ? '' : 's'})`,
      c.span,
      [...c.name.map(segment), ...c.args.map((a) => arg(a))],
    );
  };

  const arg = (a: ArgNode, role?: string): TreeNode =>
    a.type === 'composite' ? expression(a) : comparable(a, role);

  const expression = (e: ExpressionNode): TreeNode => {
    switch (e.type) {
      case 'and':
        return node(
          'and',
          `${e.operands.length} operands joined by AND`,
          e.span,
          e.operands.map(expression),
        );
      case 'sequence':
        return node(
          'sequence',
          `${e.operands.length} operands side by side (implicit AND)`,
          e.span,
          e.operands.map(expression),
        );
      case 'or':
        return node(
          'or',
          `${e.operands.length} operands joined by OR`,
          e.span,
          e.operands.map(expression),
        );
      case 'not':
        return node('not', e.syntax === 'NOT' ? 'NOT …' : '-…', e.span, [expression(e.operand)]);
      case 'composite':
        return node('composite', short(text(e.span)), e.span, [expression(e.expression)]);
      case 'restriction': {
        if (!e.comparator || !e.arg || !e.comparatorSpan) {
          const role = e.comparable.type === 'member' ? 'searched value' : undefined;
          return node('restriction', short(text(e.span)), e.span, [comparable(e.comparable, role)]);
        }
        return node('restriction', short(text(e.span)), e.span, [
          comparable(e.comparable, 'field'),
          node('comparator', e.comparator, e.comparatorSpan),
          arg(e.arg, 'value'),
        ]);
      }
    }
  };

  const regexTerm = (t: RegexTermNode): TreeNode => {
    const opStart = source.indexOf(t.operator, t.field.span.end);
    return node('regexTerm', text(t.span), t.span, [
      comparable(t.field, 'field'),
      node('operator', t.operator, { start: opStart, end: opStart + 2 }),
      node(
        'pattern (RE2, full match)',
        t.pattern.quote
          ? `${t.pattern.quote}${t.pattern.value}${t.pattern.quote}`
          : t.pattern.value,
        t.pattern.span,
      ),
    ]);
  };

  let root: TreeNode;
  const all = { start: 0, end: source.length };
  if (ast.style === 'empty') root = node('filter · empty', 'matches every resource', all);
  else if (ast.style === 'aip-160')
    root = node('filter · AIP-160', '', all, [expression(ast.expression)]);
  else
    root = node(
      'filter · regex style',
      `${ast.terms.length} term${ast.terms.length === 1 ? '' : 's'}, ANDed`,
      all,
      ast.terms.map(regexTerm),
    );
  assignIds(root, '0');
  return root;
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
