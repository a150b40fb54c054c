// One reader of RE2 pattern text: a small parse tree that the program-size bound
// (program-size-bound.ts) and the SQL translation (sql/regex-translation.ts) both walk, each
// refusing what it does not read. It reads the union of what they read; what neither reads
// (flags, `\p`, `\x`, `\Q`, POSIX classes, lone surrogates) makes it give up.

/** A member of a bracket class. `escape` is the letter after `\` when the member was escaped. */
export type BracketItem =
  | { kind: 'char'; codePoint: number; escape?: string }
  | { kind: 'range'; from: number; to: number; fromEscape?: string }
  | { kind: 'perl'; letter: string };

/**
 * A parsed RE2 pattern. `char.escape` is the letter after `\` for escaped characters (`\t`,
 * `\.`); `repeat.max` is -1 when unbounded.
 *
 * @example
 * ```ts
 * readPattern('a{2}'); // { kind: 'concat', items: [{ kind: 'repeat', min: 2, max: 2, … }] }
 * ```
 */
export type PatternNode =
  | { kind: 'char'; codePoint: number; escape?: string }
  | { kind: 'dot' }
  | { kind: 'perl'; letter: string }
  | {
      kind: 'bracket';
      negated: boolean;
      items: BracketItem[];
      /** A bare `]` right after `[`: a literal in RE2. */
      leadingBracket: boolean;
      /** A bare `-` that starts no range and is neither first nor last: RE2 reads it by position. */
      strayDash: boolean;
    }
  | { kind: 'anchor'; text: '^' | '$' }
  | { kind: 'assertion'; letter: string }
  | { kind: 'group'; body: PatternNode }
  | { kind: 'concat'; items: PatternNode[] }
  | { kind: 'alt'; branches: PatternNode[] }
  | {
      kind: 'repeat';
      min: number;
      max: number;
      counted: boolean;
      lazy: boolean;
      sub: PatternNode;
      /** The quantifier as written (`*`, `{2,}`), without a lazy `?`. */
      written: string;
    };

/**
 * The pattern as a tree, or undefined when it uses anything the reader does not read or that
 * RE2 rejects (a stacked quantifier, a stray `)`).
 *
 * @example
 * ```ts
 * readPattern('(?i)a'); // undefined: flags are not read
 * ```
 */
export function readPattern(pattern: string): PatternNode | undefined {
  try {
    const reader = new Reader(pattern);
    const root = reader.alternation();
    return reader.done() ? root : undefined;
  } catch (error) {
    if (error === UNREAD) return undefined;
    throw error;
  }
}

const UNREAD = Symbol('not read');
const unread = (): never => {
  throw UNREAD;
};

/** Deeper nesting is not read (RE2 itself allows 1000 levels). */
const MAX_DEPTH = 100;
/** RE2's largest repeat count. */
const MAX_REPEAT = 1000;
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;
/** Escaped control letters and their characters. */
export const CONTROL: Readonly<Record<string, number>> = {
  a: 7,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
};
const PERL_CLASSES = new Set(['d', 'D', 'w', 'W', 's', 'S']);
const ASSERTIONS = new Set(['b', 'B', 'A', 'z']);
const REPEAT = /^\{(\d{1,4})(,(\d{1,4})?)?\}/;

class Reader {
  private at = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at === this.text.length;
  }

  private peek(): string | undefined {
    const cp = this.text.codePointAt(this.at);
    if (cp === undefined) return undefined;
    // A lone surrogate: RE2 engines read it their own way.
    if (cp >= 0xd800 && cp <= 0xdfff) unread();
    return String.fromCodePoint(cp);
  }

  private next(): string {
    const c = this.peek() ?? unread();
    this.at += c.length;
    return c;
  }

  alternation(): PatternNode {
    const branches = [this.concatenation()];
    while (this.peek() === '|') {
      this.next();
      branches.push(this.concatenation());
    }
    return branches.length === 1 ? branches[0]! : { kind: 'alt', branches };
  }

  private concatenation(): PatternNode {
    const items: PatternNode[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      items.push(this.repetition());
    }
    return { kind: 'concat', items };
  }

  private repetition(): PatternNode {
    const node = this.atom();
    const c = this.peek();
    if (c !== '*' && c !== '+' && c !== '?' && c !== '{') return node;
    // `^*`, `\b+`: legal in RE2, but not worth reading.
    if (node.kind === 'anchor' || node.kind === 'assertion') unread();
    let min: number;
    let max: number;
    const counted = c === '{';
    const start = this.at;
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
    const written = this.text.slice(start, this.at);
    const lazy = this.peek() === '?';
    if (lazy) this.next();
    // RE2 rejects a repetition of a repetition without a group (`a**`, `a{2}{3}`, `a*+`).
    const after = this.peek();
    if (after === '*' || after === '+' || after === '?' || after === '{') unread();
    return { kind: 'repeat', min, max, counted, lazy, sub: node, written };
  }

  private atom(): PatternNode {
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
        return { kind: 'dot' };
      case '^':
      case '$':
        return { kind: 'anchor', text: c };
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

  private escape(): PatternNode {
    const c = this.next();
    if (PUNCTUATION.test(c)) return { kind: 'char', codePoint: c.codePointAt(0)!, escape: c };
    if (CONTROL[c] !== undefined) return { kind: 'char', codePoint: CONTROL[c], escape: c };
    if (PERL_CLASSES.has(c)) return { kind: 'perl', letter: c };
    if (ASSERTIONS.has(c)) return { kind: 'assertion', letter: c };
    return unread(); // \pL, \x41, \Q…\E, \C, octal, …
  }

  /** A bracket class of literals, escaped punctuation and controls, `\d`-style classes and ranges. */
  private bracket(): PatternNode {
    const negated = this.peek() === '^';
    if (negated) this.next();
    const items: BracketItem[] = [];
    const leadingBracket = this.peek() === ']';
    let strayDash = false;
    for (let first = true; ; first = false) {
      const c = this.next();
      if (c === ']' && !first) break;
      if (c === '[') unread(); // [:alpha:] and friends
      let item: BracketItem;
      if (c === '\\') {
        const e = this.next();
        if (PUNCTUATION.test(e)) item = { kind: 'char', codePoint: e.codePointAt(0)!, escape: e };
        else if (CONTROL[e] !== undefined)
          item = { kind: 'char', codePoint: CONTROL[e], escape: e };
        else if (PERL_CLASSES.has(e)) item = { kind: 'perl', letter: e };
        else return unread();
      } else {
        if (c === '-' && !first && this.peek() !== ']') strayDash = true;
        item = { kind: 'char', codePoint: c.codePointAt(0)! };
      }
      if (this.peek() === '-' && this.text[this.at + 1] !== ']') {
        this.next();
        const d = this.next();
        if (item.kind !== 'char' || d === '\\' || d === '[' || d === ']') unread();
        const from = (item as { codePoint: number }).codePoint;
        if (d.codePointAt(0)! < from) unread();
        const fromEscape = (item as { escape?: string }).escape;
        item = {
          kind: 'range',
          from,
          to: d.codePointAt(0)!,
          ...(fromEscape ? { fromEscape } : {}),
        };
      }
      items.push(item);
    }
    return { kind: 'bracket', negated, items, leadingBracket, strayDash };
  }
}
