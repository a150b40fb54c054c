// Warnings about valid filters that almost certainly do not say what their author meant: a
// lower-case `and` is a search word, not the operator; `region = us-east1` compares with a field
// that holds a URL. Each warning has a span (a squiggle) and, where one exists, a replacement.
import { type CheckedNode, type Span, walkChecked } from '@listkit/query';
import type { Resource } from './engine.js';

export interface FilterHint {
  span: Span;
  message: string;
  /** Text that replaces the span to do what was probably meant. */
  fix?: { label: string; text: string };
}

const KEYWORDS = new Set(['and', 'or', 'not']);

/** Hints for a checked filter over `resources` (whose values show what the fields hold). */
export function filterHints(checked: CheckedNode, resources: readonly Resource[]): FilterHint[] {
  const hints: FilterHint[] = [];
  walkChecked(checked, (node) => {
    if (node.type === 'search' && KEYWORDS.has(node.text.toLowerCase())) {
      const upper = node.text.toUpperCase();
      hints.push({
        span: node.span,
        message: `“${node.text}” is a search word here, not the operator: did you mean ${upper}? Operators are upper case.`,
        fix: { label: `Use ${upper}`, text: upper },
      });
    } else if (node.type === 'compare') {
      const hint = urlHint(node, resources);
      if (hint) hints.push(hint);
    }
  });
  return hints;
}

/** `region = us-east1` where the field holds `https://…/regions/us-east1`: match its end instead. */
function urlHint(
  node: Extract<CheckedNode, { type: 'compare' }>,
  resources: readonly Resource[],
): FilterHint | undefined {
  if (node.comparator !== '=' || node.operand.kind !== 'string') return undefined;
  const wanted = node.operand.value;
  if (wanted.includes('/') || wanted.includes('*')) return undefined;
  const sample = resources.find((r) => typeof r[node.field.path] === 'string');
  const stored = sample?.[node.field.path];
  if (typeof stored !== 'string' || !/^https?:\/\//.test(stored)) return undefined;
  const text = `${node.field.path} = "*/${wanted}"`;
  return {
    span: node.span,
    message: `${node.field.path} holds a URL (such as ${stored}), so it never equals “${wanted}”. To match its last part, write ${text}.`,
    fix: { label: `Use ${text}`, text },
  };
}
