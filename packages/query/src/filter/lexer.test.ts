import { describe, expect, it } from 'vitest';
import { ListkitError } from '../errors.js';
import { filterLexer } from './lexer.js';
import { parseFilter } from './parser.js';
import { tokenize } from './tokenize.js';

// The hand-written scanner keeps the rules of the Chevrotain lexer it replaced. Every expectation
// below was produced by that lexer (the build before the scanner) and is kept verbatim.

/** `[type name, image, start]` of each token of `text` in `mode`, and the error runs. */
function lex(text: string, mode: 'aip' | 'regex' = 'aip') {
  const { tokens, errors } = filterLexer.tokenize(text, mode);
  return {
    tokens: tokens.map((t) => [t.tokenType.name, t.image, t.startOffset]),
    errors: errors.map((e) => [e.offset, e.length]),
  };
}

function errorOf(text: string): [string, string, { start: number; end: number }] {
  try {
    parseFilter(text);
  } catch (error) {
    if (error instanceof ListkitError) return [error.code, error.message, error.span];
    throw error;
  }
  throw new Error(`parsed: ${text}`);
}

describe('filter scanner: strings', () => {
  it('reads an unterminated string to the end, and the parser reports it where it starts', () => {
    expect(lex('a = "abc').tokens).toEqual([
      ['Text', 'a', 0],
      ['Equals', '=', 2],
      ['UnterminatedString', '"abc', 4],
    ]);
    expect(errorOf('a = "abc')).toEqual([
      'unterminated_string',
      'unterminated string',
      { start: 4, end: 8 },
    ]);
  });

  it('ends an unterminated string at a newline, which a string may not hold', () => {
    expect(lex('"ab\ncd"').tokens).toEqual([
      ['UnterminatedString', '"ab', 0],
      ['Text', 'cd', 4],
      ['UnterminatedString', '"', 6],
    ]);
    expect(errorOf('"ab\ncd"')[2]).toEqual({ start: 0, end: 3 });
  });

  it('keeps escaped quotes and backslashes inside, in both quotes', () => {
    expect(lex('"a\\"b" \'a\\\'b\' "a\\\\"').tokens).toEqual([
      ['StringLiteral', '"a\\"b"', 0],
      ['StringLiteral', "'a\\'b'", 7],
      ['StringLiteral', '"a\\\\"', 14],
    ]);
  });

  it('leaves a final lone backslash outside an unterminated string', () => {
    expect(lex('"ab\\').tokens).toEqual([
      ['UnterminatedString', '"ab', 0],
      ['Text', '\\', 3],
    ]);
  });
});

describe('filter scanner: words, numbers, keywords', () => {
  it('reads non-ASCII text and skips every JavaScript whitespace character', () => {
    expect(lex('é = "ü" 😀:x').tokens).toEqual([
      ['Text', 'é', 0],
      ['Equals', '=', 2],
      ['StringLiteral', '"ü"', 4],
      ['Text', '😀', 8],
      ['Has', ':', 10],
      ['Text', 'x', 11],
    ]);
    expect(lex('a\u3000=\u00a0b\ufeff').tokens).toEqual([
      ['Text', 'a', 0],
      ['Equals', '=', 2],
      ['Text', 'b', 4],
    ]);
  });

  it('lets a longer bare word win over a keyword, and reads a keyword before ( as a name', () => {
    expect(lex('ANDY AND(x) ORx NOT.x a.AND').tokens).toEqual([
      ['Text', 'ANDY', 0],
      ['KeywordName', 'AND', 5],
      ['CallLParen', '(', 8],
      ['Text', 'x', 9],
      ['RParen', ')', 10],
      ['Text', 'ORx', 12],
      ['Not', 'NOT', 16],
      ['Dot', '.', 19],
      ['Text', 'x', 20],
      ['Text', 'a', 22],
      ['Dot', '.', 23],
      ['And', 'AND', 24],
    ]);
  });

  it('reads durations and numbers unless a longer bare word starts there', () => {
    expect(lex('10s 10sec 1e5 1e -5 -5s 1.5 1.').tokens).toEqual([
      ['DurationLiteral', '10s', 0],
      ['Text', '10sec', 4],
      ['NumberLiteral', '1e5', 10],
      ['Text', '1e', 14],
      ['NumberLiteral', '-5', 17],
      ['DurationLiteral', '-5s', 20],
      ['NumberLiteral', '1.5', 24],
      ['NumberLiteral', '1', 28],
      ['Dot', '.', 29],
    ]);
  });

  it('reads timestamps with a zone, and a timestamp without one as words and numbers', () => {
    expect(lex('2025-06-01T00:00:00Z 2025-06-01t00:00:00.123+05:30').tokens).toEqual([
      ['Timestamp', '2025-06-01T00:00:00Z', 0],
      ['Timestamp', '2025-06-01t00:00:00.123+05:30', 21],
    ]);
    expect(lex('2025-06-01T00:00:00').tokens).toEqual([
      ['Text', '2025-06-01T00', 0],
      ['Has', ':', 13],
      ['NumberLiteral', '00', 14],
      ['Has', ':', 16],
      ['NumberLiteral', '00', 17],
    ]);
    expect(errorOf('2025-06-01T00:00:00')).toEqual([
      'unexpected_token',
      "unexpected ':'",
      { start: 16, end: 17 },
    ]);
  });

  it("tells a call's ( (no space before it) from a composite's", () => {
    expect(lex('f(x) f (x)').tokens.map((t) => t[0])).toEqual([
      'Text',
      'CallLParen',
      'Text',
      'RParen',
      'Text',
      'LParen',
      'Text',
      'RParen',
    ]);
    expect(parseFilter('f(x) f (x)')).toMatchObject({
      expression: {
        type: 'sequence',
        operands: [
          { type: 'restriction', comparable: { type: 'call' } },
          { type: 'restriction', comparable: { type: 'member' } },
          { type: 'composite' },
        ],
      },
    });
    // `(` after `)` or an operator opens a composite even with no space.
    expect(
      lex('(a)(b) a=(b)')
        .tokens.filter((t) => t[1] === '(')
        .map((t) => t[0]),
    ).toEqual(['LParen', 'LParen', 'LParen']);
  });
});

describe('filter scanner: characters that start no token', () => {
  it('reports each run once, at its place, and lexes the rest', () => {
    expect(lex('a ! b')).toEqual({
      tokens: [
        ['Text', 'a', 0],
        ['Text', 'b', 4],
      ],
      errors: [[2, 1]],
    });
    expect(lex('!!=')).toEqual({ tokens: [['NotEquals', '!=', 1]], errors: [[0, 1]] });
    expect(lex('a!!!')).toEqual({ tokens: [['Text', 'a', 0]], errors: [[1, 3]] });
    expect(errorOf('a!!!')).toEqual([
      'unexpected_character',
      "unexpected character '!'",
      { start: 1, end: 4 },
    ]);
    expect(tokenize('a!!! b').unknown).toEqual([{ start: 1, end: 4 }]);
  });
});

describe('filter scanner: regex style', () => {
  it('reads patterns after an operator, balanced parentheses inside a parenthesized term', () => {
    expect(lex('(name eq a(b)c) (x ne y)', 'regex').tokens).toEqual([
      ['RegexLParen', '(', 0],
      ['RegexField', 'name', 1],
      ['RegexOperator', 'eq', 6],
      ['RegexUnquoted', 'a(b)c', 9],
      ['RegexRParen', ')', 14],
      ['RegexLParen', '(', 16],
      ['RegexField', 'x', 17],
      ['RegexOperator', 'ne', 19],
      ['RegexUnquoted', 'y', 22],
      ['RegexRParen', ')', 23],
    ]);
  });

  it('keeps an escaped trailing space and reads an unclosed quoted pattern to the end', () => {
    expect(lex('x.y ne  p\\  ', 'regex').tokens).toEqual([
      ['RegexField', 'x.y', 0],
      ['RegexOperator', 'ne', 4],
      ['RegexUnquoted', 'p\\ ', 8],
    ]);
    expect(lex('name eq "un\\"terminated', 'regex').tokens.at(-1)).toEqual([
      'RegexQuoted',
      '"un\\"terminated',
      8,
    ]);
    expect(errorOf('name eq "un\\"terminated')).toEqual([
      'unterminated_string',
      'unterminated string',
      { start: 8, end: 23 },
    ]);
  });

  it('reads AIP-160 syntax as its own tokens, so that the parser can name the mix', () => {
    expect(lex('name eq a AND b = c <= d !x ORDER', 'regex').tokens.map((t) => t[0])).toEqual([
      'RegexField',
      'RegexOperator',
      'RegexUnquoted',
      'RegexAipKeyword',
      'RegexField',
      'RegexAipComparator',
      'RegexField',
      'RegexAipComparator',
      'RegexField',
      'RegexOther',
      'RegexField',
    ]);
  });
});

describe('filter scanner: limits', () => {
  it('lexes long runs in linear time: a long word, string and error run are one token each', () => {
    const n = 200_000;
    expect(lex('a'.repeat(n)).tokens).toHaveLength(1);
    expect(lex(`"${'x'.repeat(n)}`).tokens).toEqual([
      ['UnterminatedString', `"${'x'.repeat(n)}`, 0],
    ]);
    expect(lex('!'.repeat(n)).errors).toEqual([[0, n]]);
    expect(lex(`name eq ${'(a)'.repeat(n / 3)}`, 'regex').tokens).toHaveLength(3);
  });
});
