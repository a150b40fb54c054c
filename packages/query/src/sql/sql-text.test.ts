import { describe, expect, it } from 'vitest';
import { escapeStringConstant, inlineParameters } from './sql-text.js';

describe('escapeStringConstant', () => {
  it.each([
    ['plain', "E'plain'"],
    ["it's", "E'it''s'"],
    ['a\\b', "E'a\\\\b'"],
    ["\\'; DROP TABLE t; --", "E'\\\\''; DROP TABLE t; --'"],
    ['', "E''"],
    ['$1', "E'$1'"],
    ['ünï 😀', "E'ünï 😀'"],
  ])('%j → %s', (value, constant) => {
    expect(escapeStringConstant(value)).toBe(constant);
  });

  it('writes NULL for null and refuses U+0000, which would end the query message', () => {
    expect(escapeStringConstant(null)).toBe('NULL');
    expect(() => escapeStringConstant('a\u0000b')).toThrow(RangeError);
  });
});

describe('inlineParameters', () => {
  it('replaces each placeholder by its value and keeps the cast', () => {
    expect(inlineParameters('SELECT $1::text, $2::bigint, $1::text', ['a', '501'])).toBe(
      "SELECT E'a'::text, E'501'::bigint, E'a'::text",
    );
  });

  it('tells $1 from $10', () => {
    const params = Array.from({ length: 10 }, (_, i) => `v${i + 1}`);
    expect(inlineParameters('$1 $10', params)).toBe("E'v1' E'v10'");
  });

  it('leaves quoted identifiers and string constants alone, doubled quotes included', () => {
    expect(
      inlineParameters(
        `SELECT "a$1""$2" FROM t WHERE x->>'k$1''$2' = $1::text AND y LIKE $2::text ESCAPE '\\'`,
        ['one', 'two'],
      ),
    ).toBe(
      `SELECT "a$1""$2" FROM t WHERE x->>'k$1''$2' = E'one'::text AND y LIKE E'two'::text ESCAPE '\\'`,
    );
  });

  it('does not rescan what it wrote: a value that looks like a placeholder stays a value', () => {
    expect(inlineParameters('$1::text = $2::text', ['$2', "'"])).toBe("E'$2'::text = E''''::text");
  });

  it('throws on a placeholder without a parameter', () => {
    expect(() => inlineParameters('SELECT $2::text', ['a'])).toThrow(RangeError);
    expect(() => inlineParameters('SELECT $0::text', ['a'])).toThrow(RangeError);
  });
});
