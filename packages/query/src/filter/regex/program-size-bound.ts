import { type PatternNode, readPattern } from './pattern-tree.js';

/**
 * A lower bound on the program size re2js reports for a pattern (see
 * {@link CompiledRegex.programSize}: instructions plus character-class ranges), read from the
 * pattern text alone, or undefined when the text uses anything the bound does not read (flags,
 * `\p`, `\x`, `\Q`, POSIX classes, …) or that RE2 rejects. Compiling a 5 KB pattern of counted
 * repetitions takes re2js ~0.5 s before its size can be refused; this reads it in microseconds.
 *
 * Never more than the compiled size, so a pattern refused for exceeding a limit by this bound
 * would have been refused after compiling too. What re2js (a port of Go's regexp/syntax) does to
 * a parsed pattern, and how the bound stays under it:
 * - every literal character, `.`, `\d` and positive bracket class compiles to at least one
 *   instruction: 1 each; a negated bracket class may be empty (no instruction): 0; anchors and
 *   `\b`: 0;
 * - `x{n,m}` is expanded to max(n, m) copies of x, `x{n,}` to n (at least 1), `x{0}` to none;
 *   `*`, `+`, `?` add at least nothing;
 * - an alternation shares the common prefix of consecutive branches, and merges branches that
 *   are single characters into one class: each branch after the first is counted without the
 *   pieces it may share with the one before (stopping at the first that surely differs; a group
 *   may hide anything, so the rest of the branch counts as shared) and one more piece for a
 *   merge; never less than its largest branch.
 *
 * @example
 * ```ts
 * re2ProgramSizeLowerBound('.{1000}|.{999}'); // 1998 (re2js compiles it to 6000)
 * re2ProgramSizeLowerBound('(?i)abc');        // undefined: flags are not read
 * ```
 */
export function re2ProgramSizeLowerBound(pattern: string): number | undefined {
  const tree = readPattern(pattern);
  if (tree === undefined) return undefined;
  try {
    return lowerBound(boundNode(tree));
  } catch (error) {
    if (error === UNREAD) return undefined;
    throw error;
  }
}

/** The parsed pattern, as far as the bound needs it. */
type Node =
  | { kind: 'char'; codePoint: number }
  /** A class that may match nothing counts 0. */
  | { kind: 'class'; bound: 0 | 1 }
  | { kind: 'empty' }
  | { kind: 'group'; body: Node }
  | { kind: 'concat'; items: Node[] }
  | { kind: 'alt'; branches: Node[] }
  /** max -1: unbounded. `counted` for `{…}`, which RE2 checks for nesting. */
  | { kind: 'repeat'; min: number; max: number; counted: boolean; sub: Node };

function lowerBound(node: Node): number {
  switch (node.kind) {
    case 'char':
      return 1;
    case 'class':
      return node.bound;
    case 'empty':
      return 0;
    case 'group':
      return lowerBound(node.body);
    case 'concat':
      return node.items.reduce((sum, item) => sum + lowerBound(item), 0);
    case 'repeat': {
      const copies = node.max === 0 ? 0 : node.max > 0 ? node.max : Math.max(node.min, 1);
      return lowerBound(node.sub) * copies;
    }
    case 'alt': {
      const sizes = node.branches.map(lowerBound);
      let total = sizes[0] ?? 0;
      for (let i = 1; i < node.branches.length; i++) {
        total += sizes[i]! - shareable(node.branches[i - 1]!, node.branches[i]!) - 1;
      }
      return Math.max(total, ...sizes, 0);
    }
  }
}

/** An upper bound on the size of the prefix `branch` may share with `previous`. */
function shareable(previous: Node, branch: Node): number {
  const before = previous.kind === 'concat' ? previous.items : [previous];
  const items = branch.kind === 'concat' ? branch.items : [branch];
  let shared = 0;
  for (let i = 0; i < items.length; i++) {
    const a = before[i];
    const b = items[i]!;
    if (a === undefined) break;
    if (a.kind === 'group' || b.kind === 'group' || a.kind === 'alt' || b.kind === 'alt') {
      // A group is spliced into the concatenation: anything after may line up with anything.
      for (const rest of items.slice(i)) shared += lowerBound(rest);
      break;
    }
    if (!mayEqual(a, b)) break;
    shared += lowerBound(b);
  }
  return shared;
}

/** False only when the two pieces surely parse to different regexps. */
function mayEqual(a: Node, b: Node): boolean {
  if (a.kind === 'char' && b.kind === 'char') return a.codePoint === b.codePoint;
  if (a.kind === 'repeat' || b.kind === 'repeat') {
    return (
      a.kind === 'repeat' &&
      b.kind === 'repeat' &&
      a.min === b.min &&
      a.max === b.max &&
      mayEqual(a.sub, b.sub)
    );
  }
  return true;
}

const UNREAD = Symbol('not read by the bound');
const unread = (): never => {
  throw UNREAD;
};

/** RE2 refuses repeat counts over 1000, also as the product of nested counts. */
const MAX_REPEAT = 1000;

/** The pattern tree as the bound reads it: what compiles to nothing is `empty`, `x{1}` is x. */
function boundNode(node: PatternNode): Node {
  switch (node.kind) {
    case 'char':
      return { kind: 'char', codePoint: node.codePoint };
    case 'dot':
    case 'perl':
      return { kind: 'class', bound: 1 };
    case 'bracket':
      if (node.strayDash) unread();
      // A negated class may be empty (no instruction).
      return { kind: 'class', bound: node.negated ? 0 : 1 };
    case 'anchor':
    case 'assertion':
      return { kind: 'empty' };
    case 'group':
      return { kind: 'group', body: boundNode(node.body) };
    case 'concat':
      return { kind: 'concat', items: node.items.map(boundNode) };
    case 'alt':
      return { kind: 'alt', branches: node.branches.map(boundNode) };
    case 'repeat': {
      const sub = boundNode(node.sub);
      if (node.max === 0) return { kind: 'empty' }; // x{0}: not even compiled
      if (node.min === 1 && node.max === 1) return sub; // x{1} is x
      const repeat: Node = {
        kind: 'repeat',
        min: node.min,
        max: node.max,
        counted: node.counted,
        sub,
      };
      if (node.counted && (node.min >= 2 || node.max >= 2) && !repeatIsValid(repeat, MAX_REPEAT)) {
        unread();
      }
      return repeat;
    }
  }
}

/** RE2's check on nested counted repetitions (`(a{100}){11}` is refused). */
function repeatIsValid(node: Node, n: number): boolean {
  let room = n;
  if (node.kind === 'repeat' && node.counted) {
    if (node.max === 0) return true;
    const m = node.max < 0 ? node.min : node.max;
    if (m > room) return false;
    if (m > 0) room = Math.floor(room / m);
  }
  switch (node.kind) {
    case 'group':
      return repeatIsValid(node.body, room);
    case 'concat':
      return node.items.every((item) => repeatIsValid(item, room));
    case 'alt':
      return node.branches.every((branch) => repeatIsValid(branch, room));
    case 'repeat':
      return repeatIsValid(node.sub, room);
    default:
      return true;
  }
}
