import { isStorableText } from './sql-text.js';

/**
 * Translates an RE2 pattern to a PostgreSQL regular expression that full-matches exactly the
 * same strings, or returns undefined when the pattern uses anything outside the subset whose
 * meaning is identical in both (see docs/sql.md): literals, `.`, ASCII classes and `\d \w \s`
 * spelled out, bracket classes of literals and ranges, groups, `|`, greedy `* + ?` and
 * `{n,m}` up to 255, `^` and `$`. Everything is re-emitted from the parse, never copied:
 * literals become `\uXXXX` escapes, so no PostgreSQL metacharacter can sneak through.
 *
 * @example
 * ```ts
 * translateRegex('web-[0-9]+');  // '^(?:web\u002d[0-9]+)$'
 * translateRegex('(?i)web');     // undefined: case folding differs
 * ```
 */
export function translateRegex(pattern: string): string | undefined {
  if (!isStorableText(pattern)) return undefined;
  try {
    const parser = new SubsetParser(pattern);
    const body = parser.alternation();
    if (!parser.done()) return undefined;
    return `^(?:${body})$`;
  } catch (error) {
    if (error === OUTSIDE) return undefined;
    throw error;
  }
}

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

  alternation(): string {
    const branches = [this.concatenation()];
    while (this.peek() === '|') {
      this.next();
      branches.push(this.concatenation());
    }
    return branches.join('|');
  }

  private concatenation(): string {
    let out = '';
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      out += this.repetition();
    }
    // Empty branches and groups are legal in both dialects but rare; keep them out of the subset.
    return out === '' ? fail() : out;
  }

  private repetition(): string {
    const start = this.peek();
    const atom = this.atom();
    const anchor = start === '^' || start === '$';
    let out = atom;
    for (let c = this.peek(); c === '*' || c === '+' || c === '?' || c === '{'; c = this.peek()) {
      if (anchor) fail();
      out = `(?:${out})${this.quantifier()}`;
      // Lazy and possessive forms: keep the subset to greedy quantifiers.
      if (this.peek() === '?' || this.peek() === '+') fail();
    }
    return out;
  }

  private quantifier(): string {
    const c = this.next();
    if (c !== '{') return c;
    const m = /^\{(\d{1,3})(,(\d{1,3})?)?\}/.exec(this.text.slice(this.at - 1));
    if (!m) fail();
    this.at += m![0].length - 1;
    const min = Number(m![1]);
    const max = m![3] === undefined ? undefined : Number(m![3]);
    // PostgreSQL's limit on repeat counts is 255 (RE2's is 1000).
    if (min > 255 || (max !== undefined && (max > 255 || max < min))) fail();
    return m![2] === undefined ? `{${min}}` : max === undefined ? `{${min},}` : `{${min},${max}}`;
  }

  private atom(): string {
    const c = this.next();
    switch (c) {
      case '(': {
        if (this.text.startsWith('?:', this.at)) this.at += 2;
        else if (this.peek() === '?') fail(); // flags and named groups
        if (++this.depth > 100) fail();
        const inner = this.alternation();
        this.depth--;
        if (this.next() !== ')') fail();
        return `(?:${inner})`;
      }
      case '.':
        // RE2's `.` does not match a newline; PostgreSQL's does.
        return '[^\\n]';
      case '^':
      case '$':
        return c;
      case '[':
        return this.bracket();
      case '\\':
        return this.escape(false);
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
        return literal(c);
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
