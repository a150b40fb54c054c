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
  try {
    const reader = new PatternReader(pattern);
    const root = reader.alternation();
    return reader.done() ? lowerBound(root) : undefined;
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
/** Deeper nesting is not read (RE2 itself allows 1000 levels). */
const MAX_DEPTH = 100;
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;
const CONTROL: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
const PERL_CLASSES = new Set(['d', 'D', 'w', 'W', 's', 'S']);
const EMPTY_WIDTH = new Set(['b', 'B', 'A', 'z']);
const REPEAT = /^\{(\d{1,4})(,(\d{1,4})?)?\}/;

class PatternReader {
  private at = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at === this.text.length;
  }

  private peek(): string | undefined {
    const cp = this.text.codePointAt(this.at);
    if (cp === undefined) return undefined;
    // A lone surrogate: re2js reads it its own way.
    if (cp >= 0xd800 && cp <= 0xdfff) unread();
    return String.fromCodePoint(cp);
  }

  private next(): string {
    const c = this.peek() ?? unread();
    this.at += c.length;
    return c;
  }

  alternation(): Node {
    const branches = [this.concatenation()];
    while (this.peek() === '|') {
      this.next();
      branches.push(this.concatenation());
    }
    return branches.length === 1 ? branches[0]! : { kind: 'alt', branches };
  }

  private concatenation(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      items.push(this.repetition());
    }
    return { kind: 'concat', items };
  }

  private repetition(): Node {
    let node = this.atom();
    const c = this.peek();
    if (c !== '*' && c !== '+' && c !== '?' && c !== '{') return node;
    if (node.kind === 'empty') unread(); // `^*`: legal, but not worth reading
    let min: number;
    let max: number;
    const counted = c === '{';
    if (counted) {
      const m = REPEAT.exec(this.text.slice(this.at)) ?? unread(); // `{` as a literal
      this.at += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === undefined ? -1 : Number(m[3]);
      if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max)) unread();
    } else {
      this.next();
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : -1;
    }
    if (this.peek() === '?') this.next(); // lazy: the same program, other priorities
    // RE2 rejects a repetition of a repetition without a group (`a**`, `a{2}{3}`).
    const after = this.peek();
    if (after === '*' || after === '+' || after === '?' || after === '{') unread();
    if (max === 0) return { kind: 'empty' }; // x{0}: not even compiled
    if (min === 1 && max === 1) return node; // x{1} is x
    node = { kind: 'repeat', min, max, counted, sub: node };
    if (counted && (min >= 2 || max >= 2) && !repeatIsValid(node, MAX_REPEAT)) unread();
    return node;
  }

  private atom(): Node {
    const c = this.next();
    switch (c) {
      case '(': {
        if (this.peek() === '?') {
          if (!this.text.startsWith('?:', this.at)) unread(); // flags, names
          this.at += 2;
        }
        if (++this.depth > MAX_DEPTH) unread();
        const body = this.alternation();
        this.depth--;
        if (this.next() !== ')') unread();
        return { kind: 'group', body };
      }
      case '.':
        return { kind: 'class', bound: 1 };
      case '^':
      case '$':
        return { kind: 'empty' };
      case '[':
        return this.bracket();
      case '\\':
        return this.escape();
      case ')':
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
      case ']':
      case '|':
        return unread();
      default:
        return { kind: 'char', codePoint: c.codePointAt(0)! };
    }
  }

  private escape(): Node {
    const c = this.next();
    if (PUNCTUATION.test(c)) return { kind: 'char', codePoint: c.codePointAt(0)! };
    if (CONTROL[c] !== undefined) return { kind: 'char', codePoint: CONTROL[c] };
    if (PERL_CLASSES.has(c)) return { kind: 'class', bound: 1 };
    if (EMPTY_WIDTH.has(c)) return { kind: 'empty' };
    return unread(); // \pL, \x41, \Q…\E, \C, octal, …
  }

  /** A bracket class of literals, escaped punctuation, `\d`-style classes and ranges. */
  private bracket(): Node {
    const negated = this.peek() === '^';
    if (negated) this.next();
    let first = true;
    for (;;) {
      const c = this.next();
      if (c === ']' && !first) break;
      if (c === '[') unread(); // [:alpha:] and friends
      let single: number | undefined;
      if (c === '-' && !first && this.peek() !== ']') {
        unread(); // a `-` that starts no range: RE2 reads it by position
      } else if (c === '\\') {
        const e = this.next();
        if (PUNCTUATION.test(e)) single = e.codePointAt(0);
        else if (CONTROL[e] !== undefined) single = CONTROL[e];
        else if (!PERL_CLASSES.has(e)) unread();
      } else {
        single = c.codePointAt(0);
      }
      first = false;
      if (this.peek() === '-' && this.text[this.at + 1] !== ']') {
        this.next();
        const d = this.next();
        if (single === undefined || d === '\\' || d === '[' || d === ']') unread();
        if (d.codePointAt(0)! < single!) unread();
      }
    }
    return { kind: 'class', bound: negated ? 0 : 1 };
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
