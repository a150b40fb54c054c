import { describe, expect, it } from 'vitest';
import { indentJson } from './pretty-print.js';

describe('indentJson writes JSON as Google indents it', () => {
  it('indents by two spaces, ": " after names, {} and [] kept empty, a final newline', () => {
    const value = { kind: 'k', items: [{ name: 'a', labels: {} }, 2], tags: [], n: null };
    const text = JSON.stringify(value);
    expect(indentJson(text)).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it('keeps every value: escapes and separators inside strings', () => {
    const text = '{"a":"x,{}[]:\\"\\\\\\u2028"}';
    expect(indentJson(text)).toBe('{\n  "a": "x,{}[]:\\"\\\\\u2028"\n}\n');
  });

  it('returns text that is not JSON unchanged', () => {
    for (const text of ['{"a":', '"open', '}', 'plain', '"a string"', '12']) {
      expect(indentJson(text)).toBe(text);
    }
  });
});
