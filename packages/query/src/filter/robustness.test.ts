import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { compileFilter, defineSchema, ListkitError, re2jsEngine, t } from '../index.js';
import { filterLexer } from './lexer.js';
import { parseFilter } from './parser.js';

// Whatever the input, the filter API either succeeds or throws a ListkitError that points
// inside the input: never a TypeError, a RangeError or a Chevrotain exception.

/** Asserts that `error` is a well-formed ListkitError about `input`. */
function expectListkitError(input: string, error: unknown): asserts error is ListkitError {
  if (!(error instanceof ListkitError)) {
    const shown = JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);
    throw new Error(`${shown} threw ${String(error)} instead of a ListkitError`, { cause: error });
  }
  expect(error.code).toMatch(/^[a-z_]+$/);
  expect(error.message.length).toBeGreaterThan(0);
  expect(error.source).toBe(input);
  const lines = input.split('\n');
  for (const p of [error, ...error.problems]) {
    expect(p.span.start).toBeGreaterThanOrEqual(0);
    expect(p.span.end).toBeGreaterThanOrEqual(p.span.start);
    expect(p.span.end).toBeLessThanOrEqual(input.length);
    expect(p.line).toBeGreaterThanOrEqual(1);
    expect(p.line).toBeLessThanOrEqual(lines.length);
    expect(p.column).toBeGreaterThanOrEqual(1);
    expect(p.column).toBeLessThanOrEqual([...lines[p.line - 1]!].length + 1);
  }
  expect(typeof error.format()).toBe('string');
}

/** Parses `input`; an error must be a ListkitError. Returns the error, if any. */
function parseOrListkitError(
  input: string,
  options?: Parameters<typeof parseFilter>[1],
): ListkitError | undefined {
  try {
    parseFilter(input, options);
    return undefined;
  } catch (error) {
    expectListkitError(input, error);
    return error;
  }
}

/** One character: mostly ASCII (controls included), sometimes any code point or surrogate half. */
const oneChar = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }) },
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

const TOKENS = [
  '(',
  ')',
  'AND',
  'OR',
  'NOT',
  '-',
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  ':',
  '.',
  ',',
  '"',
  "'",
  '\\',
  '*',
  'eq',
  'ne',
  'a',
  'b',
  '1',
  '2.5',
  '20s',
  // a few longer pieces, so that more inputs get past the lexer
  '"x"',
  "'y z'",
  '\\*',
  '\\x4',
  '\\u00e9',
  '2012-04-21T11:30:00Z',
  'f(',
];
const SEPARATORS = ['', '', ' ', ' ', '  ', '\t', '\n'];

function tokenSoup(tokens: readonly string[], maxLength = 25): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(fc.constantFrom(...tokens), fc.constantFrom(...SEPARATORS)), { maxLength })
    .map((parts) => parts.map(([token, sep]) => token + sep).join(''));
}

describe('parseFilter on arbitrary input', () => {
  it('throws only ListkitError for arbitrary unicode strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 60 }),
          fc.string({ unit: 'grapheme', maxLength: 60 }),
          fc.string({ unit: oneChar, maxLength: 60 }),
        ),
        (input) => {
          parseOrListkitError(input);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('throws only ListkitError for random sequences of filter tokens', () => {
    fc.assert(
      fc.property(tokenSoup(TOKENS), (input) => {
        parseOrListkitError(input);
      }),
      { numRuns: 4000 },
    );
  });

  it('throws ListkitError for a non-string filter', () => {
    for (const value of [null, undefined, 42, {}, ['a']]) {
      let caught: unknown;
      try {
        parseFilter(value as unknown as string);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ListkitError);
      expect((caught as ListkitError).code).toBe('invalid_value');
    }
  });
});

const VALID_FILTERS = [
  // AIP-160
  'a = 1',
  'a=1   AND (b:"x")',
  'labels.env = "prod" AND NOT name:web-*',
  'New York Giants OR Yankees',
  'a b AND c d',
  'NOT (a OR b)',
  '-file:".java"',
  'a < 10 OR a >= 100',
  'package=com.google',
  "msg != 'hello'",
  '-2.5 >= -2.4',
  'yesterday < request.time',
  'experiment.rollout <= cohort(request.user)',
  "regex(m.key, '^.*prod.*$')",
  "(msg.endsWith('world') AND retries < 10)",
  'expr.type_map.1.type',
  't > 2012-04-21T11:30:00-04:00 AND d < 1.5s',
  String.raw`a = "x\**\n\u00e9\101"`,
  String.raw`name:web\*`,
  'x OR(y) AND(a, b)',
  'a.NOT.OR = 1 ANDROID',
  '(a)(b) --5',
  // regex style
  'name eq abc.*',
  'name ne .*instance',
  "name eq 'single quoted'",
  '(f1 eq lit) (f2 ne "lit")',
  '(a eq "x")(b eq "y")',
  '(scheduling.automaticRestart eq true) (zone eq us-central1-f)',
  '(name eq (a|b)-c)',
  String.raw`name eq "a\"b\d+"`,
  '( name eq two words )',
];

type Edit = { kind: 'insert' | 'delete' | 'replace'; at: number; char: string };

const editChar = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...'()-=!<>:.,"\'\\* \n\tANDOReqn01s') },
  oneChar,
);
const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('insert', 'delete', 'replace'),
  at: fc.nat(),
  char: editChar,
});

function applyEdits(source: string, edits: Edit[]): string {
  let text = source;
  for (const { kind, at, char } of edits) {
    const i = at % (text.length + 1);
    if (kind === 'insert') text = text.slice(0, i) + char + text.slice(i);
    else if (kind === 'delete') text = text.slice(0, i) + text.slice(i + 1);
    else text = text.slice(0, i) + char + text.slice(i + 1);
  }
  return text;
}

describe('parseFilter on mutated valid filters', () => {
  it.each(VALID_FILTERS)('%s is valid', (filter) => {
    expect(() => parseFilter(filter)).not.toThrow();
  });

  it('throws only ListkitError after single-character edits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALID_FILTERS),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (filter, edits) => {
          parseOrListkitError(applyEdits(filter, edits));
        },
      ),
      { numRuns: 4000 },
    );
  });
});

describe('parseFilter on hostile input', () => {
  /** Raises only the length limit, so that the parser itself meets the nesting. */
  const LONG = { limits: { maxLength: 10_000_000 } };

  const cases: [name: string, input: string, code: string, longCode?: string][] = [
    [
      '10,000 nested parentheses',
      `${'('.repeat(10_000)}a${')'.repeat(10_000)}`,
      'too_long',
      'too_deep',
    ],
    ['10,000 NOTs', `${'NOT '.repeat(10_000)}a`, 'too_long', 'unexpected_token'],
    ['10,000 minus signs', `${'-'.repeat(10_000)}a`, 'too_long', 'unexpected_token'],
    ['5,000 nested calls', `${'f('.repeat(5_000)}a${')'.repeat(5_000)}`, 'too_long', 'too_deep'],
    ['1 MB of text', 'a'.repeat(1 << 20), 'too_long'],
    ['1 MB of open parentheses', '('.repeat(1 << 20), 'too_long'],
    ['1 MB of quotes', '"'.repeat(1 << 20), 'too_long'],
    ['1 MB unterminated string', `a = "${'\\"'.repeat(1 << 19)}`, 'too_long'],
    ['1 MB of words', 'a '.repeat(1 << 19), 'too_long'],
    ['1 MB regex pattern', `name eq "${'.*'.repeat(1 << 19)}"`, 'too_long'],
  ];

  it.each(cases)('%s fails with a ListkitError before lexing', (_name, input, code, longCode) => {
    const lex = vi.spyOn(filterLexer, 'tokenize');
    try {
      const error = parseOrListkitError(input);
      expect(error?.code).toBe(code);
      expect(lex).not.toHaveBeenCalled(); // refused on its length alone
    } finally {
      lex.mockRestore();
    }
    if (longCode === undefined) return;

    // With the length limit lifted the same input reaches the parser's own guards.
    const deep = parseOrListkitError(input, LONG);
    expect(deep?.code).toBe(longCode);
  });

  it.each([
    {
      name: '4,000 nested parentheses',
      input: `${'('.repeat(4_000)}a${')'.repeat(4_000)}`,
      code: 'too_deep',
    },
    {
      name: '2,700 nested calls',
      input: `${'f('.repeat(2_700)}a${')'.repeat(2_700)}`,
      code: 'too_deep',
    },
    { name: '8,000 open parentheses', input: '('.repeat(8_000), code: 'too_deep' },
    { name: '2,000 NOTs', input: `${'NOT '.repeat(2_000)}a`, code: 'unexpected_token' },
    { name: '8,000 minus signs', input: `${'-'.repeat(8_000)}a`, code: 'unexpected_token' },
    { name: '4,000 words', input: 'a '.repeat(4_000), code: 'too_many_terms' },
    { name: '1,360 ANDs', input: 'a AND '.repeat(1_360), code: 'too_many_terms' },
    { name: '1,000 regex-style terms', input: '(a eq x)'.repeat(1_000), code: 'too_many_terms' },
    { name: '4,000 quotes', input: '"'.repeat(8_000), code: 'missing_whitespace' },
    {
      name: 'an 8,000-character unterminated string',
      input: `a = "${'\\"'.repeat(3_990)}`,
      code: 'unterminated_string',
    },
    {
      name: 'an unclosed regex group',
      input: `(name eq ${'('.repeat(8_000)}`,
      code: 'unexpected_end',
    },
  ])('$name within the default length limit fails with $code', ({ input, code }) => {
    expect(input.length).toBeLessThanOrEqual(8192);
    const error = parseOrListkitError(input);
    expect(error?.code).toBe(code);
  });

  // Regression: an uncapped maxDepth let the recursive-descent parser overflow the stack at a few
  // hundred levels, and a RangeError escaped parseFilter.
  it('reports too_deep rather than overflowing the stack when maxDepth is raised', () => {
    const input = `${'('.repeat(1_000)}a${')'.repeat(1_000)}`;
    const error = parseOrListkitError(input, { limits: { maxLength: 1e7, maxDepth: 1e6 } });
    expect(error?.code).toBe('too_deep');
  });
});

// ---------------------------------------------------------------------------------------------
// compileFilter: parse + check + compile, also only ever ListkitError.

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string({ searchable: true, sortable: true }),
    description: t.string(),
    size: t.int64(),
    ratio: t.double(),
    ttl: t.duration(),
    done: t.bool(),
    status: t.enum(['UP', 'DOWN']),
    created: t.timestamp(),
    labels: t.map(t.string()),
    tags: t.repeated(t.string()),
    scheduling: t.message({ automaticRestart: t.bool(), nodes: t.repeated(t.int64()) }),
  },
  functions: {
    startsWith: {
      arity: 2,
      evaluate: (value, prefix) =>
        typeof value === 'string' && typeof prefix === 'string' && value.startsWith(prefix),
    },
  },
});

const RESOURCES: unknown[] = [
  {},
  {
    name: 'web-1',
    description: 'front end',
    size: '42',
    ratio: 0.5,
    ttl: '1.5s',
    done: true,
    status: 'UP',
    created: '2012-04-21T11:30:00Z',
    labels: { env: 'prod' },
    tags: ['a', 'b'],
    scheduling: { automaticRestart: true, nodes: ['1', '2'] },
  },
  // every field of the wrong type
  {
    name: 5,
    size: 'x',
    ratio: 'y',
    ttl: 3,
    done: 'yes',
    status: 1,
    created: 7,
    labels: 'nope',
    tags: 'nope',
    scheduling: [1],
  },
  { labels: null, tags: [null, 1, {}], scheduling: { nodes: null } },
];

const FIELDS = [
  'name',
  'description',
  'size',
  'ratio',
  'ttl',
  'done',
  'status',
  'created',
  'labels',
  'labels.env',
  'tags',
  'scheduling',
  'scheduling.automaticRestart',
  'scheduling.nodes',
  'unknown',
  'name.x',
  'tags.0',
];
const VALUES = [
  '"web-*"',
  'web\\*',
  '*',
  '42',
  '-3',
  '9223372036854775808',
  '2.5',
  '1e400',
  '20s',
  '-1.5s',
  'true',
  'false',
  'UP',
  'SIDEWAYS',
  '2012-04-21T11:30:00Z',
  '"2012-13-45T99:99:99Z"',
  'env',
  '(a OR b)',
  'f(x)',
  '""',
];
const COMPARATORS = ['=', '!=', '<', '<=', '>', '>=', ':'];
const PATTERN_PIECES = [...'ab.*+?()[]{}|^$\\dwsSP-,:0129 ', '\\Q', '\\E', '{2,}', '(?i)', '\\pL'];

const restriction = fc
  .tuple(
    fc.constantFrom(...FIELDS),
    fc.constantFrom('', ' '),
    fc.constantFrom(...COMPARATORS),
    fc.constantFrom(...VALUES),
  )
  .map(([field, ws, op, value]) => `${field}${ws}${op}${ws}${value}`);
const term = fc.oneof(
  { weight: 4, arbitrary: restriction },
  fc.constantFrom('prod', '"web*"', 'startsWith(name, "w")', 'startsWith(name)', 'nope(x)'),
);
const aipFilter = fc
  .array(
    fc.tuple(fc.constantFrom('', '', 'NOT ', '-'), term, fc.constantFrom(' AND ', ' OR ', ' ')),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) =>
    parts
      .map(([not, t, op]) => not + t + op)
      .join('')
      .replace(/ (AND|OR) $| $/, ''),
  );
const pattern = fc
  .array(fc.constantFrom(...PATTERN_PIECES), { maxLength: 8 })
  .map((p) => p.join(''));
const regexFilter = fc
  .array(fc.tuple(fc.constantFrom(...FIELDS), fc.constantFrom('eq', 'ne'), pattern, fc.boolean()), {
    minLength: 1,
    maxLength: 3,
  })
  .map((terms) =>
    terms
      .map(([f, op, p, quoted]) => `(${f} ${op} ${quoted ? `"${p.replace(/"/g, '\\"')}"` : p})`)
      .join(' '),
  );

function compileOrListkitError(input: string, engine: 'default' | 're2js') {
  let compiled: ReturnType<typeof compileFilter> | undefined;
  try {
    compiled = compileFilter(
      input,
      schema,
      engine === 're2js' ? { regexEngine: re2jsEngine } : undefined,
    );
  } catch (error) {
    expectListkitError(input, error);
    return;
  }
  try {
    expect(typeof compiled.canonical).toBe('string');
    for (const resource of RESOURCES) expect(typeof compiled.matches(resource)).toBe('boolean');
  } finally {
    compiled.dispose();
  }
}

describe('compileFilter on arbitrary input', () => {
  const engine = fc.constantFrom<'default' | 're2js'>('default', 're2js');

  it('throws only ListkitError for arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: oneChar, maxLength: 40 }),
          tokenSoup([...TOKENS, ...FIELDS, ...VALUES], 12),
        ),
        engine,
        compileOrListkitError,
      ),
      { numRuns: 1500 },
    );
  });

  it('throws only ListkitError for schema-shaped filters, and matches never throws', () => {
    fc.assert(fc.property(fc.oneof(aipFilter, regexFilter), engine, compileOrListkitError), {
      numRuns: 1500,
    });
  });

  it('throws only ListkitError for mutated schema-shaped filters', () => {
    fc.assert(
      fc.property(
        fc.oneof(aipFilter, regexFilter),
        fc.array(edit, { minLength: 1, maxLength: 2 }),
        engine,
        (filter, edits, e) => compileOrListkitError(applyEdits(filter, edits), e),
      ),
      { numRuns: 1500 },
    );
  });
});
