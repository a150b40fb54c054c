import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { literalPatternTester } from './literal-pattern.js';
import { re2jsEngine } from './re2js-engine.js';

describe('the literal fast path', () => {
  it.each([
    ['web-1', true],
    ['a\\.b', true],
    ['.*-prod', true],
    ['web-.*', true],
    ['.*mid.*', true],
    ['.*', true],
    ['', true],
    ['web-[0-9]+', false],
    ['a|b', false],
    ['(?i)abc', false],
    ['a\\d', false],
    ['a\\.*', false],
    ['^abc$', false],
  ])('%j takes the fast path: %s', (pattern, fast) => {
    expect(literalPatternTester(pattern) !== undefined).toBe(fast);
  });

  it('agrees with RE2 on every input', () => {
    const piece = fc.constantFrom('a', 'b', '-', '.', '\\.', '\\-', '\\*', '😀', ' ', '/');
    const pattern = fc
      .tuple(fc.boolean(), fc.array(piece, { maxLength: 4 }), fc.boolean())
      .map(([lead, body, trail]) => `${lead ? '.*' : ''}${body.join('')}${trail ? '.*' : ''}`);
    const input = fc
      .array(fc.constantFrom('a', 'b', '-', '.', '*', '😀', '\n', ' ', '/'), { maxLength: 8 })
      .map((c) => c.join(''));
    fc.assert(
      fc.property(pattern, fc.array(input, { minLength: 1, maxLength: 10 }), (p, inputs) => {
        const fast = literalPatternTester(p);
        if (!fast) return;
        const engine = re2jsEngine.compile(p);
        for (const s of inputs)
          expect(fast(s), `${JSON.stringify(p)} on ${JSON.stringify(s)}`).toBe(engine.fullMatch(s));
      }),
      { numRuns: 500 },
    );
  });
});
