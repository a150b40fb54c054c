// Regex push-down: every RE2 pattern the planner translates must full-match exactly the same
// strings in PostgreSQL as in RE2 (re2js), on PGlite and on the configured server.
import { re2jsEngine } from '@listkit/query';
import { regexLiteralFragments, regexLiteralPrefix, translateRegex } from '@listkit/query/sql';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openPglite,
  openPostgres,
  postgresSkipReason,
  type TestDatabase,
} from '../support/sql-databases.js';

const LITERALS = [
  'a',
  'b',
  'Z',
  '1',
  '-',
  '_',
  '%',
  ' ',
  'é',
  '😀',
  '\\.',
  '\\*',
  '\\\\',
  '\\-',
  '\\n',
  '\\t',
];
const atomArb: fc.Arbitrary<string> = fc.letrec<{ re: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...LITERALS),
    fc.constantFrom('.', '\\d', '\\w', '\\s', '\\D', '\\W', '\\S', '^', '$'),
    fc.constantFrom(
      '[a-c]',
      '[^a]',
      '[\\d_]',
      '[%\\-]',
      '[a-]',
      '[\\s.]',
      '[é-ê]',
      '[^\\n]',
      '[Z-a]',
    ),
    tie('re').map((r) => `(${r})`),
    tie('re').map((r) => `(?:${r})`),
  ),
  re: fc
    .array(
      fc.tuple(
        tie('atom'),
        fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '{0,1}'),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .chain((parts) =>
      fc.oneof(
        fc.constant(parts.map(([a, q]) => `${a}${q}`).join('')),
        fc.constant(parts.map(([a, q]) => `${a}${q}`).join('|')),
      ),
    ),
})).re;

// Also patterns outside the subset: they must be refused, never mistranslated.
const OUTSIDE = [
  '(?i)a',
  'a\\b',
  '\\pL',
  '\\Qa.b\\E',
  'a*?',
  '[[:alpha:]]',
  'a{300}',
  '\\x41',
  '\\z',
  '(?P<n>a)',
  '(?s).',
  '',
  'a|',
  '[]a]',
];

const inputArb = fc.string({
  unit: fc.constantFrom(
    'a',
    'b',
    'Z',
    '1',
    '9',
    '-',
    '_',
    '%',
    ' ',
    '\n',
    '\t',
    '\v',
    'é',
    '😀',
    '.',
    '*',
    '\\',
  ),
  maxLength: 6,
});

function regexParity(open: () => Promise<TestDatabase>) {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await open();
  }, 60_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(() => db?.close());

  it('a translated pattern full-matches exactly what RE2 full-matches', async () => {
    // About 40% of these patterns translate: a quantifier over a group that can match the empty
    // string, or a count inside another repetition, stays in the residual (unbounded cost).
    const runs = Number(process.env.LISTKIT_SQL_RUNS ?? 600);
    let translated = 0;
    await fc.assert(
      fc.asyncProperty(
        atomArb,
        fc.array(inputArb, { minLength: 1, maxLength: 12 }),
        async (pattern, inputs) => {
          let re: ReturnType<typeof re2jsEngine.compile>;
          try {
            re = re2jsEngine.compile(pattern);
          } catch {
            return; // not valid RE2: compileFilter rejects it before planning
          }
          const sql = translateRegex(pattern);
          if (sql === undefined) return;
          translated++;
          const rows = await db.query(
            `SELECT s, s COLLATE "C" ~ $1::text AS m FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY AS t(s, i) ORDER BY i`,
            [sql, JSON.stringify(inputs)],
          );
          expect(rows.map((r) => r.m)).toEqual(inputs.map((s) => re.fullMatch(s)));
        },
      ),
      { numRuns: runs },
    );
    expect(translated).toBeGreaterThan(runs / 6);
  }, 300_000);
}

describe('regex translation', () => {
  it('refuses patterns whose meaning differs in PostgreSQL', () => {
    for (const pattern of OUTSIDE) expect(translateRegex(pattern), pattern).toBeUndefined();
  });

  it('re-emits literals as escapes, so no PostgreSQL metacharacter passes through', () => {
    expect(translateRegex('web-[0-9]+')).toBe('^(?:web\\u002d(?:[0-9])+)$');
    expect(translateRegex('a.b')).toBe('^(?:a[^\\n]b)$');
  });

  it.each([
    ['web-.*', 'web-'],
    ['web-(?i)x', 'web'], // `(?i)?` could follow: the last literal before flags is left out
    ['ab?c', 'a'],
    ['a\\.b+', 'a.'],
    ['web-\\pL{3}', 'web'], // read up to `\pL`, the last literal before the cut left out
    ['a|b', ''],
    ['(?i)abc', ''],
    ['\\d+', ''],
  ])('the literal prefix of %s is %j', (pattern, prefix) => {
    expect(regexLiteralPrefix(pattern)).toBe(prefix);
  });

  it.each([
    ['.*web\\b.*-prod(?i).*', ['web', '-pro']],
    ['a(?i)?b', []],
    ['x.*ab{2,3}c.*', ['x', 'a', 'c']],
    ['.*(ab)?cd[ef]gh.*', ['cd', 'gh']],
    ['.*a\\.b+\\pL', ['a.']], // read up to the escape the reader does not read
    ['\\x41bc', []],
    ['ab|cd', []],
    ['(?i)abc', []],
    ['[]ab]cd', ['cd']],
  ])('the literal runs of %s are %j', (pattern, runs) => {
    expect(regexLiteralFragments(pattern)).toEqual(runs);
  });
});

// Prefix and runs must hold in every full match, or the push-down would drop matching rows.
const wildAtom = fc.constantFrom(
  'a',
  'b',
  '-',
  '%',
  '_',
  '\\.',
  '\\b',
  '\\B',
  '(?i)',
  '(?i:a)',
  '(?s)',
  '.',
  '.*',
  '[ab]',
  '[^a]',
  '{2}',
  '{1,2}',
  '*',
  '+',
  '?',
  '*?',
  '(a|b)',
  '(?:ab)?',
  '\\pL',
  '\\x61',
  '\\d',
  '^',
  '$',
  '\\Qa.\\E',
);
const wildPatternArb = fc
  .array(wildAtom, { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''));
const wildInputArb = fc.string({
  unit: fc.constantFrom('a', 'b', 'A', '-', '%', '_', '.', ' ', '\n', '1'),
  maxLength: 7,
});

it('the literal prefix and runs hold in every string RE2 full-matches', () => {
  let checked = 0;
  fc.assert(
    fc.property(wildPatternArb, fc.array(wildInputArb, { maxLength: 20 }), (pattern, inputs) => {
      let re: ReturnType<typeof re2jsEngine.compile>;
      try {
        re = re2jsEngine.compile(pattern);
      } catch {
        return;
      }
      const prefix = regexLiteralPrefix(pattern);
      const runs = regexLiteralFragments(pattern);
      for (const input of inputs) {
        if (!re.fullMatch(input)) continue;
        checked++;
        expect(input.startsWith(prefix), `${pattern} ${JSON.stringify(input)}`).toBe(true);
        for (const run of runs)
          expect(input.includes(run), `${pattern} ${JSON.stringify(input)}`).toBe(true);
      }
    }),
    { numRuns: Number(process.env.LISTKIT_SQL_RUNS ?? 2000) },
  );
  expect(checked).toBeGreaterThan(100);
});

describe('regex translation on PGlite', () => {
  regexParity(openPglite);
});

const skip = postgresSkipReason();
describe.skipIf(skip !== undefined)(
  `regex translation on a PostgreSQL server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    regexParity(openPostgres);
  },
);
