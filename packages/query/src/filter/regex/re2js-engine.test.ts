import { describe, expect, it } from 'vitest';
import { re2jsEngine } from './re2js-engine.js';

// The RegexEngine contract is asserted for every engine in regex-engine.conformance.test.ts;
// this file holds what is particular to re2js.

describe('re2jsEngine', () => {
  it('is named re2js', () => {
    expect(re2jsEngine.name).toBe('re2js');
  });

  it("reports re2js's own wording", () => {
    expect(() => re2jsEngine.compile('(')).toThrow('missing closing ): `(`');
    expect(() => re2jsEngine.compile('a{1001}')).toThrow('invalid repeat count');
  });

  it('measures its program size, counting class ranges', () => {
    const literal = re2jsEngine.compile('a');
    const classes = re2jsEngine.compile('[a-cx-z0-2]');
    expect(literal.programSize).toBeGreaterThan(0);
    expect(classes.programSize).toBeGreaterThan(literal.programSize ?? 0);
  });

  it('holds no native memory: a disposed regex still matches', () => {
    const re = re2jsEngine.compile('a+');
    re.dispose();
    expect(re.fullMatch('aa')).toBe(true);
    expect(re.fullMatch('b')).toBe(false);
  });
});
