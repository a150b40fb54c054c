import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { re2ProgramSizeLowerBound } from './program-size-bound.js';
import { re2jsEngine } from './re2js-engine.js';

/** re2js's program size, or undefined when it refuses the pattern. */
function compiledSize(pattern: string): number | undefined {
  try {
    return re2jsEngine.compile(pattern).programSize;
  } catch {
    return undefined;
  }
}

// Pieces that make valid and invalid RE2 alike: classes, counts at and over RE2's limits, nested
// counts, shared prefixes, stacked quantifiers, stray brackets, flags and escapes the bound does
// not read.
const PIECES = [
  'a',
  'b',
  'ab',
  '.',
  '\\.',
  '\\-',
  '\\d',
  '\\D',
  '\\s',
  '[a-c]',
  '[^a]',
  '[]a]',
  '[-a]',
  '[a-]',
  '[a-c-e]',
  '[\\d.]',
  '[\\n]',
  '[z-a]',
  '[[:alpha:]]',
  '\\n',
  '\\t',
  '^',
  '$',
  '\\b',
  '\\z',
  '(',
  ')',
  '(?:',
  '|',
  '*',
  '+',
  '?',
  '*?',
  '{2}',
  '{0}',
  '{1}',
  '{0,3}',
  '{2,}',
  '{0,}',
  '{3,5}',
  '{1000}',
  '{500}',
  '{1001}',
  '{2,1}',
  '{,3}',
  '{10}',
  '{11}',
  'é',
  '😀',
  '\\pL',
  '(?i)',
  '\\Q.\\E',
  '{',
  '}',
  ']',
  '-',
  '\\',
  '(a{100})',
  '(.{10}|.{9})',
];

describe('re2ProgramSizeLowerBound', () => {
  it('never exceeds the size re2js compiles to, and reads only patterns RE2 accepts', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }), (parts) => {
        const pattern = parts.join('');
        const bound = re2ProgramSizeLowerBound(pattern);
        if (bound === undefined) return;
        read++;
        const size = compiledSize(pattern);
        expect(size, pattern).toBeDefined();
        expect(bound, pattern).toBeLessThanOrEqual(size!);
      }),
      { numRuns: 5000 },
    );
    expect(read).toBeGreaterThan(500);
  });

  it.each([
    // re2js: 3 units per `.` (an instruction and two ranges); the bound counts 1.
    ['.{1000}|.{999}', 1998],
    ['a{2,5}', 5],
    ['a{3,}', 3],
    ['a{0}b', 1],
    ['(ab){3}', 6],
    // Branches sharing a prefix, or merging into one class.
    ['abc|abd', 3],
    ['a|b|c', 1],
    ['x(?:ab|ab)', 3],
    ['[^a]{100}', 0], // a negated class may be empty
    ['(?:a*)*', 1],
  ])('%s is at least %i', (pattern, bound) => {
    expect(re2ProgramSizeLowerBound(pattern)).toBe(bound);
    expect(compiledSize(pattern)).toBeGreaterThanOrEqual(bound);
  });

  it.each([
    '(?i)abc',
    '\\pL+',
    '\\x41',
    '\\Qa.b\\E',
    '[[:alpha:]]',
    'a{1001}',
    '(a{100}){11}',
    '((a{10}){0,}){200}',
    'a**',
    '*a',
    'a{,5}',
    '(a',
    'a)',
  ])('does not read %s', (pattern) => {
    expect(re2ProgramSizeLowerBound(pattern)).toBeUndefined();
  });
});
