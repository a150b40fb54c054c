// Plain-language explanations of a checked filter, and a per-clause trace for one resource:
// which clauses hold for it, and which one decided the result.
import type { Span } from '../errors.js';
import type { CheckedNode, FieldRef, Operand, PathStep } from '../filter/checked.js';
import { type CompiledFilter, compileFilter } from '../filter/compile.js';
import { checkedChildren, fieldsRead } from '../filter/walk-checked.js';
import type { ResourceSchema } from '../schema/field-type.js';

/**
 * One clause of a filter in plain language, with the clauses it is made of.
 *
 * @example
 * ```ts
 * const clause: FilterClause = explainFilter(compiled.checked, filter);
 * clause.text; // 'All of these hold:'
 * clause.children.map((c) => c.text); // ['labels.env is "prod"', …]
 * ```
 */
export interface FilterClause {
  kind: 'all' | 'and' | 'or' | 'not' | 'leaf';
  /** The plain-language sentence. */
  text: string;
  /** A caveat worth knowing (proto3 defaults, missing map entries, …). */
  note?: string;
  span?: Span;
  node: CheckedNode;
  children: FilterClause[];
}

const quote = (s: string) => JSON.stringify(s);

const COMPOSITE_TEXT = {
  and: 'All of these hold:',
  or: 'At least one of these holds:',
  not: 'This does not hold:',
} as const;

/**
 * Explains a checked filter (`CompiledFilter.checked`) clause by clause, in plain language: what
 * the playground's "explain" panel and `listkit filter --explain` show.
 *
 * @example
 * ```ts
 * const filter = 'labels.env = prod AND NOT name = "web-*"';
 * const clause = explainFilter(compileFilter(filter, schema).checked, filter);
 * console.log(formatExplanation(clause));
 * ```
 */
export function explainFilter(node: CheckedNode, source: string): FilterClause {
  switch (node.type) {
    case 'all':
      return {
        kind: 'all',
        text: 'Every resource matches: the filter is empty.',
        node,
        children: [],
      };
    case 'and':
    case 'or':
    case 'not':
      return {
        kind: node.type,
        text: COMPOSITE_TEXT[node.type],
        span: node.span,
        node,
        children: checkedChildren(node).map((n) => explainFilter(n, source)),
      };
    case 'compare':
      return {
        kind: 'leaf',
        ...describeCompare(node, source),
        span: node.span,
        node,
        children: [],
      };
    case 'search':
      return {
        kind: 'leaf',
        text: `${node.fields.length === 1 ? `${node.fields[0]!.path} contains` : `one of the searchable fields (${node.fields.map((f) => f.path).join(', ')}) contains`} ${quote(node.text)}${hasWildcard(node.text, node.literalStars) ? ' (* stands for any characters)' : ''}`,
        note: 'A bare value searches the fields the schema marks searchable.',
        span: node.span,
        node,
        children: [],
      };
    case 'call':
      return {
        kind: 'leaf',
        text: `the function ${node.name}(…) returns true`,
        span: node.span,
        node,
        children: [],
      };
    case 'regex': {
      const each = node.field.steps.some((s) => s.kind === 'each');
      const subject = each
        ? `some element of ${node.field.path}`
        : `the whole of ${node.field.path}`;
      const verb = node.operator === 'eq' ? 'matches' : 'does not match';
      return {
        kind: 'leaf',
        text:
          node.operator === 'eq' || !each
            ? `${subject} ${verb} the RE2 pattern ${node.pattern}`
            : `no element of ${node.field.path} matches the RE2 pattern ${node.pattern}`,
        note: 'Regex style: the pattern must match the entire value (RE2, no backtracking).',
        span: node.span,
        node,
        children: [],
      };
    }
  }
}

function hasWildcard(value: string, literalStars: readonly number[]): boolean {
  for (let i = 0; i < value.length; i++)
    if (value[i] === '*' && !literalStars.includes(i)) return true;
  return false;
}

const ORDER_WORDS: Record<string, [string, string]> = {
  // comparator: [for numbers and strings, for timestamps and durations]
  '<': ['is less than', 'is before'],
  '<=': ['is at most', 'is at or before'],
  '>': ['is greater than', 'is after'],
  '>=': ['is at least', 'is at or after'],
};

function describeCompare(
  node: Extract<CheckedNode, { type: 'compare' }>,
  source: string,
): { text: string; note?: string } {
  const f = node.field.path;
  const raw = source
    .slice(node.field.span.end, node.span.end)
    .replace(/^\s*(?:<=|>=|!=|[<>=:])\s*/, '');
  const viaKey = node.field.steps.some((s) => s.kind === 'key');
  const missingNote = viaKey
    ? `False when the map has no such entry — even for != (AIP-160 skips missing entries).`
    : undefined;
  const op = node.operand;
  const c = node.comparator;
  const negate = c === '!=';
  switch (op.kind) {
    case 'presence':
      return { text: `${f} is set (not empty, zero or false)`, note: missingNote };
    case 'key':
      return { text: `${f} has the key ${quote(op.value)}` };
    case 'element':
      return { text: `${f} has an element ${elementText(op.element)}` };
    case 'string': {
      const wild = hasWildcard(op.value, op.literalStars);
      let text: string;
      if (c === ':')
        text = `${f} contains ${quote(op.value)}${wild ? ' (* stands for any characters)' : ''}`;
      else if (c === '=' || c === '!=') {
        if (op.value === '*')
          text = negate
            ? `${f} has no value at all (never true)`
            : `${f} is anything (always true)`;
        else if (wild)
          text = `${f} ${negate ? 'does not match' : 'matches'} the wildcard pattern ${quote(op.value)} (* stands for any characters)`;
        else text = `${f} ${negate ? 'is not' : 'is exactly'} ${quote(op.value)}`;
      } else text = `${f} ${ORDER_WORDS[c]![0]} ${quote(op.value)} (Unicode code-point order)`;
      return { text, note: missingNote ?? 'An unset string is "".' };
    }
    case 'int64':
    case 'double': {
      const value = op.kind === 'int64' ? op.value.toString() : String(op.value);
      const word = ORDER_WORDS[c]?.[0] ?? (negate ? 'is not' : 'equals');
      return { text: `${f} ${word} ${value}`, note: missingNote ?? 'An unset number is 0.' };
    }
    case 'bool':
      return {
        text: `${f} is ${negate ? 'not ' : ''}${op.value}`,
        note: missingNote ?? 'An unset bool is false.',
      };
    case 'enum':
      return {
        text: `${f} is ${negate ? 'not ' : ''}${op.value}`,
        note: missingNote ?? 'An unset enum has no value.',
      };
    case 'timestamp':
    case 'duration': {
      const word = ORDER_WORDS[c]?.[1] ?? (negate ? 'is not' : 'is exactly');
      const what = op.kind === 'timestamp' ? 'compared as instants' : 'compared as quantities';
      return { text: `${f} ${word} ${raw} (${what})`, note: missingNote };
    }
  }
}

function elementText(element: Operand): string {
  switch (element.kind) {
    case 'string':
      // A string element under `:` is read as a string field is: it contains the text.
      return `containing ${quote(element.value)}${hasWildcard(element.value, element.literalStars) ? ' (* stands for any characters)' : ''}`;
    case 'int64':
      return `equal to ${element.value.toString()}`;
    case 'double':
    case 'bool':
    case 'enum':
      return `equal to ${String(element.value)}`;
    default:
      return 'matching the value';
  }
}

// ------------------------------------------------------------------------------------------
// Tracing one resource

/**
 * How one clause of a filter evaluated for one resource (see {@link traceFilter}).
 *
 * @example
 * ```ts
 * const t: FilterTrace = traceFilter(clause, rule, filter, schema);
 * t.result; // whether the rule matches
 * t.children.filter((c) => c.decisive); // the clauses that decided it
 * ```
 */
export interface FilterTrace {
  clause: FilterClause;
  result: boolean;
  /** On the path that decided the overall result. */
  decisive: boolean;
  /** What the resource holds in the clause's field(s), for leaves. */
  actual?: string;
  children: FilterTrace[];
}

/**
 * Evaluates every clause for one resource. Leaves are evaluated by compiling their own source
 * text with the real engine, so the trace can never disagree with the filter's semantics.
 *
 * @example
 * ```ts
 * const clause = explainFilter(compiled.checked, filter);
 * const why = traceFilter(clause, rule, filter, schema);
 * why.result === compiled.matches(rule); // always
 * ```
 */
export function traceFilter(
  root: FilterClause,
  resource: object,
  source: string,
  schema: ResourceSchema,
): FilterTrace {
  const compiled = new Map<string, CompiledFilter>();
  const leaf = (clause: FilterClause): boolean => {
    const span = clause.span ?? { start: 0, end: source.length };
    const text = source.slice(span.start, span.end);
    let filter = compiled.get(text);
    if (!filter) {
      filter = compileFilter(text, schema);
      compiled.set(text, filter);
    }
    return filter.matches(resource);
  };
  const walk = (clause: FilterClause): FilterTrace => {
    const children = clause.children.map(walk);
    let result: boolean;
    switch (clause.kind) {
      case 'all':
        result = true;
        break;
      case 'and':
        result = children.every((c) => c.result);
        break;
      case 'or':
        result = children.some((c) => c.result);
        break;
      case 'not':
        result = !children[0]!.result;
        break;
      default:
        result = leaf(clause);
    }
    return {
      clause,
      result,
      decisive: false,
      actual: actualValue(clause.node, resource),
      children,
    };
  };
  try {
    const out = walk(root);
    markDecisive(out);
    return out;
  } finally {
    for (const f of compiled.values()) f.dispose();
  }
}

function markDecisive(t: FilterTrace) {
  t.decisive = true;
  const { kind } = t.clause;
  if (kind === 'and' || kind === 'or') {
    // AND fails on its first failing clause and OR holds on its first holding one; otherwise
    // every clause contributed.
    const short = kind === 'and' ? !t.result : t.result;
    const decider = short ? t.children.find((c) => c.result === (kind === 'or')) : undefined;
    for (const c of decider ? [decider] : t.children) markDecisive(c);
  } else {
    for (const c of t.children) markDecisive(c);
  }
}

function actualValue(node: CheckedNode, resource: object): string | undefined {
  const show = (field: FieldRef) => `${field.path} is ${formatValue(read(resource, field.steps))}`;
  if (node.type === 'call') return undefined;
  const fields = fieldsRead(node);
  return fields.length > 0 ? fields.map(show).join('; ') : undefined;
}

/** The value at a path; `each` steps give the list of element values. */
function read(value: unknown, steps: readonly PathStep[]): unknown {
  let current: unknown = value;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    if (step.kind === 'each') {
      if (!Array.isArray(current)) return undefined;
      const rest = steps.slice(i + 1);
      return current.map((element) => read(element, rest));
    }
    if (typeof current !== 'object' || current === null) return undefined;
    if (step.kind === 'key' && !Object.hasOwn(current, step.name)) return MISSING_ENTRY;
    current = (current as Record<string, unknown>)[step.name];
  }
  return current;
}

const MISSING_ENTRY = Symbol('missing entry');

function formatValue(value: unknown): string {
  if (value === MISSING_ENTRY) return 'missing (no such map entry)';
  if (value === undefined) return 'not set';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/**
 * An explanation as indented text, one clause a line, with its caveats: what
 * `listkit filter --explain` prints.
 *
 * @example
 * ```ts
 * formatExplanation(explainFilter(compiled.checked, filter));
 * // All of these hold:
 * //   labels.env is "prod"
 * //   …
 * ```
 */
export function formatExplanation(clause: FilterClause, indent = ''): string {
  const lines = [`${indent}${clause.text}`];
  if (clause.note) lines.push(`${indent}  (${clause.note})`);
  for (const child of clause.children) lines.push(formatExplanation(child, `${indent}  `));
  return lines.join('\n');
}
