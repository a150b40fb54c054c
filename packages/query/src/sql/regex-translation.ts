import { isStorableText } from './sql-text.js';

/**
 * The largest expanded size (see {@link regexPushdownSize}) of a pattern the planner pushes down
 * to PostgreSQL. PostgreSQL's regex engine has no linear-time bound: it rebuilds its lazy DFA
 * for every row, and each state costs time in proportion to the NFA states active at once, which
 * grows with every optional or repeated copy. Measured on PGlite over 20,000 rule names
 * (test/bench/sql-regex-cost.mjs, docs/sql.md), where fetching the column and full-matching with
 * re2js takes 30–35 ms: at size 32 the costliest families took 50 ms (`.?` × 16) and 81 ms
 * (`.{0,32}`), comparable to RE2; at 64, 156–271 ms; at 128, 0.3–1.7 s, growing with every row.
 * Literal runs are cheap in PostgreSQL (a 210-character literal took 16 ms) but counted alike: a
 * long literal pattern stays in the residual, narrowed by its prefix and runs.
 *
 * @example
 * ```ts
 * regexPushdownSize('.{0,32}')! <= MAX_PUSHDOWN_REGEX_SIZE; // true: pushed down
 * regexPushdownSize('.{0,33}')! <= MAX_PUSHDOWN_REGEX_SIZE; // false: RE2 decides in the residual
 * ```
 */
export const MAX_PUSHDOWN_REGEX_SIZE = 32;

/**
 * Translates an RE2 pattern to a PostgreSQL regular expression that full-matches exactly the
 * same strings, or returns undefined when the pattern uses anything outside the subset whose
 * meaning is identical in both (see docs/sql.md): literals, `.`, ASCII classes and `\d \w \s`
 * spelled out, bracket classes of literals and ranges, groups, `|`, greedy `* + ?` and
 * `{n,m}` up to 255, `^` and `$`. Everything is re-emitted from the parse, never copied:
 * literals become `\uXXXX` escapes, so no PostgreSQL metacharacter can sneak through.
 *
 * Also undefined when PostgreSQL's cost is not provably bounded (its regex engine is not
 * linear-time): a quantifier over something that can match the empty string (`(.?){200}`,
 * `(a*)*`), a counted repetition inside another repetition (`(a{2})*`), or an expanded size over
 * {@link MAX_PUSHDOWN_REGEX_SIZE}. The planner then keeps the pattern in the residual, where RE2
 * decides in linear time.
 *
 * @example
 * ```ts
 * translateRegex('web-[0-9]+');  // '^(?:web\u002d(?:[0-9])+)$'
 * translateRegex('(?i)web');     // undefined: case folding differs
 * translateRegex('(.?){200}');   // undefined: seconds per statement in PostgreSQL
 * ```
 */
export function translateRegex(pattern: string): string | undefined {
  const piece = parseSubset(pattern);
  return piece === undefined || piece.size > MAX_PUSHDOWN_REGEX_SIZE
    ? undefined
    : `^(?:${piece.sql})$`;
}

/**
 * The expanded size of a pattern in the portable subset, the measure of PostgreSQL's cost that
 * {@link translateRegex} bounds by {@link MAX_PUSHDOWN_REGEX_SIZE}: a literal, class or `.` is 1;
 * a concatenation or alternation the sum of its parts; `*`, `+`, `?` add 1; `{n,m}` multiplies
 * by the larger count (`{n,}` adds 1 more). Undefined when the pattern is outside the subset or
 * its cost has no such bound (a quantifier over something that matches the empty string, or a
 * counted repetition inside another repetition).
 *
 * @example
 * ```ts
 * regexPushdownSize('(web|api)-.*'); // 9
 * regexPushdownSize('[a-z]{1,3}');   // 3
 * regexPushdownSize('(a*)*b');       // undefined
 * ```
 */
export function regexPushdownSize(pattern: string): number | undefined {
  return parseSubset(pattern)?.size;
}

/**
 * What the subset parser knows of a sub-pattern: its PostgreSQL text, its expanded size, whether
 * it can match the empty string, and whether it holds a counted repetition (`{n,m}`).
 */
interface Piece {
  sql: string;
  size: number;
  nullable: boolean;
  counted: boolean;
}

/** The whole pattern parsed, or undefined when it is outside the subset or unbounded in cost. */
function parseSubset(pattern: string): Piece | undefined {
  if (!isStorableText(pattern)) return undefined;
  try {
    const parser = new SubsetParser(pattern);
    const body = parser.alternation();
    return parser.done() ? body : undefined;
  } catch (error) {
    if (error === OUTSIDE) return undefined;
    throw error;
  }
}

/**
 * Sizes stop growing past this: a pattern over it is refused anyway, and the bound keeps the
 * arithmetic exact however many counts multiply.
 */
const SIZE_CAP = 1 << 20;
const capped = (size: number): number => Math.min(size, SIZE_CAP);

const OUTSIDE = Symbol('outside the portable subset');
const fail = (): never => {
  throw OUTSIDE;
};

const DIGIT = '0-9';
const WORD = '0-9A-Za-z_';
const SPACE = '\\t\\n\\f\\r ';
const CONTROL_ESCAPES: Readonly<Record<string, string>> = {
  t: '\\t',
  n: '\\n',
  r: '\\r',
  f: '\\f',
};
const CONTROL_CHARACTERS: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', f: '\f' };
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/** A character as a PostgreSQL regex escape: alphanumerics as themselves, the rest as `\u`. */
function literal(c: string): string {
  if (/^[0-9A-Za-z]$/.test(c)) return c;
  const cp = c.codePointAt(0)!;
  return cp > 0xffff
    ? `\\U${cp.toString(16).padStart(8, '0')}`
    : `\\u${cp.toString(16).padStart(4, '0')}`;
}

class SubsetParser {
  private at = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at === this.text.length;
  }

  private peek(): string | undefined {
    const cp = this.text.codePointAt(this.at);
    return cp === undefined ? undefined : String.fromCodePoint(cp);
  }

  private next(): string {
    const c = this.peek() ?? fail();
    this.at += c.length;
    return c;
  }

  alternation(): Piece {
    const branches = [this.concatenation()];
    while (this.peek() === '|') {
      this.next();
      branches.push(this.concatenation());
    }
    return {
      sql: branches.map((b) => b.sql).join('|'),
      size: capped(branches.reduce((sum, b) => sum + b.size, 0)),
      nullable: branches.some((b) => b.nullable),
      counted: branches.some((b) => b.counted),
    };
  }

  private concatenation(): Piece {
    const parts: Piece[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      parts.push(this.repetition());
    }
    // Empty branches and groups are legal in both dialects but rare; keep them out of the subset.
    if (parts.length === 0) fail();
    return {
      sql: parts.map((p) => p.sql).join(''),
      size: capped(parts.reduce((sum, p) => sum + p.size, 0)),
      nullable: parts.every((p) => p.nullable),
      counted: parts.some((p) => p.counted),
    };
  }

  private repetition(): Piece {
    const start = this.peek();
    let piece = this.atom();
    const anchor = start === '^' || start === '$';
    for (let c = this.peek(); c === '*' || c === '+' || c === '?' || c === '{'; c = this.peek()) {
      if (anchor) fail();
      // Unbounded cost in PostgreSQL: repeating what can match the empty string (`(a?){200}`,
      // `(a*)*`), or a counted repetition inside another repetition (`(a{9}){9}`, `a{2}*`).
      if (piece.nullable || piece.counted) fail();
      const q = this.quantifier();
      piece = {
        sql: `(?:${piece.sql})${q.text}`,
        size: capped(piece.size * q.factor + q.extra),
        nullable: q.min === 0,
        counted: q.counted,
      };
      // Lazy and possessive forms: keep the subset to greedy quantifiers.
      if (this.peek() === '?' || this.peek() === '+') fail();
    }
    return piece;
  }

  /**
   * A quantifier: its text, the least count, and how it grows the expanded size (the inner size
   * times `factor`, plus `extra`).
   */
  private quantifier(): {
    text: string;
    min: number;
    factor: number;
    extra: number;
    counted: boolean;
  } {
    const c = this.next();
    if (c !== '{') return { text: c, min: c === '+' ? 1 : 0, factor: 1, extra: 1, counted: false };
    const m = /^\{(\d{1,3})(,(\d{1,3})?)?\}/.exec(this.text.slice(this.at - 1));
    if (!m) fail();
    this.at += m![0].length - 1;
    const min = Number(m![1]);
    const max = m![3] === undefined ? undefined : Number(m![3]);
    // PostgreSQL's limit on repeat counts is 255 (RE2's is 1000).
    if (min > 255 || (max !== undefined && (max > 255 || max < min))) fail();
    const unbounded = m![2] !== undefined && max === undefined;
    return {
      text: m![2] === undefined ? `{${min}}` : max === undefined ? `{${min},}` : `{${min},${max}}`,
      min,
      // At least 1, so that sizes never shrink (`x{0}` is still compiled).
      factor: Math.max(1, min, max ?? 0),
      extra: unbounded ? 1 : 0,
      counted: true,
    };
  }

  private atom(): Piece {
    const c = this.next();
    const one = (sql: string): Piece => ({ sql, size: 1, nullable: false, counted: false });
    switch (c) {
      case '(': {
        if (this.text.startsWith('?:', this.at)) this.at += 2;
        else if (this.peek() === '?') fail(); // flags and named groups
        if (++this.depth > 100) fail();
        const inner = this.alternation();
        this.depth--;
        if (this.next() !== ')') fail();
        return { ...inner, sql: `(?:${inner.sql})` };
      }
      case '.':
        // RE2's `.` does not match a newline; PostgreSQL's does.
        return one('[^\\n]');
      case '^':
      case '$':
        // Zero-width: they match the empty string.
        return { sql: c, size: 1, nullable: true, counted: false };
      case '[':
        return one(this.bracket());
      case '\\':
        return one(this.escape(false));
      case ')':
      case '*':
      case '+':
      case '?':
      case '{':
      case '}':
      case ']':
      case '|':
        return fail();
      default:
        return one(literal(c));
    }
  }

  /** An escape after `\`; inside brackets, classes contribute their members without brackets. */
  private escape(inBracket: boolean): string {
    const c = this.next();
    if (PUNCTUATION.test(c)) return literal(c);
    if (CONTROL_ESCAPES[c]) return CONTROL_ESCAPES[c]!;
    const members =
      c === 'd' || c === 'D'
        ? DIGIT
        : c === 'w' || c === 'W'
          ? WORD
          : c === 's' || c === 'S'
            ? SPACE
            : undefined;
    if (members === undefined) return fail(); // \b \pL \x \Q \z …: not portable
    const negated = c === 'D' || c === 'W' || c === 'S';
    if (inBracket) return negated ? fail() : members;
    return negated ? `[^${members}]` : `[${members}]`;
  }

  private bracket(): string {
    let out = '';
    const negated = this.peek() === '^';
    if (negated) this.next();
    // A `]` right after `[` is a literal in RE2; leave that spelling out of the subset.
    if (this.peek() === ']') fail();
    for (;;) {
      const c = this.next();
      if (c === ']') break;
      if (c === '[') fail(); // [[:alpha:]], [[.a.]], [[=a=]]
      let single: string | undefined = c; // the character a range may start from
      let emitted: string;
      if (c === '\\') {
        const e = this.peek() ?? fail();
        single = PUNCTUATION.test(e) ? e : CONTROL_CHARACTERS[e];
        emitted = this.escape(true);
      } else {
        emitted = literal(c);
      }
      if (this.peek() === '-' && this.text[this.at + 1] !== ']') {
        this.next();
        const d = this.next();
        if (single === undefined || d === '\\' || d === '[' || d === ']') fail();
        if (d.codePointAt(0)! < single!.codePointAt(0)!) fail();
        out += `${literal(single!)}-${literal(d)}`;
      } else {
        out += emitted;
      }
    }
    if (out === '') fail();
    return negated ? `[^${out}]` : `[${out}]`;
  }
}

/**
 * The literal text every full match of an RE2 pattern starts with, read conservatively ('' when
 * in doubt): used to narrow a pattern that stays in the residual to an index range.
 *
 * @example
 * ```ts
 * regexLiteralPrefix('web-x(?i)y.*'); // 'web-' (the x could be made optional by `(?i)?`)
 * regexLiteralPrefix('a|b');         // ''
 * ```
 */
export function regexLiteralPrefix(pattern: string): string {
  if (pattern.includes('|') || pattern.includes('\\Q')) return '';
  let prefix = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    let taken: string;
    let width: number;
    if (c === '\\') {
      const d = pattern[i + 1];
      if (d === undefined || !PUNCTUATION.test(d)) break;
      taken = d;
      width = 2;
    } else if ('.+*?()[]{}^$'.includes(c) || c.charCodeAt(0) >= 0xd800) {
      break;
    } else {
      taken = c;
      width = 1;
    }
    // The last literal before a quantifier is optional or repeated: not part of the prefix.
    if (quantifiedAt(pattern, i + width)) break;
    prefix += taken;
    i += width;
  }
  return isStorableText(prefix) ? prefix : '';
}

/**
 * Literal runs every full match of an RE2 pattern contains, read conservatively: only runs at
 * the top level of the pattern (outside groups and classes), not followed by a quantifier, and
 * none at all when the pattern has an alternation or `\Q`; scanning stops at flags (`(?i)`). A
 * pattern that stays in the residual is narrowed by `LIKE '%run%'` for each (a trigram index
 * can answer those).
 *
 * @example
 * ```ts
 * regexLiteralFragments('.*web\\b.*-prod.*'); // ['web', '-prod']
 * regexLiteralFragments('a|b');                    // []
 * ```
 */
export function regexLiteralFragments(pattern: string): string[] {
  // Alternation, quoting, and escapes with arguments (\x41, \pL, \123) are not read here.
  if (/\||\\[QxpP0-9]/.test(pattern)) return [];
  const runs: string[] = [];
  let run = '';
  const flush = () => {
    if (run !== '' && isStorableText(run)) runs.push(run);
    run = '';
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '(') {
      if (pattern[i + 1] === '?' && pattern[i + 2] !== ':') break; // flags: stop here
      flush();
      // Skip the group: what is inside may be optional or repeated.
      let depth = 0;
      for (; i < pattern.length; i++) {
        const d = pattern[i];
        if (d === '\\') i++;
        else if (d === '[') i = skipClass(pattern, i);
        else if (d === '(') depth++;
        else if (d === ')' && --depth === 0) break;
      }
      i++;
      continue;
    }
    if (c === '[') {
      flush();
      i = skipClass(pattern, i) + 1;
      continue;
    }
    if (c === '{') {
      // A repeat count (or, in RE2, sometimes literal text): skipped either way.
      flush();
      const end = pattern.indexOf('}', i);
      i = end < 0 ? pattern.length : end + 1;
      continue;
    }
    let taken: string | undefined;
    let width = 1;
    if (c === '\\') {
      const d = pattern[i + 1];
      width = 2;
      if (d !== undefined && PUNCTUATION.test(d)) taken = d;
    } else if (!'.+*?{}^$)'.includes(c) && c.charCodeAt(0) < 0xd800) {
      taken = c;
    }
    if (taken === undefined || quantifiedAt(pattern, i + width)) flush();
    else run += taken;
    i += width;
  }
  flush();
  return runs;
}

/** The index of the `]` that closes the class opening at `start`. */
function skipClass(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++; // a leading `]` is a literal
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '[' && pattern[i + 1] === ':') {
      const end = pattern.indexOf(':]', i + 2);
      if (end > 0) i = end + 1;
    } else if (pattern[i] === ']') return i;
  }
  return pattern.length;
}

/**
 * Whether what follows a literal may repeat it or make it optional: a quantifier, or a flag group
 * such as `(?i)`, which RE2 does not count as an atom (`a(?i)?` makes the `a` optional).
 */
function quantifiedAt(pattern: string, at: number): boolean {
  const after = pattern[at];
  if (after === '*' || after === '?' || after === '+' || after === '{') return true;
  return after === '(' && pattern[at + 1] === '?' && pattern[at + 2] !== ':';
}
