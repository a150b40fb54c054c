import { type PatternNode, readPattern } from '../filter/regex/pattern-tree.js';
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
  const tree = readPattern(pattern);
  if (tree === undefined) return undefined;
  try {
    return subset(tree);
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
/** The escaped controls whose meaning PostgreSQL shares (not `\a`, `\v`). */
const CONTROL_ESCAPES: Readonly<Record<string, string>> = {
  t: '\\t',
  n: '\\n',
  r: '\\r',
  f: '\\f',
};
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;

/** A character as a PostgreSQL regex escape: alphanumerics as themselves, the rest as `\u`. */
function literal(cp: number): string {
  const c = String.fromCodePoint(cp);
  if (/^[0-9A-Za-z]$/.test(c)) return c;
  return cp > 0xffff
    ? `\\U${cp.toString(16).padStart(8, '0')}`
    : `\\u${cp.toString(16).padStart(4, '0')}`;
}

const one = (sql: string): Piece => ({ sql, size: 1, nullable: false, counted: false });

/** A node of the pattern tree as PostgreSQL text, or OUTSIDE. */
function subset(node: PatternNode): Piece {
  switch (node.kind) {
    case 'alt': {
      const branches = node.branches.map(subset);
      return {
        sql: branches.map((b) => b.sql).join('|'),
        size: capped(branches.reduce((sum, b) => sum + b.size, 0)),
        nullable: branches.some((b) => b.nullable),
        counted: branches.some((b) => b.counted),
      };
    }
    case 'concat': {
      // Empty branches and groups are legal in both dialects but rare; keep them out of the subset.
      if (node.items.length === 0) fail();
      const parts = node.items.map(subset);
      return {
        sql: parts.map((p) => p.sql).join(''),
        size: capped(parts.reduce((sum, p) => sum + p.size, 0)),
        nullable: parts.every((p) => p.nullable),
        counted: parts.some((p) => p.counted),
      };
    }
    case 'group': {
      const inner = subset(node.body);
      return { ...inner, sql: `(?:${inner.sql})` };
    }
    case 'repeat':
      return repeat(node);
    case 'dot':
      // RE2's `.` does not match a newline; PostgreSQL's does.
      return one('[^\\n]');
    case 'anchor':
      // Zero-width: they match the empty string.
      return { sql: node.text, size: 1, nullable: true, counted: false };
    case 'bracket':
      return one(bracket(node));
    case 'perl':
      return one(perl(node.letter, false));
    case 'char':
      return one(character(node.codePoint, node.escape));
    case 'assertion':
      return fail(); // \b \B \A \z: not portable
  }
}

/** A quantified piece: greedy only, over what cannot match empty and holds no count. */
function repeat(node: Extract<PatternNode, { kind: 'repeat' }>): Piece {
  // Lazy forms: keep the subset to greedy quantifiers.
  if (node.lazy) fail();
  const piece = subset(node.sub);
  // Unbounded cost in PostgreSQL: repeating what can match the empty string (`(a?){200}`,
  // `(a*)*`), or a counted repetition inside another repetition (`(a{9}){9}`, `a{2}*`).
  if (piece.nullable || piece.counted) fail();
  const { min, max, counted } = node;
  let text = node.written;
  let factor = 1;
  let extra = 1;
  if (counted) {
    // PostgreSQL's limit on repeat counts is 255 (RE2's is 1000): three digits at most.
    const m = /^\{(\d{1,3})(,(\d{1,3})?)?\}$/.exec(node.written) ?? fail();
    if (min > 255 || max > 255) fail();
    text = m[2] === undefined ? `{${min}}` : max < 0 ? `{${min},}` : `{${min},${max}}`;
    // At least 1, so that sizes never shrink (`x{0}` is still compiled).
    factor = Math.max(1, min, max);
    extra = max < 0 ? 1 : 0;
  }
  return {
    sql: `(?:${piece.sql})${text}`,
    size: capped(piece.size * factor + extra),
    nullable: min === 0,
    counted,
  };
}

/** A character outside brackets: literals re-emitted as escapes, `\t`-style controls as such. */
function character(codePoint: number, escaped: string | undefined): string {
  if (escaped === undefined || PUNCTUATION.test(escaped)) return literal(codePoint);
  return CONTROL_ESCAPES[escaped] ?? fail();
}

/** `\d \w \s` spelled out; inside brackets, their members without brackets (not negated ones). */
function perl(letter: string, inBracket: boolean): string {
  const lower = letter.toLowerCase();
  const members = lower === 'd' ? DIGIT : lower === 'w' ? WORD : SPACE;
  const negated = letter !== lower;
  if (inBracket) return negated ? fail() : members;
  return negated ? `[^${members}]` : `[${members}]`;
}

function bracket(node: Extract<PatternNode, { kind: 'bracket' }>): string {
  // A `]` right after `[` is a literal in RE2; leave that spelling out of the subset.
  if (node.leadingBracket) fail();
  let out = '';
  for (const item of node.items) {
    if (item.kind === 'perl') out += perl(item.letter, true);
    else if (item.kind === 'char') out += character(item.codePoint, item.escape);
    else {
      // A range may start from an escaped punctuation or control character, never end on one.
      if (item.fromEscape !== undefined) character(item.from, item.fromEscape);
      out += `${literal(item.from)}-${literal(item.to)}`;
    }
  }
  return node.negated ? `[^${out}]` : `[${out}]`;
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
  const read = topLevelItems(pattern);
  if (read === undefined) return '';
  const chars: string[] = [];
  for (const item of read.items) {
    if (item.kind !== 'char') break;
    chars.push(String.fromCodePoint(item.codePoint));
  }
  if (read.cut && chars.length === read.items.length) chars.pop();
  const prefix = chars.join('');
  return isStorableText(prefix) ? prefix : '';
}

/**
 * Literal runs every full match of an RE2 pattern contains, read conservatively: only runs at
 * the top level of the pattern (outside groups and classes), not followed by a quantifier, and
 * none at all when the pattern has a top-level alternation or anything the pattern reader
 * (`pattern-tree.ts`) does not read; a pattern with flags (`(?i)`) is read up to them. A
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
  const read = topLevelItems(pattern);
  if (read === undefined) return [];
  const runs: string[] = [];
  let run: string[] = [];
  const flush = () => {
    const text = run.join('');
    if (text !== '' && isStorableText(text)) runs.push(text);
    run = [];
  };
  for (const item of read.items) {
    // A literal: `repeat` nodes hold the quantified ones, so each of these occurs exactly once.
    if (item.kind === 'char') run.push(String.fromCodePoint(item.codePoint));
    else flush();
  }
  if (read.cut) run.pop();
  flush();
  return runs;
}

/**
 * The top-level items of a pattern, from the one pattern reader (`pattern-tree.ts`); undefined
 * for an alternation or a pattern the reader does not read at all. The reader reads no flags and
 * not every escape (`\\pL`, `\\x41`, `\\Q…\\E`), so a pattern it does not read whole is read up to
 * the last flag group or escape before which it reads completely (`cut`; the first
 * {@link MAX_CUTS} such places are tried): that text is the pattern's start when the whole has
 * no `|` anywhere (one could make it an alternation), and reading completely puts the cut outside
 * any group, class or escape. RE2 does not count a flag group as an atom (`a(?i)?` makes the `a`
 * optional), so callers drop a literal that ends at the cut.
 */
function topLevelItems(pattern: string): { items: PatternNode[]; cut: boolean } | undefined {
  const whole = readPattern(pattern);
  if (whole !== undefined)
    return whole.kind === 'concat' ? { items: whole.items, cut: false } : undefined;
  if (pattern.includes('|')) return undefined;
  const cuts = [...pattern.matchAll(/\\|\(\?(?!:)/g)].slice(0, MAX_CUTS).map((m) => m.index);
  for (const at of cuts.reverse()) {
    const head = readPattern(pattern.slice(0, at));
    if (head?.kind === 'concat') return { items: head.items, cut: true };
  }
  return undefined;
}

/** How many places a pattern the reader does not read whole is tried at (each a read of it). */
const MAX_CUTS = 16;
