import { describe, expect, it } from 'vitest';
import { re2jsEngine } from './re2js-engine.js';
import { RegexSyntaxError } from './regex-engine.js';

const fullMatch = (pattern: string, input: string) => re2jsEngine.compile(pattern).fullMatch(input);

describe('re2jsEngine', () => {
  it('is named re2js', () => {
    expect(re2jsEngine.name).toBe('re2js');
  });

  it('matches the whole input only', () => {
    expect(fullMatch('abc', 'abc')).toBe(true);
    expect(fullMatch('abc', 'xabc')).toBe(false);
    expect(fullMatch('abc', 'abcx')).toBe(false);
    expect(fullMatch('a|ab', 'ab')).toBe(true);
    expect(fullMatch('a|ab', 'a')).toBe(true);
    expect(fullMatch('', '')).toBe(true);
    expect(fullMatch('', 'a')).toBe(false);
  });

  it('accepts RE2 syntax', () => {
    expect(fullMatch('(?i)abc', 'aBC')).toBe(true);
    expect(fullMatch('\\pN+', '12\u0663')).toBe(true);
    expect(fullMatch('\\pN', 'x')).toBe(false);
    expect(fullMatch('[[:alpha:]]+', 'abc')).toBe(true);
    expect(fullMatch('[[:alpha:]]+', 'ab1')).toBe(false);
    expect(fullMatch('\\Qa.b\\E', 'a.b')).toBe(true);
    expect(fullMatch('\\Qa.b\\E', 'axb')).toBe(false);
  });

  it.each(['(?=a)a', '(?!a)b', '(?<=a)b', '(a)\\1', '(?>a)', 'a*+'])(
    'rejects %s (lookaround, backreference, possessive) with RegexSyntaxError',
    (pattern) => {
      expect(() => re2jsEngine.compile(pattern)).toThrow(RegexSyntaxError);
    },
  );

  it('rejects a pattern that would escape an anchoring group', () => {
    expect(() => re2jsEngine.compile('a)|(?:b')).toThrow(RegexSyntaxError);
  });

  it("reports the engine's reason", () => {
    expect(() => re2jsEngine.compile('(')).toThrow('missing closing ): `(`');
    try {
      re2jsEngine.compile('a{1001}');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RegexSyntaxError);
      expect((error as RegexSyntaxError).name).toBe('RegexSyntaxError');
      expect((error as RegexSyntaxError).message).toContain('invalid repeat count');
    }
  });

  it('matches code points, not UTF-16 units', () => {
    expect(fullMatch('.', '\u{1F600}')).toBe(true);
    expect(fullMatch('..', '\u{1F600}')).toBe(false);
    expect(fullMatch('\\x{1F600}', '\u{1F600}')).toBe(true);
  });

  it('has a no-op dispose', () => {
    const re = re2jsEngine.compile('a+');
    re.dispose();
    re.dispose();
  });
});
