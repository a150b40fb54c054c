import type { CheckedNode } from '../filter/checked.js';
import { DeclaredIndex } from './declared-index.js';

/** One way to answer a list call, with what it is expected to visit. */
export interface AccessPath {
  /**
   * `scan`: walk the ordering's index from the cursor, testing every item against the filter.
   * `index`: seek a declared index to the items holding one value (an equality conjunct of the
   * filter) and walk just those, in the ordering, testing each against the whole filter.
   */
  readonly access: 'scan' | 'index';
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
): { plan: ListPlan; seek?: IndexedEquality<T> } {
  const counts = equalities.map((e) => e.index.count(e.term));
  const matches = counts.reduce((m, c) => (size === 0 ? 0 : (m * c) / size), size);
  const visits = (population: number) =>
    matches === 0 ? population : Math.min(population, Math.ceil((need * population) / matches));
  const scan: AccessPath = { access: 'scan', candidates: size, estimatedVisits: visits(size) };
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
  const order = orderBy === '' ? 'the default order' : `orderBy '${orderBy}'`;
  const lines = [
    chosen.access === 'scan'
      ? `scan the index of ${order}, testing each item against the filter`
      : `seek index '${chosen.index}' to ${chosen.seek} and walk its ${chosen.candidates} items in ${order}, testing each against the whole filter${seek && !seek.index.hasOrdering(orderBy) ? ' (builds that index for this ordering on first use)' : ''}`,
    `estimated items visited for a page of ${need - 1}: ${chosen.estimatedVisits} of ${size}`,
    ...considered
      .slice(1)
      .map(
        (p) =>
          `  rejected: ${p.access === 'scan' ? 'scan' : `seek '${p.index}' to ${p.seek}`} (${p.estimatedVisits} visits)`,
      ),
  ];
  const text = lines.join('\n');
  return {
    plan: { ...chosen, orderBy, considered, text, toString: () => text },
    seek,
  };
}
