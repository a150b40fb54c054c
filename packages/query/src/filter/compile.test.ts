import { describe, expect, it } from 'vitest';
import { ListkitError } from '../errors.js';
import { defineSchema, t } from '../schema/field-type.js';
import { compileFilter } from './compile.js';
import { re2WasmEngine } from './regex/re2-wasm-engine.js';
import { re2jsEngine } from './regex/re2js-engine.js';
import { RegexCache } from './regex/regex-cache.js';

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string({ sortable: true, searchable: true }),
    description: t.string({ searchable: true }),
    size: t.int64(),
    ratio: t.double(),
    enabled: t.bool(),
    state: t.enum(['UP', 'DOWN', 'DRAINING']),
    created: t.timestamp(),
    ttl: t.duration(),
    labels: t.map(t.string()),
    ports: t.repeated(t.string()),
    sizes: t.repeated(t.int64()),
    scheduling: t.message({
      automaticRestart: t.bool(),
      zone: t.string(),
      nested: t.message({ deep: t.string() }),
    }),
    filters: t.repeated(
      t.message({ labels: t.repeated(t.message({ name: t.string(), value: t.string() })) }),
    ),
  },
  functions: {
    startsWith: { arity: 2, evaluate: (s, p) => typeof s === 'string' && s.startsWith(String(p)) },
    'math.even': { arity: [1, 1], evaluate: (n) => Number(n) % 2 === 0 },
  },
});

const resources = [
  {
    name: 'web-1',
    description: 'front door',
    size: '9007199254740993', // 2^53 + 1: wrong if compared as a double
    ratio: 0.5,
    enabled: true,
    state: 'UP',
    created: '2024-01-01T00:00:00.000000001Z',
    ttl: '1.5s',
    labels: { env: 'prod', team: 'core' },
    ports: ['80', '443'],
    sizes: ['1', '2'],
    scheduling: { automaticRestart: true, zone: 'us-central1-a', nested: { deep: 'x' } },
    filters: [{ labels: [{ name: 'a', value: 'b' }] }],
  },
  {
    name: 'web-2',
    description: 'a *star* line\nsecond line',
    size: '9007199254740992',
    ratio: 2,
    state: 'DOWN',
    created: '2023-12-31T19:00:00.000000002-05:00', // the same instant as web-1, plus 1 ns
    ttl: '20s',
    labels: { env: 'staging' },
    ports: [],
    scheduling: { zone: 'europe-west1-b' },
  },
  {
    name: 'api-1',
    size: '-5',
    state: 'DRAINING',
    labels: {},
    ports: ['8080'],
  },
  { name: 'ΩMEGA-😀' },
];

function matching(filter: string, engine = re2jsEngine): string[] {
  const compiled = compileFilter(filter, schema, { regexEngine: engine });
  try {
    return resources.filter((r) => compiled.matches(r)).map((r) => r.name);
  } finally {
    compiled.dispose();
  }
}

function problemCodes(filter: string): string[] {
  try {
    compileFilter(filter, schema);
  } catch (e) {
    if (e instanceof ListkitError) return e.problems.map((p) => p.code);
    throw e;
  }
  return [];
}

const ALL = ['web-1', 'web-2', 'api-1', 'ΩMEGA-😀'];

describe('AIP-160 semantics', () => {
  it.each([
    ['', ALL],
    ['   ', ALL],
    // strings, wildcards
    ['name = "web-1"', ['web-1']],
    ['name = web-1', ['web-1']],
    ['name != web-1', ['web-2', 'api-1', 'ΩMEGA-😀']],
    ['name = web-*', ['web-1', 'web-2']],
    ['name = *-1', ['web-1', 'api-1']],
    ['name = w*-2', ['web-2']],
    ['name = "*"', ALL],
    ['description = "a \\*star\\* line*"', ['web-2']],
    ['description = "a *star* line*"', ['web-2']],
    ['description = "a \\**"', ['web-2']],
    ['description = "a \\*"', []],
    ['name < "b"', ['api-1']],
    ['name >= "web-2"', ['web-2', 'ΩMEGA-😀']],
    ['name > "\uffff"', ['ΩMEGA-😀'].filter(() => false)],
    // `:` on strings is a substring test (Compute Engine)
    ['description:door', ['web-1']],
    ['description:"star* line"', ['web-2']],
    ['description:"star\\* line"', ['web-2']],
    ['description:"ar\\*l"', []],
    ['name:EGA', ['ΩMEGA-😀']],
    // unset strings are "" (proto3)
    ['description = ""', ['api-1', 'ΩMEGA-😀']],
    // int64, exactly
    ['size = 9007199254740993', ['web-1']],
    ['size > 9007199254740992', ['web-1']],
    ['size < 0', ['api-1']],
    ['size = 0', ['ΩMEGA-😀']],
    ['size >= -5', ['web-1', 'web-2', 'api-1', 'ΩMEGA-😀']],
    // double
    ['ratio > 1', ['web-2']],
    ['ratio = 0.5', ['web-1']],
    ['ratio <= 2.997e9', ALL],
    // bool (unset is false)
    ['enabled = true', ['web-1']],
    ['enabled = false', ['web-2', 'api-1', 'ΩMEGA-😀']],
    ['enabled != true', ['web-2', 'api-1', 'ΩMEGA-😀']],
    // enum (unset never equals)
    ['state = UP', ['web-1']],
    ['state != UP', ['web-2', 'api-1', 'ΩMEGA-😀']],
    ['state = "DOWN"', ['web-2']],
    // timestamps as instants, to the nanosecond, any offset
    ['created > 2024-01-01T00:00:00.000000001Z', ['web-2']],
    ['created = 2024-01-01T00:00:00.000000001Z', ['web-1']],
    ['created >= "2023-12-31T16:00:00.000000001-08:00"', ['web-1', 'web-2']],
    ['created < 2025-01-01T00:00:00Z', ['web-1', 'web-2']],
    ['created != 2025-01-01T00:00:00Z', ALL],
    // durations as quantities
    ['ttl > 2s', ['web-2']],
    ['ttl < 1.6s', ['web-1']],
    ['ttl = 1.500s', ['web-1']],
    ['ttl = "20s"', ['web-2']],
    // maps: key presence, value on key, presence
    ['labels:env', ['web-1', 'web-2']],
    ['labels:team', ['web-1']],
    ['labels.env = prod', ['web-1']],
    ['labels.env:prod', ['web-1']],
    ['labels.env:*', ['web-1', 'web-2']],
    ['labels.env != prod', ['web-2']],
    ['labels:*', ['web-1', 'web-2']],
    // repeated: contains, presence
    ['ports:443', ['web-1']],
    ['ports:"8080"', ['api-1']],
    ['ports:*', ['web-1', 'api-1']],
    ['sizes:2', ['web-1']],
    ['filters.labels.name:a', ['web-1']],
    ['filters.labels.value:"b"', ['web-1']],
    // nested messages; an unset message makes the restriction false, even for !=
    ['scheduling.automaticRestart = true', ['web-1']],
    ['scheduling.automaticRestart = false', ['web-2']],
    ['scheduling.automaticRestart != true', ['web-2']],
    ['scheduling.zone = us-*', ['web-1']],
    ['scheduling.zone != us-central1-a', ['web-2']],
    ['scheduling.nested.deep != y', ['web-1']],
    ['scheduling:*', ['web-1', 'web-2']],
    // logic
    ['name = web-* AND state = UP', ['web-1']],
    ['name = web-* state = UP', ['web-1']],
    ['state = UP OR state = DOWN', ['web-1', 'web-2']],
    ['NOT state = UP', ['web-2', 'api-1', 'ΩMEGA-😀']],
    ['-state = UP', ['web-2', 'api-1', 'ΩMEGA-😀']],
    ['name = web-* AND (state = UP OR ports:8080)', ['web-1']],
    ['state = DOWN OR state = DRAINING AND size < 0', ['api-1']],
    // several comparisons of one field (read once per resource)
    ['name = web-* OR name = api-*', ['web-1', 'web-2', 'api-1']],
    ['name = web-* OR name = api-* OR name = "ΩMEGA-😀"', ALL],
    ['size > 0 AND size < 9007199254740993', ['web-2']],
    ['state != UP AND state != DOWN', ['api-1', 'ΩMEGA-😀']],
    ['state != UP AND state != DOWN AND state != DRAINING', ['ΩMEGA-😀']],
    ['description = "" OR description:door', ['web-1', 'api-1', 'ΩMEGA-😀']],
    ['NOT (name = web-* OR name = api-*)', ['ΩMEGA-😀']],
    ['name = web-* AND -name = *-2', ['web-1']],
    // bare values search the searchable text fields
    ['web', ['web-1', 'web-2']],
    ['door', ['web-1']],
    ['"second line"', ['web-2']],
    ['web door', ['web-1']],
    ['-web', ['api-1', 'ΩMEGA-😀']],
    // functions
    ['startsWith(name, "api")', ['api-1']],
    ['NOT startsWith(name, web)', ['api-1', 'ΩMEGA-😀']],
  ])('%s', (filter, expected) => {
    expect(matching(filter)).toEqual(expected);
  });
});

describe('regex style semantics', () => {
  const engines = [re2jsEngine, re2WasmEngine];
  it.each([
    ['name eq web-1', ['web-1']],
    ['name eq web', []],
    ['name eq "web-.*"', ['web-1', 'web-2']],
    ['name ne "web-.*"', ['api-1', 'ΩMEGA-😀']],
    ['name eq .*-1', ['web-1', 'api-1']],
    ['name eq "(web|api)-[0-9]+"', ['web-1', 'web-2', 'api-1']],
    ['name eq "\\pL+-\\p{So}"', ['ΩMEGA-😀']],
    ['name eq "ΩMEGA-."', ['ΩMEGA-😀']],
    ['name eq "(?i)WEB-1"', ['web-1']],
    ['(name eq web-.*)(state eq UP)', ['web-1']],
    ['(name eq "web-.*") (labels.env ne prod)', ['web-2']],
    ['(name eq "web-.*")(name ne ".*-2")', ['web-1']],
    ['(name ne "web-.*")(name ne "api-.*")', ['ΩMEGA-😀']],
    ['(size eq "[0-9]+")(size ne 0)', ['web-1', 'web-2']],
    ['state eq "UP|DOWN"', ['web-1', 'web-2']],
    // a missing enum never matches eq; ne is its negation
    ['state ne UP', ['web-2', 'api-1', 'ΩMEGA-😀']],
    ['size eq 9007199254740993', ['web-1']],
    ['size eq "-[0-9]+"', ['api-1']],
    ['size eq 0', ['ΩMEGA-😀']],
    ['enabled eq true', ['web-1']],
    ['enabled eq false', ['web-2', 'api-1', 'ΩMEGA-😀']],
    ['ratio eq "0\\.5"', ['web-1']],
    ['scheduling.automaticRestart eq true', ['web-1']],
    ['scheduling.zone eq "us-.*"', ['web-1']],
    // a repeated field matches when any element does (eq), and ne when none does
    ['ports eq 443', ['web-1']],
    ['ports ne 443', ['web-2', 'api-1', 'ΩMEGA-😀']],
    // `.` does not match a newline in RE2, in the fast path as in the engine
    ['description eq "a .*"', []],
    ['description eq "(?s)a .*"', ['web-2']],
    ['description eq ".*line"', []],
    ['description eq ""', ['api-1', 'ΩMEGA-😀']],
    ['description ne ""', ['web-1', 'web-2']],
    ['description ne "a .*"', ALL],
    ['description ne "(?s)a .*"', ['web-1', 'api-1', 'ΩMEGA-😀']],
  ])('%s', (filter, expected) => {
    for (const engine of engines) expect(matching(filter, engine), engine.name).toEqual(expected);
  });
});

/** `(.{1000}|.{999}|…)`: alternatives of `.{n}`, counting down from 1000, at least `chars` long. */
function dotAlternatives(chars: number): string {
  const alternatives: string[] = [];
  for (let n = 1000; alternatives.join('|').length < chars; n--) alternatives.push(`.{${n}}`);
  return `(${alternatives.join('|')})`;
}

describe('regex program size (maxProgramSize)', () => {
  const problemOf = (filter: string, limits = {}) => {
    try {
      compileFilter(filter, schema, { limits }).dispose();
    } catch (error) {
      return (error as ListkitError).problems[0];
    }
    throw new Error(`${filter.slice(0, 40)} compiled`);
  };

  it('refuses a 5 KB pattern of 700 .{n} alternatives, naming it, at the pattern', () => {
    const pattern = `${dotAlternatives(5000)}q17`;
    const filter = `name eq "${pattern}"`;
    const found = problemOf(filter);
    expect(found?.code).toBe('regex_too_large');
    expect(found?.message).toContain(
      `RE2 pattern "${pattern.slice(0, 60)}…" (${pattern.length} characters)`,
    );
    // Refused on re2js's lower bound, without compiling (which takes ~0.5 s).
    expect(found?.message).toMatch(
      /program of at least \d+ instructions, more than the limit of 100000$/,
    );
    expect(found?.span).toEqual({ start: 8, end: filter.length });
  });

  it('counts character-class ranges, as C++ RE2 does: (?i)(\\pL|\\pN){1000}', () => {
    expect(problemOf('name eq "(?i)(\\pL|\\pN){1000}"')?.code).toBe('regex_too_large');
    // a hundred letters fit
    expect(compileFilter('name eq "\\pL{100}"', schema).matches({ name: 'é'.repeat(100) })).toBe(
      true,
    );
  });

  it('bounds the programs of one filter together', () => {
    const term = `(name eq "${dotAlternatives(90)}")`; // ~39,000 each (3 per `.`)
    expect(() => compileFilter(term.repeat(2), schema).dispose()).not.toThrow();
    const found = problemOf(term.repeat(3));
    expect(found?.code).toBe('regex_too_large');
    expect(found?.message).toContain(
      "that the filter's other patterns leave of the limit of 100000",
    );
    expect(found?.span.start).toBe(2 * term.length + 9);
  });

  it('takes the limit from limits.maxProgramSize', () => {
    // 100 copies of the class at least (re2js compiles it to 301): refused without compiling.
    expect(problemOf('name eq "[a-z]{1,100}"', { maxProgramSize: 50 })?.message).toBe(
      'RE2 pattern "[a-z]{1,100}" compiles to a program of at least 100 instructions, more than the limit of 50',
    );
    // Compiled when the bound fits but the program does not.
    expect(problemOf('name eq "[a-z]{1,100}"', { maxProgramSize: 200 })?.message).toBe(
      'RE2 pattern "[a-z]{1,100}" compiles to a program of 301 instructions, more than the limit of 200',
    );
    expect(compileFilter('name eq "[a-z]{1,100}"', schema).matches({ name: 'abc' })).toBe(true);
  });
});

describe('checker problems', () => {
  it.each([
    ['nmae = x', ['unknown_field']],
    ['labels.env.x = 1', ['unknown_field']],
    ['scheduling.zon = x', ['unknown_field']],
    ['size = abc', ['invalid_value']],
    ['size = 99999999999999999999', ['invalid_value']],
    ['ratio = x', ['invalid_value']],
    ['enabled = yes', ['invalid_value']],
    ['state = up', ['unknown_enum_value']],
    ['created > 2024-13-01T00:00:00Z', ['invalid_timestamp']],
    ['created > "yesterday"', ['invalid_timestamp']],
    ['ttl > 5m', ['invalid_duration']],
    ['enabled > true', ['unsupported_operator']],
    ['state >= UP', ['unsupported_operator']],
    ['ports = 80', ['unsupported_operator']],
    ['labels = x', ['unsupported_operator']],
    ['scheduling = x', ['unsupported_operator']],
    ['ports.0 = 80', ['traversal_through_repeated']],
    ['filters.labels.name = a', ['traversal_through_repeated']],
    ['nope(name)', ['unknown_function']],
    ['NOT(name)', ['unknown_function']],
    ['startsWith(name)', ['wrong_arity']],
    ['startsWith(name, "a") = true', ['unsupported_operator']],
    ['name = (a OR b)', ['unsupported_argument']],
    ['"x" = name', ['field_required']],
    ['-2.5 >= -2.4', ['field_required']],
    [
      'nmae = x AND size = abc AND state = up',
      ['unknown_field', 'invalid_value', 'unknown_enum_value'],
    ],
    ['(nmae eq x)(labels eq y)', ['unknown_field', 'unsupported_operator']],
    ['name eq "(unclosed"', ['invalid_regex']],
    ['name eq "a(?=b)"', ['invalid_regex']],
    ['filters eq x', ['unsupported_operator']],
  ])('%s', (filter, codes) => {
    expect(problemCodes(filter)).toEqual(codes);
  });

  it('suggests the field that was probably meant', () => {
    expect(() => compileFilter('nmae = x', schema)).toThrow(
      "unknown field 'nmae'; did you mean 'name'?",
    );
    expect(() => compileFilter('scheduling.zoen = x', schema)).toThrow(
      "'scheduling' has no field 'zoen'; did you mean 'zone'?",
    );
  });

  it('explains a keyword-named call', () => {
    expect(() => compileFilter('NOT(name = x)', schema)).toThrow(
      /NOT is an operator only when followed by whitespace/,
    );
  });

  it('points invalid patterns at the literal', () => {
    try {
      compileFilter('(name eq "ok") (description eq "a(")', schema);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ListkitError);
      expect((e as ListkitError).span).toEqual({ start: 31, end: 35 });
    }
  });

  it('asks for fields when a schema has nothing to search', () => {
    const bare = defineSchema({ key: 'id', fields: { id: t.string() } });
    expect(() => compileFilter('prod', bare)).toThrow(/declares no text fields/);
  });
});

describe('compiled filters', () => {
  it('expose their canonical text and style', () => {
    const a = compileFilter('name=web-*   AND state=UP', schema);
    const b = compileFilter('name = web-* AND state = UP', schema);
    expect(a.canonical).toBe(b.canonical);
    expect(a.style).toBe('aip-160');
    expect(compileFilter('name eq x', schema).style).toBe('regex');
  });

  it('never throw from matches(), whatever the resource holds', () => {
    const filter = compileFilter(
      'size > 3 AND created < 2025-01-01T00:00:00Z AND labels.env:x AND ports:1',
      schema,
    );
    for (const junk of [
      {},
      { size: {}, created: 5, labels: 'x', ports: 'y' },
      { size: null, labels: null },
    ]) {
      expect(filter.matches(junk)).toBe(false);
    }
  });
});

describe('a regex on a string field that holds no string', () => {
  it('never matches eq, so ne matches, and an unset field is ""', () => {
    const eq = compileFilter('name eq "5|null|.*"', schema);
    const ne = compileFilter('name ne "5|null|.*"', schema);
    for (const junk of [{ name: 5 }, { name: null }, { name: ['x'] }, { name: {} }]) {
      expect(eq.matches(junk)).toBe(false);
      expect(ne.matches(junk)).toBe(true);
    }
    expect(eq.matches({})).toBe(true);
    expect(compileFilter('name eq "x"', schema).matches({})).toBe(false);
  });
});

describe('map entries', () => {
  it('are read only when they are the map`s own, never from its prototype', () => {
    const inherited = { name: 'inherited', labels: Object.create({ env: 'prod', team: 'core' }) };
    const empty = { name: 'empty', labels: {} };
    const own = { name: 'own', labels: { env: 'prod' } };
    const names = (filter: string) =>
      [inherited, empty, own]
        .filter((r) => compileFilter(filter, schema).matches(r))
        .map((r) => r.name);
    expect(names('labels.env = prod')).toEqual(['own']);
    expect(names('labels.env:*')).toEqual(['own']);
    expect(names('labels.env != staging')).toEqual(['own']);
    expect(names('labels.team = core')).toEqual([]);
    expect(names('labels.constructor:*')).toEqual([]);
    expect(names('labels.toString != x')).toEqual([]);
    expect(names('labels.hasOwnProperty = "*"')).toEqual([]);
    expect(names('labels.env eq prod')).toEqual(['own']);
    expect(names('labels.toString ne x')).toEqual(['inherited', 'empty', 'own']);
  });
});

describe('the regexCache option', () => {
  it('compiles regexes into the cache given, and gives them back on dispose', () => {
    const cache = new RegexCache(re2WasmEngine, { capacity: 4 });
    const filter = compileFilter('(name eq "own-cache-[0-9]+")', schema, { regexCache: cache });
    expect(cache.size).toBe(1);
    expect(filter.matches({ name: 'own-cache-12' })).toBe(true);
    expect(filter.matches({ name: 'own-cache-x' })).toBe(false);
    filter.dispose();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('uses the engine of the cache, and refuses a different regexEngine', () => {
    const cache = new RegexCache(re2WasmEngine);
    // `\C` compiles in C++ RE2 only: it proves which engine ran.
    expect(
      compileFilter('name eq "a\\C"', schema, { regexCache: cache }).matches({ name: 'ab' }),
    ).toBe(true);
    expect(() =>
      compileFilter('name eq "a.*"', schema, { regexCache: cache, regexEngine: re2jsEngine }),
    ).toThrow(new TypeError('regexCache compiles with re2-wasm but regexEngine is re2js'));
  });
});

describe('presence and `:` on strings (one rule each)', () => {
  const match = (filter: string, record: object) => {
    const compiled = compileFilter<object>(filter, schema);
    try {
      return compiled.matches(record);
    } finally {
      compiled.dispose();
    }
  };

  it('`s:*` is true for the string "0"; only an int64 field writes its default 0 as "0"', () => {
    expect(match('description:*', { name: 'a', description: '0' })).toBe(true);
    expect(match('scheduling.zone:*', { name: 'a', scheduling: { zone: '0' } })).toBe(true);
    expect(match('size:*', { name: 'a', size: '0' })).toBe(false);
    expect(match('size:*', { name: 'a', size: 0 })).toBe(false);
    expect(match('size:*', { name: 'a', size: '7' })).toBe(true);
    expect(match('description:*', { name: 'a', description: '' })).toBe(false);
  });

  it('a string under `:` contains the text, a repeated field`s element as a message`s field', () => {
    // The two readings the issue found, now one: `ports:80` on a list of strings and
    // `filters.labels.name:a` on a list of messages both test "contains".
    expect(match('ports:80', { name: 'a', ports: ['8080'] })).toBe(true);
    expect(match('ports:80', { name: 'a', ports: ['80'] })).toBe(true);
    expect(match('ports:80', { name: 'a', ports: ['90', '443'] })).toBe(false);
    expect(match('ports:"8*0"', { name: 'a', ports: ['18090'] })).toBe(true);
    expect(
      match('filters.labels.name:lph', { name: 'a', filters: [{ labels: [{ name: 'alpha' }] }] }),
    ).toBe(true);
    expect(match('description:lph', { name: 'a', description: 'alpha' })).toBe(true);
    // Numbers under `:` stay equality (AIP-160's `r:42`).
    expect(match('sizes:1', { name: 'a', sizes: ['12'] })).toBe(false);
    expect(match('sizes:12', { name: 'a', sizes: ['12'] })).toBe(true);
  });
});
