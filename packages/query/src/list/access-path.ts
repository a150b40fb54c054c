import type { CheckedNode } from '../filter/checked.js';
import { DeclaredIndex } from './declared-index.js';

/**
 * One way to answer a list call, with what it is expected to visit.
 *
 * @example
 * ```ts
 * const { considered } = rules.plan({ filter: 'labels.env = prod', pageSize: 500 });
 * considered.map((p) => `${p.access} ${p.seek ?? ''}: ${p.estimatedVisits}`);
 * // ['index labels.env = "prod": 501', 'scan : 2013']
 * ```
 */
export interface AccessPath {
  /**
   * `scan`: walk the ordering's index from the cursor, testing every item against the filter.
   * `range`: the same walk, limited to the items whose first sort field starts with a prefix
   * that the filter requires (`name = web-*` in an ordering by name).
   * `index`: seek a declared index to the items holding one value (an equality conjunct of the
   * filter) and walk just those, in the ordering, testing each against the whole filter.
   */
  readonly access: 'scan' | 'range' | 'index';
  /** For `range`: the prefix every match's first sort field starts with. */
  readonly prefix?: string;
  /** For `index`: the declared index path, such as `labels`. */
  readonly index?: string;
  /** For `index`: the equality it seeks, such as `labels.env = "prod"`. */
  readonly seek?: string;
  /** How many items hold the sought value (for `index`), or the collection's size (`scan`). */
  readonly candidates: number;
  /** The items a page of the requested size is expected to visit: the cost compared. */
  readonly estimatedVisits: number;
}

/**
 * What {@link Collection.list} will do for a request: the access path chosen, every path it
 * was chosen from, and a readable explanation (`text`, also its `toString()`).
 *
 * @example
 * ```ts
 * const plan = rules.plan({ filter: 'labels.env = prod', pageSize: 500 });
 * plan.access; // 'index'
 * plan.index;  // 'labels'
 * console.log(`${plan}`); // the explanation, one line per path considered
 * ```
 */
export interface ListPlan extends AccessPath {
  /** The canonical orderBy the page follows (`''` is the default order by key). */
  readonly orderBy: string;
  /** Every access path considered, the chosen one first. */
  readonly considered: readonly AccessPath[];
  /** Several lines explaining the choice, for a person. */
  readonly text: string;
  /** The same as {@link text}. */
  toString(): string;
}

/** An equality conjunct of a filter on a declared index. */
export interface IndexedEquality<T> {
  index: DeclaredIndex<T>;
  term: string;
  /** The conjunct as a person would write it, such as `labels.env = "prod"`. */
  text: string;
}

/**
 * The equalities among the filter's top-level conjuncts (the operands of its outermost ANDs)
 * that a declared index answers: `field = value` on an indexed string or enum field, without a
 * wildcard, and `map.key = value` on an indexed map. Every item the filter matches holds the
 * term of each of them, so seeking any one of them misses no match.
 */
export function indexedEqualities<T>(
  checked: CheckedNode,
  indexes: ReadonlyMap<string, DeclaredIndex<T>>,
): IndexedEquality<T>[] {
  const found: IndexedEquality<T>[] = [];
  const visit = (node: CheckedNode) => {
    if (node.type === 'and') {
      for (const operand of node.operands) visit(operand);
      return;
    }
    if (node.type !== 'compare' || node.comparator !== '=') return;
    const { operand, field } = node;
    let value: string;
    if (operand.kind === 'enum') value = operand.value;
    else if (operand.kind === 'string') {
      // A star not written `\*` is a wildcard: not an equality.
      const literal = new Set(operand.literalStars);
      for (let i = 0; i < operand.value.length; i++) {
        if (operand.value[i] === '*' && !literal.has(i)) return;
      }
      value = operand.value;
    } else return;
    const [first, second] = field.steps;
    if (first?.kind !== 'field') return;
    const index = indexes.get(first.name);
    if (!index) return;
    if (field.steps.length === 1 && index.kind === 'field') {
      found.push({ index, term: DeclaredIndex.term(value), text: equality(field.path, value) });
    } else if (field.steps.length === 2 && second?.kind === 'key' && index.kind === 'map') {
      found.push({
        index,
        term: DeclaredIndex.term(value, second.name),
        text: equality(field.path, value),
      });
    }
  };
  visit(checked);
  return found;
}

/**
 * The prefix that every match's first sort field must start with, when the filter requires one
 * (`field = "text*…"` or `field = text` among its outermost ANDs, on the ordering's first field,
 * a top-level string) and the ordering is ascending in every term, so that the strings with that
 * prefix are one contiguous run of the ordering starting at the key `[prefix]`.
 */
export function orderingPrefix(
  checked: CheckedNode,
  keyTerms: readonly { path: string; type: { kind: string }; descending: boolean }[],
): { field: string; prefix: string } | undefined {
  const first = keyTerms[0];
  if (first?.type.kind !== 'string' || first.path.includes('.')) return undefined;
  if (keyTerms.some((t) => t.descending)) return undefined;
  let best: string | undefined;
  const visit = (node: CheckedNode) => {
    if (node.type === 'and') {
      for (const operand of node.operands) visit(operand);
      return;
    }
    if (node.type !== 'compare' || node.comparator !== '=' || node.operand.kind !== 'string')
      return;
    const step = node.field.steps[0];
    if (node.field.steps.length !== 1 || step?.kind !== 'field' || step.name !== first.path) return;
    const { value, literalStars } = node.operand;
    const literal = new Set(literalStars);
    let end = 0;
    while (end < value.length && !(value[end] === '*' && !literal.has(end))) end++;
    const prefix = value.slice(0, end);
    if (prefix !== '' && (best === undefined || prefix.length > best.length)) best = prefix;
  };
  visit(checked);
  return best === undefined ? undefined : { field: first.path, prefix: best };
}

const equality = (path: string, value: string) => `${path} = ${JSON.stringify(value)}`;

/**
 * Chooses between scanning the ordering and seeking one indexed equality, by the items a page
 * is expected to visit. Taking the sought values as independent, about
 * `matches = size × Π (cᵢ / size)` items match, where `cᵢ` items hold the i-th sought value; a
 * walk over `p` items then meets a match every `p / matches` items, so it visits
 * `min(p, need × p / matches)` to fill a page (`p` is the size for a scan, `cᵢ` for a seek).
 * A tie goes to the scan, which needs no second index.
 */
export function choosePlan<T>(
  orderBy: string,
  size: number,
  need: number,
  equalities: readonly IndexedEquality<T>[],
  prefix?: string,
): { plan: ListPlan; seek?: IndexedEquality<T> } {
  const counts = equalities.map((e) => e.index.count(e.term));
  const matches = counts.reduce((m, c) => (size === 0 ? 0 : (m * c) / size), size);
  const visits = (population: number) =>
    matches === 0 ? population : Math.min(population, Math.ceil((need * population) / matches));
  // A range is the scan with bounds: never more visits, so it stands in for the scan. Without
  // counts per prefix, its estimate is the scan's (an upper bound).
  const scan: AccessPath =
    prefix === undefined
      ? { access: 'scan', candidates: size, estimatedVisits: visits(size) }
      : { access: 'range', prefix, candidates: size, estimatedVisits: visits(size) };
  const seeks = equalities.map(
    (e, i): AccessPath => ({
      access: 'index',
      index: e.index.path,
      seek: e.text,
      candidates: counts[i]!,
      estimatedVisits: visits(counts[i]!),
    }),
  );
  let best = -1;
  let cost = scan.estimatedVisits;
  seeks.forEach((s, i) => {
    if (s.estimatedVisits < cost) {
      best = i;
      cost = s.estimatedVisits;
    }
  });
  const chosen = best < 0 ? scan : seeks[best]!;
  const seek = best < 0 ? undefined : equalities[best];
  const considered = [chosen, ...[scan, ...seeks].filter((p) => p !== chosen)];
  // Written when someone reads it (plan(), explain), not on every page a list call answers.
  let text: string | undefined;
  const builds = seek !== undefined && !seek.index.hasOrdering(orderBy);
  const explain = () => {
    text ??= planText(chosen, considered, orderBy, need, size, builds);
    return text;
  };
  return {
    plan: {
      ...chosen,
      orderBy,
      considered,
      get text() {
        return explain();
      },
      toString: explain,
    },
    seek,
  };
}

/** The lines of a {@link ListPlan}'s `text`: the choice, its estimate and what it beat. */
function planText(
  chosen: AccessPath,
  considered: readonly AccessPath[],
  orderBy: string,
  need: number,
  size: number,
  buildsIndex: boolean,
): string {
  const order = orderBy === '' ? 'the default order' : `orderBy '${orderBy}'`;
  const lines = [
    chosen.access === 'scan'
      ? `scan the index of ${order}, testing each item against the filter`
      : chosen.access === 'range'
        ? `scan the index of ${order} over the items whose first sort field starts with ${JSON.stringify(chosen.prefix)}, testing each against the filter`
        : `seek index '${chosen.index}' to ${chosen.seek} and walk its ${chosen.candidates} items in ${order}, testing each against the whole filter${buildsIndex ? ' (builds that index for this ordering on first use)' : ''}`,
    `estimated items visited for a page of ${need - 1}: ${chosen.estimatedVisits} of ${size}`,
    ...considered
      .slice(1)
      .map(
        (p) =>
          `  rejected: ${p.access === 'index' ? `seek '${p.index}' to ${p.seek}` : p.access === 'range' ? `scan from ${JSON.stringify(p.prefix)}` : 'scan'} (${p.estimatedVisits} visits)`,
      ),
  ];
  return lines.join('\n');
}
