import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  ArgNode,
  CallNode,
  ComparableNode,
  Comparator,
  CompositeNode,
  ExpressionNode,
  FilterAst,
  MemberNode,
  RegexFilter,
  RegexTermNode,
  RestrictionNode,
  Segment,
} from './ast.js';
import { parseFilter } from './parser.js';
import { printFilter } from './printer.js';

const canonical = (filter: string) => printFilter(parseFilter(filter));

describe('printFilter: canonical text', () => {
  it.each([
    // spacing and the AIP-160 operators
    ["a=1   AND (b:'x')", 'a = 1 AND (b : "x")'],
    ['  a   b  ', 'a b'],
    ['a OR b   OR c', 'a OR b OR c'],
    ['a  b AND c\td', 'a b AND c d'],
    ['NOT   a', 'NOT a'],
    ['NOT a OR -b', 'NOT a OR -b'],
    ['-file:".java"', '-file : ".java"'],
    ['--5', '--5'],
    ['( a OR b )', '(a OR b)'],
    ['(a)(b)', '(a) (b)'],
    ['a = ( b OR c )', 'a = (b OR c)'],
    ['d>=-1.5s AND t<2012-04-21T11:30:00Z', 'd >= -1.5s AND t < 2012-04-21T11:30:00Z'],
    ['package=com.google', 'package = com.google'],
    ['a.NOT.OR=1', 'a.NOT.OR = 1'],
    // calls: no space before '(', ', ' between arguments
    ['f( x ,y )', 'f(x, y)'],
    ['a.b.f()', 'a.b.f()'],
    ['x OR(y)', 'x OR(y)'],
    ["regex(m.key, '^.*prod.*$')", 'regex(m.key, "^.*prod.*$")'],
    ['f (x)', 'f (x)'],
    // strings: double quotes, escapes re-encoded
    ["msg != 'hello'", 'msg != "hello"'],
    [`a = 'say "hi"'`, String.raw`a = "say \"hi\""`],
    [String.raw`a = 'it\'s'`, `a = "it's"`],
    [String.raw`a = "\x41\u00e9\U0001F600\101"`, 'a = "Aé😀A"'],
    [String.raw`a = 'tab\there\nnl\r'`, String.raw`a = "tab\there\nnl\r"`],
    [String.raw`a = "\a\v\?\`"`, 'a = "\\x07\\x0b?`"'],
    [String.raw`a = "back\\slash"`, String.raw`a = "back\\slash"`],
    [String.raw`a = "\177"`, String.raw`a = "\x7f"`],
    // `\*` is a literal star and stays escaped; a bare `*` stays a wildcard
    [String.raw`a = 'x\**'`, String.raw`a = "x\**"`],
    [String.raw`name:web\*`, String.raw`name : web\*`],
    ['labels.owner:*', 'labels.owner : *'],
    // regex style: quote style and backslashes are kept as written
    ['name eq abc.*', 'name eq abc.*'],
    ['  name   ne   .*x  ', 'name ne .*x'],
    [`(name eq 'fr-.*')(zone ne "us-.*")`, `(name eq 'fr-.*') (zone ne "us-.*")`],
    ['( name eq two words )', '(name eq two words)'],
    [String.raw`name eq "a\"b\d+"`, String.raw`name eq "a\"b\d+"`],
    ['(name eq (a|b)-c)   (a.b ne x)', '(name eq (a|b)-c) (a.b ne x)'],
    [`name eq ''`, `name eq ''`],
    // the empty filter
    ['', ''],
    [' \t\n ', ''],
  ])('%j → %j', (filter, expected) => {
    expect(canonical(filter)).toBe(expected);
    // Canonical text is a fixed point.
    expect(canonical(expected)).toBe(expected);
  });

  it('gives equal text for filters that differ only in spacing and quotes', () => {
    expect(canonical(`labels.env='prod'   AND NOT  name:"web-*"`)).toBe(
      canonical('labels.env = "prod" AND NOT name : "web-*"'),
    );
  });

  // Regression: an escaped space at the end of an unquoted regex-style pattern was trimmed as if
  // unescaped, leaving `a\`, whose printed form `(name eq a\)` no longer parsed.
  it(String.raw`round-trips an escaped trailing space: (name eq a\ )`, () => {
    const ast = parseFilter(String.raw`(name eq a\ )`) as RegexFilter;
    expect(ast.terms[0]!.pattern.value).toBe(String.raw`a\ `);
    expect(canonical(canonical(String.raw`(name eq a\ )`))).toBe(String.raw`(name eq a\ )`);
  });
  it(String.raw`keeps an escaped trailing space: name eq a\ `, () => {
    const ast = parseFilter(String.raw`name eq a\ `) as RegexFilter;
    expect(ast.terms[0]!.pattern.value).toBe(String.raw`a\ `);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: random well-formed trees survive print → parse → print.

const SPAN = { start: 0, end: 0 };
/** Limits high enough that the property is about printing, not about the parser's limits. */
const LOOSE = { limits: { maxLength: 1_000_000, maxDepth: 100, maxTerms: 100_000 } };

/** The tree without positions, for comparing a re-parsed tree with the generated one. */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'span' || key === 'comparatorSpan' || key === 'source') continue;
    out[key] = strip(v);
  }
  return out;
}

const segment = (kind: Segment['kind'], value: string, literalStars: number[] = []): Segment => ({
  kind,
  value,
  literalStars,
  span: SPAN,
});

/** A literal (escaped) star inside a text or string segment. */
const LITERAL_STAR = Symbol('literal star');
type Piece = string | typeof LITERAL_STAR;

function assemble(pieces: Piece[]): { value: string; literalStars: number[] } {
  let value = '';
  const literalStars: number[] = [];
  for (const piece of pieces) {
    if (piece === LITERAL_STAR) {
      literalStars.push(value.length);
      value += '*';
    } else value += piece;
  }
  return { value, literalStars };
}

/** One character: mostly ASCII (controls included), sometimes any code point or surrogate half. */
const oneChar = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }) },
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom('\ud800', '\udfff', '\u00a0', '\u2028', '\ufeff'),
);

/** Characters a TEXT token may start with (`-`, digits and `\` come as pieces after the first). */
const TEXT_EXCLUDED = /[\s\d().=:<>!,"'\\*-]/;
const textChar = fc.oneof(
  fc.constantFrom(...'abcxyzABCZ_/[]@#%~?+&{}|^$;`éß日'),
  fc.constantFrom('😀', '\u{1F1EB}\u{1F1F7}', '\u200b', '\u0085'),
  oneChar.filter((c) => !TEXT_EXCLUDED.test(c)),
);
const textPiece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 6, arbitrary: textChar },
  fc.constantFrom<Piece>('*', LITERAL_STAR, '-', '0', '7', '\\', '\\\\'),
  textChar.map((c) => `\\${c}`),
);
const KEYWORDS = new Set(['AND', 'OR', 'NOT']);

/** Bare text, never a keyword, never starting with `-` or a digit. */
const textSegment = fc
  .tuple(textChar, fc.array(textPiece, { maxLength: 6 }))
  .map(([first, rest]) => assemble([first, ...rest]))
  .filter(
    ({ value, literalStars }) =>
      !KEYWORDS.has(value) &&
      // A backslash before a wildcard star would read back as an escaped (literal) star.
      !Array.from(
        { length: value.length },
        (_, i) => value[i] === '\\' && value[i + 1] === '*' && !literalStars.includes(i + 1),
      ).includes(true),
  )
  .map(({ value, literalStars }) => segment('text', value, literalStars));

/** Words that must round-trip as text even though they look like something else. */
const trickyText = fc
  .constantFrom('ANDROID', 'NOTa', 'ORDER', 'and', 'not', 'true', 'null', 'x-1', 'web-*', 'é-2s')
  .map((v) => segment('text', v));

const stringSegment = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: oneChar as fc.Arbitrary<Piece> },
      fc.constantFrom<Piece>(
        '"',
        "'",
        '\\',
        '*',
        '\n',
        '\t',
        '\r',
        '\x00',
        '\x07',
        '\x7f',
        ' ',
        '\u2028',
      ),
      fc.constant<Piece>(LITERAL_STAR),
    ),
    { maxLength: 10 },
  )
  .map((pieces) => {
    const { value, literalStars } = assemble(pieces);
    return segment('string', value, literalStars);
  });

const digits = fc.integer({ min: 0, max: 99_999 }).map(String);
const numberSegment = fc
  .tuple(
    fc.boolean(),
    digits,
    fc.option(digits, { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits), {
      nil: undefined,
    }),
  )
  .map(([negative, int, frac, exp]) =>
    segment(
      'number',
      `${negative ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}${exp ? exp.join('') : ''}`,
    ),
  );
const durationSegment = fc
  .tuple(fc.boolean(), digits, fc.option(digits, { nil: undefined }))
  .map(([negative, int, frac]) =>
    segment('duration', `${negative ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}s`),
  );
const timestampSegment = fc
  .tuple(
    fc.date({
      min: new Date('0001-01-01T00:00:00Z'),
      max: new Date('9999-12-31T23:59:59Z'),
      noInvalidDate: true,
    }),
    fc.constantFrom('Z', 'z', '+05:30', '-04:00'),
    fc.constantFrom('', '.1', '.123456789'),
    fc.constantFrom('T', 't'),
  )
  .map(([date, zone, fraction, t]) =>
    segment('timestamp', date.toISOString().slice(0, 19).replace('T', t) + fraction + zone),
  );
const keywordSegment = fc.constantFrom('AND', 'OR', 'NOT').map((v) => segment('keyword', v));

const valueSegment = fc.oneof(
  { weight: 4, arbitrary: textSegment },
  trickyText,
  { weight: 2, arbitrary: stringSegment },
  numberSegment,
  durationSegment,
  timestampSegment,
);

const startsWithDigit = (s: Segment) => /^\d/.test(s.value) && s.kind !== 'string';

/** `1` followed by `.5` would print as the single number `1.5`. */
function mergesWithNext(segments: Segment[]): boolean {
  return segments.some(
    (s, i) =>
      i + 1 < segments.length &&
      s.kind === 'number' &&
      /^-?\d+$/.test(s.value) &&
      startsWithDigit(segments[i + 1]!),
  );
}

const memberNode: fc.Arbitrary<MemberNode> = fc
  .tuple(
    valueSegment,
    fc.oneof(
      { weight: 3, arbitrary: fc.constant([]) },
      fc.array(fc.oneof(valueSegment, keywordSegment), { minLength: 1, maxLength: 3 }),
    ),
  )
  .map(([first, rest]) => [first, ...rest])
  .filter((segments) => !mergesWithNext(segments))
  // A lone `eq` / `ne` word makes `a eq b` a regex-style term (the styles cannot mix).
  .filter((segments) => !(segments.length === 1 && /^(eq|ne)$/.test(segments[0]!.value)))
  .map((segments) => ({ type: 'member', segments, span: SPAN }));

const callName: fc.Arbitrary<Segment[]> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(textSegment, fc.array(fc.oneof(textSegment, keywordSegment), { maxLength: 2 }))
      .map(([f, r]) => [f, ...r]),
  },
  keywordSegment.map((k) => [k]),
);

const comparators: Comparator[] = ['=', '!=', '<', '<=', '>', '>=', ':'];

const DEPTH = { depthSize: 'small', maxDepth: 14, depthIdentifier: 'filter' } as const;

const aip = fc.letrec<{
  expression: ExpressionNode;
  sequenceLevel: ExpressionNode;
  factorLevel: ExpressionNode;
  termLevel: ExpressionNode;
  simple: ExpressionNode;
  composite: CompositeNode;
  restriction: RestrictionNode;
  comparable: ComparableNode;
  call: CallNode;
  arg: ArgNode;
}>((tie) => ({
  expression: fc.oneof(
    DEPTH,
    tie('sequenceLevel'),
    fc
      .array(tie('sequenceLevel'), { minLength: 2, maxLength: 3 })
      .map((operands): ExpressionNode => ({ type: 'and', operands, span: SPAN })),
  ),
  sequenceLevel: fc.oneof(
    DEPTH,
    tie('factorLevel'),
    fc
      .array(tie('factorLevel'), { minLength: 2, maxLength: 3 })
      .map((operands): ExpressionNode => ({ type: 'sequence', operands, span: SPAN })),
  ),
  factorLevel: fc.oneof(
    DEPTH,
    tie('termLevel'),
    fc
      .array(tie('termLevel'), { minLength: 2, maxLength: 3 })
      .map((operands): ExpressionNode => ({ type: 'or', operands, span: SPAN })),
  ),
  termLevel: fc.oneof(
    DEPTH,
    tie('simple'),
    fc.tuple(tie('simple'), fc.boolean()).map(
      ([operand, minus]): ExpressionNode => ({
        type: 'not',
        operand,
        // `-5` is the number -5, not a negation: only NOT can negate a term starting with a digit.
        syntax: minus && !startsWithDigitTerm(operand) ? '-' : 'NOT',
        span: SPAN,
      }),
    ),
  ),
  simple: fc.oneof(DEPTH, tie('restriction'), tie('composite')),
  composite: tie('expression').map(
    (expression): CompositeNode => ({
      type: 'composite',
      expression,
      span: SPAN,
    }),
  ),
  restriction: fc
    .tuple(
      tie('comparable'),
      fc.option(fc.tuple(fc.constantFrom(...comparators), tie('arg')), { nil: undefined }),
    )
    .map(
      ([comparable, rest]): RestrictionNode =>
        rest
          ? {
              type: 'restriction',
              comparable,
              comparator: rest[0],
              comparatorSpan: SPAN,
              arg: rest[1],
              span: SPAN,
            }
          : { type: 'restriction', comparable, span: SPAN },
    ),
  comparable: fc.oneof(DEPTH, { weight: 3, arbitrary: memberNode }, tie('call')),
  call: fc
    .tuple(callName, fc.array(tie('arg'), { maxLength: 3 }))
    .map(([name, args]): CallNode => ({ type: 'call', name, args, span: SPAN })),
  arg: fc.oneof(DEPTH, { weight: 3, arbitrary: tie('comparable') }, tie('composite')),
}));

function startsWithDigitTerm(node: ExpressionNode): boolean {
  if (node.type !== 'restriction') return false;
  const first =
    node.comparable.type === 'member' ? node.comparable.segments[0] : node.comparable.name[0];
  return first !== undefined && startsWithDigit(first);
}

const aipFilter: fc.Arbitrary<FilterAst> = aip.expression.map((expression) => ({
  style: 'aip-160',
  source: '',
  expression,
}));

// Regex style ----------------------------------------------------------------------------------

const identifier = fc
  .stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,5}$/)
  .filter((s) => !KEYWORDS.has(s));
const regexField: fc.Arbitrary<MemberNode> = fc
  .array(identifier, { minLength: 1, maxLength: 3 })
  .map((names) => ({
    type: 'member',
    segments: names.map((n) => segment('text', n)),
    span: SPAN,
  }));

const isSpace = (c: string) => /\s/.test(c);
const plainChar = oneChar.filter((c) => c !== '\\');
/** A backslash escapes the next character, whatever it is. */
const escaped = oneChar.map((c) => `\\${c}`);

function quotedPattern(quote: '"' | "'") {
  return fc
    .array(
      fc.oneof(
        plainChar.filter((c) => c !== quote),
        escaped,
        fc.constant(quote === '"' ? "'" : '"'),
      ),
      {
        maxLength: 10,
      },
    )
    .map((parts) => ({ value: parts.join(''), quote, span: SPAN }));
}

/**
 * An unquoted pattern: no leading space or quote, no trailing (unescaped) space. Inside
 * parentheses its own parentheses must balance; outside, it has no unescaped spaces.
 *
 * An escaped space (`\ `) is not generated at the very end; the regression tests above pin it.
 */
function unquotedPattern(inParens: boolean) {
  const char = plainChar.filter((c) => !(c === '(' || c === ')') || !inParens);
  const group: fc.Arbitrary<string> = fc.letrec<{ run: string }>((tie) => ({
    run: fc
      .array(
        fc.oneof(
          { depthSize: 'small', maxDepth: 3, depthIdentifier: 'pattern' },
          { weight: 5, arbitrary: inParens ? char : char.filter((c) => !isSpace(c)) },
          escaped,
          inParens ? tie('run').map((inner) => `(${inner})`) : fc.constantFrom('(', ')'),
        ),
        { maxLength: 8 },
      )
      .map((parts) => parts.join('')),
  })).run;
  return group
    .filter(
      (value) =>
        value.length > 0 &&
        !isSpace(value[0]!) &&
        value[0] !== '"' &&
        value[0] !== "'" &&
        !isSpace(value[value.length - 1]!),
    )
    .map((value) => ({ value, quote: null, span: SPAN }));
}

function regexTerm(parenthesized: boolean): fc.Arbitrary<RegexTermNode> {
  return fc
    .tuple(
      regexField,
      fc.constantFrom<'eq' | 'ne'>('eq', 'ne'),
      fc.oneof(quotedPattern('"'), quotedPattern("'"), unquotedPattern(parenthesized)),
    )
    .map(([field, operator, pattern]) => ({
      type: 'regexTerm',
      field,
      operator,
      pattern,
      parenthesized,
      span: SPAN,
    }));
}

const regexFilter: fc.Arbitrary<FilterAst> = fc
  .oneof(
    regexTerm(false).map((t) => [t]),
    fc.array(regexTerm(true), { minLength: 1, maxLength: 5 }),
  )
  .map((terms) => ({ style: 'regex', source: '', terms }));

function roundTrips(ast: FilterAst) {
  const text = printFilter(ast);
  const reparsed = parseFilter(text, LOOSE);
  expect(reparsed.style).toBe(ast.style);
  expect(printFilter(reparsed)).toBe(text);
  expect(strip(reparsed)).toEqual(strip(ast));
}

describe('printFilter: print → parse round trip', () => {
  it('reproduces random AIP-160 trees', () => {
    fc.assert(fc.property(aipFilter, roundTrips), { numRuns: 500 });
  });

  it('reproduces random regex-style filters', () => {
    fc.assert(fc.property(regexFilter, roundTrips), { numRuns: 500 });
  });
});
