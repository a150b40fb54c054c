import { describe, expect, it, vi } from 'vitest';
import { ListkitError } from '../errors.js';
import type { ArgNode, ComparableNode, ExpressionNode, FilterAst, Segment } from './ast.js';
import { filterLexer } from './lexer.js';
import { filterGrammarErrors, parseFilter } from './parser.js';

/** A compact rendering of a tree, so the tables below stay readable. */
function sexpr(ast: FilterAst): string {
  if (ast.style === 'empty') return '()';
  if (ast.style === 'regex') {
    return ast.terms
      .map((t) => {
        const q = t.pattern.quote ?? '';
        const term = `(${t.operator} ${t.field.segments.map((s) => s.value).join('.')} ${q}${t.pattern.value}${q})`;
        return t.parenthesized ? `[${term}]` : term;
      })
      .join(' ');
  }
  return expr(ast.expression);
}
function expr(n: ExpressionNode): string {
  switch (n.type) {
    case 'and':
      return `(AND ${n.operands.map(expr).join(' ')})`;
    case 'sequence':
      return `(SEQ ${n.operands.map(expr).join(' ')})`;
    case 'or':
      return `(OR ${n.operands.map(expr).join(' ')})`;
    case 'not':
      return `(${n.syntax} ${expr(n.operand)})`;
    case 'composite':
      return `(PAREN ${expr(n.expression)})`;
    case 'restriction':
      return n.comparator && n.arg
        ? `(${n.comparator} ${comparable(n.comparable)} ${arg(n.arg)})`
        : comparable(n.comparable);
  }
}
function arg(n: ArgNode): string {
  return n.type === 'composite' ? `(PAREN ${expr(n.expression)})` : comparable(n);
}
function comparable(n: ComparableNode): string {
  if (n.type === 'member') return n.segments.map(segment).join('.');
  return `(CALL ${n.name.map(segment).join('.')}${n.args.map((a) => ` ${arg(a)}`).join('')})`;
}
function segment(s: Segment): string {
  switch (s.kind) {
    case 'string':
      return JSON.stringify(s.value);
    case 'number':
      return `#${s.value}`;
    case 'duration':
      return `~${s.value}`;
    case 'timestamp':
      return `@${s.value}`;
    default:
      return s.value;
  }
}

function parseError(filter: string) {
  try {
    parseFilter(filter);
  } catch (e) {
    if (e instanceof ListkitError) return e;
    throw e;
  }
  throw new Error(`expected ${filter} to fail`);
}

describe('AIP-160 grammar', () => {
  it.each([
    // precedence: AND loosest, then juxtaposition, then OR
    ['a AND b', '(AND a b)'],
    ['a b', '(SEQ a b)'],
    ['a OR b', '(OR a b)'],
    ['a AND b OR c', '(AND a (OR b c))'],
    ['a OR b AND c', '(AND (OR a b) c)'],
    ['a b OR c', '(SEQ a (OR b c))'],
    ['a b AND c d', '(AND (SEQ a b) (SEQ c d))'],
    ['New York Giants OR Yankees', '(SEQ New York (OR Giants Yankees))'],
    // negation
    ['NOT a', '(NOT a)'],
    ['-a', '(- a)'],
    ['NOT (a OR b)', '(NOT (PAREN (OR a b)))'],
    ['-file:".java"', '(- (: file ".java"))'],
    ['NOT a = 1', '(NOT (= a #1))'],
    // restrictions and comparators, whitespace around comparators insignificant
    ['a = 1', '(= a #1)'],
    ['a=1', '(= a #1)'],
    ['a   >=   1', '(>= a #1)'],
    ['a != 1', '(!= a #1)'],
    ['a < 1', '(< a #1)'],
    ['a <= 1', '(<= a #1)'],
    ['a > 1', '(> a #1)'],
    ['a:b', '(: a b)'],
    ['labels.owner:*', '(: labels.owner *)'],
    ['package=com.google', '(= package com.google)'],
    ["msg != 'hello'", '(!= msg "hello")'],
    ['1 > 0', '(> #1 #0)'],
    ['yesterday < request.time', '(< yesterday request.time)'],
    // composites; whitespace inside parentheses is insignificant
    ['(a)', '(PAREN a)'],
    ['(a )', '(PAREN a)'],
    ['( a OR b )', '(PAREN (OR a b))'],
    ['(a) (b)', '(SEQ (PAREN a) (PAREN b))'],
    ['(a)(b)', '(SEQ (PAREN a) (PAREN b))'],
    [
      '(scheduling.automaticRestart = true) (cpuPlatform = "Intel Skylake")',
      '(SEQ (PAREN (= scheduling.automaticRestart true)) (PAREN (= cpuPlatform "Intel Skylake")))',
    ],
    // members and functions
    ['a.b.c = "foo"', '(= a.b.c "foo")'],
    ['expr.type_map.1.type', 'expr.type_map.#1.type'],
    ['f(x, y)', '(CALL f x y)'],
    ['f()', '(CALL f)'],
    ['a.b.f()', '(CALL a.b.f)'],
    ["regex(m.key, '^.*prod.*$')", '(CALL regex m.key "^.*prod.*$")'],
    ["math.mem('30mb')", '(CALL math.mem "30mb")'],
    [
      'experiment.rollout <= cohort(request.user)',
      '(<= experiment.rollout (CALL cohort request.user))',
    ],
    [
      "(msg.endsWith('world') AND retries < 10)",
      '(PAREN (AND (CALL msg.endsWith "world") (< retries #10)))',
    ],
    ['f (x)', '(SEQ f (PAREN x))'],
    // keywords are case-sensitive and fall back to text
    ['ANDROID', 'ANDROID'],
    ['NOTa', 'NOTa'],
    ['and', 'and'],
    ['a.AND', 'a.AND'],
    ['a.NOT.OR = 1', '(= a.NOT.OR #1)'],
    ['ORDER OR x', '(OR ORDER x)'],
    // hyphenated bare values
    ['name != example-instance', '(!= name example-instance)'],
    ['zone = us-central1-a', '(= zone us-central1-a)'],
    ['a-', 'a-'],
    // literals
    ['a = 2.997e9', '(= a #2.997e9)'],
    ['a = 1E-3', '(= a #1E-3)'],
    ['a = -3', '(= a #-3)'],
    ['a = -2.5', '(= a #-2.5)'],
    ['d > 20s', '(> d ~20s)'],
    ['d > 1.5s', '(> d ~1.5s)'],
    ['d > -1.5s', '(> d ~-1.5s)'],
    ['d = 20sec', '(= d 20sec)'],
    ['a = 123abc', '(= a 123abc)'],
    ['t > 2012-04-21T11:30:00-04:00', '(> t @2012-04-21T11:30:00-04:00)'],
    ['t > 2012-04-21T11:30:00.123456789Z', '(> t @2012-04-21T11:30:00.123456789Z)'],
    ['t > 2012-04-21', '(> t 2012-04-21)'],
    ['a = *.foo', '(= a *.foo)'],
    ['a = "*.foo"', '(= a "*.foo")'],
    // the pinned ambiguities
    ['-30', '#-30'],
    ['-2.5 >= -2.4', '(>= #-2.5 #-2.4)'],
    ['-(42)', '(- (PAREN #42))'],
    ['--5', '(- #-5)'],
    ['NOT(a)', '(CALL NOT a)'],
    ['AND(a, b)', '(CALL AND a b)'],
    ['x OR(y)', '(SEQ x (CALL OR y))'],
    ['e.0.foo = 42', '(= e.#0.foo #42)'],
    ['a = (b OR c)', '(= a (PAREN (OR b c)))'],
  ])('%s', (filter, tree) => {
    expect(sexpr(parseFilter(filter))).toBe(tree);
  });
});

describe('bare words beyond Latin-1', () => {
  it('start with any BMP character that is not a blank or a surrogate', () => {
    const refused: string[] = [];
    for (let code = 0x100; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      if (/\s/.test(char)) continue;
      try {
        parseFilter(`a = ${char}`);
      } catch {
        refused.push(code.toString(16));
      }
    }
    // Before, one Chevrotain block in 255 was missing from the lexer's start hints (U+FE01–FEFF…).
    expect(refused).toEqual([]);
    expect(parseFilter('mood = \uFE0F').style).toBe('aip-160');
  });
});

describe('string literals', () => {
  it.each([
    [String.raw`a = "x\ny"`, 'x\ny'],
    [String.raw`a = 'x\ty'`, 'x\ty'],
    [String.raw`a = "q\"q"`, 'q"q'],
    [String.raw`a = 'q\'q'`, "q'q"],
    [String.raw`a = "b\\s"`, 'b\\s'],
    [String.raw`a = "\x41\X42"`, 'AB'],
    [String.raw`a = "\u00e9"`, 'é'],
    [String.raw`a = "\U0001F600"`, '😀'],
    [String.raw`a = "\101\060"`, 'A0'],
    [String.raw`a = "\a\b\f\r\v\?\`"`, '\x07\b\f\r\v?`'],
    [`a = "two words"`, 'two words'],
    [`a = ""`, ''],
  ])('%s', (filter, value) => {
    const ast = parseFilter(filter);
    if (ast.style !== 'aip-160' || ast.expression.type !== 'restriction') throw new Error('shape');
    const arg = ast.expression.arg;
    if (arg?.type !== 'member') throw new Error('shape');
    expect(arg.segments[0]!.value).toBe(value);
  });

  it('keeps escaped stars as literal stars', () => {
    const ast = parseFilter(String.raw`a = "x\**"`);
    if (ast.style !== 'aip-160' || ast.expression.type !== 'restriction') throw new Error('shape');
    const arg = ast.expression.arg;
    if (arg?.type !== 'member') throw new Error('shape');
    expect(arg.segments[0]).toMatchObject({ value: 'x**', literalStars: [1] });
  });
});

describe('regex style', () => {
  it.each([
    ['name eq abc.*', '(eq name abc.*)'],
    ['name ne .*instance', '(ne name .*instance)'],
    ["name eq 'single quoted'", "(eq name 'single quoted')"],
    ['name eq "double quoted"', '(eq name "double quoted")'],
    ['(name eq x)', '[(eq name x)]'],
    ['(f1 eq lit) (f2 ne "lit")', '[(eq f1 lit)] [(ne f2 "lit")]'],
    ['(a eq "x")(b eq "y")', '[(eq a "x")] [(eq b "y")]'],
    [
      '(scheduling.automaticRestart eq true) (zone eq us-central1-f)',
      '[(eq scheduling.automaticRestart true)] [(eq zone us-central1-f)]',
    ],
    ['(name eq (a|b)-c)', '[(eq name (a|b)-c)]'],
    ['(name eq two words )', '[(eq name two words)]'],
    ['name eq (a|b)', '(eq name (a|b))'],
    [String.raw`name eq "a\"b"`, String.raw`(eq name "a\"b")`],
    [String.raw`name eq "a\d+"`, String.raw`(eq name "a\d+")`],
    [String.raw`(name eq a\)b)`, String.raw`[(eq name a\)b)]`],
    ['name eq ""', '(eq name "")'],
    ['  name eq x  ', '(eq name x)'],
    ['name eq .*(^fr-).*', '(eq name .*(^fr-).*)'],
    ['( name eq x )', '[(eq name x)]'],
  ])('%s', (filter, tree) => {
    const ast = parseFilter(filter);
    expect(ast.style).toBe('regex');
    expect(sexpr(ast)).toBe(tree);
  });
});

describe('empty filters', () => {
  it.each([[''], ['   '], ['\t\n']])('%j matches everything', (filter) => {
    expect(parseFilter(filter).style).toBe('empty');
  });
});

describe('errors', () => {
  it.each([
    // [filter, code, span start, span end]
    ['a = "open', 'unterminated_string', 4, 9],
    ["name eq 'open", 'unterminated_string', 8, 13],
    ['a = "\\q"', 'invalid_escape', 5, 7],
    ['a = "\\x4"', 'invalid_escape', 5, 8],
    ['a = "\\uD800"', 'invalid_escape', 5, 11],
    ['a = ,', 'unexpected_token', 4, 5],
    ['a ! b', 'unexpected_character', 2, 3],
    ['(a', 'unexpected_end', 2, 2],
    ['a)', 'unexpected_token', 1, 2],
    ['a AND', 'unexpected_end', 5, 5],
    ['a =', 'unexpected_end', 3, 3],
    ['AND', 'unexpected_token', 0, 3],
    ['a OR OR b', 'unexpected_token', 5, 7],
    ['NOT"a"', 'missing_whitespace', 0, 3],
    ['- a', 'unexpected_token', 0, 1],
    ['a"b"', 'missing_whitespace', 1, 4],
    ['a . b', 'unexpected_token', 2, 3],
    ['a.', 'unexpected_end', 2, 2],
    ['"f"(x)', 'unexpected_token', 0, 3],
    ['NOT NOT a', 'unexpected_token', 4, 7],
    ['x = 1 name eq foo', 'mixed_filter_styles', 6, 17],
    ['(x = 1) (name ne foo)', 'mixed_filter_styles', 9, 20],
    ['(name eq x) (b = 1)', 'mixed_filter_styles', 13, 16],
    ['(name eq x) AND (b eq y)', 'mixed_filter_styles', 12, 15],
    ['name eq x AND b eq y', 'mixed_filter_styles', 10, 13],
    ['name eq x (b eq y)', 'unexpected_token', 10, 11],
    ['(name eq x', 'unexpected_end', 10, 10],
    ['name eq', 'unexpected_end', 7, 7],
    ['(name eq )', 'unexpected_token', 9, 10],
    ['(name eq x) foo', 'unexpected_token', 12, 15],
    ['(tags.items[0] eq foo)', 'unexpected_token', 11, 14],
  ])('%s → %s', (filter, code, start, end) => {
    const error = parseError(filter);
    expect({ code: error.code, start: error.span.start, end: error.span.end }).toEqual({
      code,
      start,
      end,
    });
    expect(error.message.length).toBeGreaterThan(5);
  });

  it('formats a caret under the problem', () => {
    const error = parseError('name = "unterminated');
    expect(error.format()).toBe(
      'name = "unterminated\n       ^~~~~~~~~~~~~ unterminated string (1:8)',
    );
    expect([error.line, error.column]).toEqual([1, 8]);
  });

  it('counts columns in code points', () => {
    const error = parseError('😀 = "x" )');
    expect(error.column).toBe(9);
  });
});

describe('limits', () => {
  it('rejects long filters before lexing them', () => {
    const lex = vi.spyOn(filterLexer, 'tokenize');
    try {
      const error = parseError('a'.repeat(1_000_000));
      expect(error.code).toBe('too_long');
      expect(lex).not.toHaveBeenCalled();
      parseFilter('a'); // the spy sees the lexer when it does run
      expect(lex).toHaveBeenCalledTimes(1);
    } finally {
      lex.mockRestore();
    }
  });

  it('rejects deep nesting', () => {
    expect(parseError(`${'('.repeat(33)}a${')'.repeat(33)}`).code).toBe('too_deep');
    expect(parseFilter(`${'('.repeat(32)}a${')'.repeat(32)}`).style).toBe('aip-160');
    expect(parseError(`${'f('.repeat(40)}a${')'.repeat(40)}`).code).toBe('too_deep');
  });

  it('survives nesting far beyond the limit without a stack overflow', () => {
    const deep = `${'('.repeat(100_000)}a${')'.repeat(100_000)}`;
    expect(parseError(deep).code).toBe('too_long');
    expect(() => parseFilter(deep, { limits: { maxLength: 300_000 } })).toThrow(/deeper than 32/);
  });

  it('rejects too many terms', () => {
    const many = Array.from({ length: 257 }, (_, i) => `a${i} = ${i}`).join(' AND ');
    expect(parseError(many).code).toBe('too_many_terms');
    expect(parseFilter(many, { limits: { maxTerms: 300 } }).style).toBe('aip-160');
  });
});

describe('the grammar', () => {
  it("passes Chevrotain's validations, which parsing skips for a shorter start-up", () => {
    expect(filterGrammarErrors()).toEqual([]);
  });
});
