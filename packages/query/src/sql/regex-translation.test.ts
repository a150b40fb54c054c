import { describe, expect, it } from 'vitest';
import { re2jsEngine } from '../filter/regex/re2js-engine.js';
import { MAX_PUSHDOWN_REGEX_SIZE, regexPushdownSize, translateRegex } from './regex-translation.js';

describe('regex push-down cost', () => {
  it.each([
    // Ordinary patterns: pushed down as before.
    ['fr-.*', 5],
    ['[a-z]+-[0-9]{1,3}', 6],
    ['(web|api)-.*', 9],
    ['web-prod-us-central1-[0-9]{4}', 25],
    ['[a-z]([-a-z0-9]*[a-z0-9])?', 5],
    ['\\d+|x', 3],
    ['^a$', 3],
    // Repetitions of what cannot match the empty string, nested or not.
    ['(a+)+', 3],
    ['(.*a){10}', 30],
    ['(a|b)?', 3],
    // `{n,m}` counts the larger bound; `{n,}` one more; `{0}` is still compiled.
    ['.{0,32}', 32],
    ['a{3}', 3],
    ['a{2,}', 3],
    ['x{0}', 1],
    ['(ab){16}', 32],
  ])('%s has expanded size %i and is pushed down', (pattern, size) => {
    expect(regexPushdownSize(pattern)).toBe(size);
    expect(translateRegex(pattern)).toBeDefined();
  });

  it.each([
    // A quantifier over something that matches the empty string.
    ['(.?){200}.{200}', undefined],
    ['(.?){100}', undefined],
    ['(a*)*b', undefined],
    ['(a*)*', undefined],
    ['(a?)+', undefined],
    ['(a|b?)+', undefined],
    ['(a?b?){2}', undefined],
    ['(^)*', undefined],
    // A counted repetition inside another repetition.
    ['(a{2})*', undefined],
    ['(a{2}){3}', undefined],
    ['(x(a{2}))+', undefined],
    // Too large.
    ['.*'.repeat(4000), 8000],
    ['.{0,33}', 33],
    ['(ab){17}', 34],
    ['a'.repeat(MAX_PUSHDOWN_REGEX_SIZE + 1), MAX_PUSHDOWN_REGEX_SIZE + 1],
    ['[a-z]{255}', 255],
  ])('%s is not pushed down (size %s)', (pattern, size) => {
    expect(regexPushdownSize(pattern)).toBe(size);
    expect(translateRegex(pattern)).toBeUndefined();
  });

  it('refuses only valid RE2 in these cases: the residual still has a pattern to run', () => {
    for (const pattern of ['(.?){200}.{200}', '(a*)*b', '(a{2})*', '.{0,33}', '.*'.repeat(4000)]) {
      expect(() => re2jsEngine.compile(pattern).dispose()).not.toThrow();
    }
  });

  it('keeps sizes exact however many counts multiply', () => {
    // Each count is refused before it multiplies a counted inner repetition; a long flat
    // pattern stays a plain sum.
    expect(regexPushdownSize('a{255}'.repeat(1000))).toBe(255_000);
    expect(translateRegex('a{255}'.repeat(1000))).toBeUndefined();
  });
});
