import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListkitError } from '../errors.js';
import { defineSchema, t } from '../schema/field-type.js';
import { compileFieldMask, listResponseType } from './compile-field-mask.js';
import { parseFieldMask } from './parse-field-mask.js';

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string(),
    IPAddress: t.string(),
    ipVersion: t.enum(['IPV4', 'IPV6']),
    labels: t.map(t.string()),
    ports: t.repeated(t.string()),
    backend: t.message({ zone: t.string(), weight: t.int64() }),
    metadataFilters: t.repeated(
      t.message({
        filterMatchCriteria: t.string(),
        filterLabels: t.repeated(t.message({ name: t.string(), value: t.string() })),
      }),
    ),
    reviews: t.map(t.message({ stars: t.int64(), text: t.string() })),
  },
});

const page = listResponseType(schema, { fields: { kind: t.string(), selfLink: t.string() } });

const rule = {
  name: 'fr-1',
  IPAddress: '10.0.0.1',
  ipVersion: 'IPV4',
  labels: { env: 'prod', 'app-name': 'web', 'a b': 'c' },
  ports: ['80', '443'],
  backend: { zone: 'z', weight: '3' },
  metadataFilters: [
    { filterMatchCriteria: 'MATCH_ANY', filterLabels: [{ name: 'a', value: 'b' }] },
    { filterMatchCriteria: 'MATCH_ALL' },
  ],
  reviews: { smith: { stars: '5', text: 'good' }, jones: { stars: '1', text: 'bad' } },
};

function errorOf(run: () => unknown): ListkitError {
  try {
    run();
  } catch (e) {
    if (e instanceof ListkitError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('parseFieldMask', () => {
  it('reads the fields syntax: commas, parentheses nested at will, / and *', () => {
    const selections = parseFieldMask('kind,items(name,metadata/*,a(b(c,d))),nextPageToken');
    const shape = (s: ReturnType<typeof parseFieldMask>): unknown =>
      s.map((x) => ({
        path: x.path.map((p) => p.name).join('/'),
        ...(x.children ? { children: shape(x.children) } : {}),
      }));
    expect(shape(selections)).toEqual([
      { path: 'kind' },
      {
        path: 'items',
        children: [
          { path: 'name' },
          { path: 'metadata/*' },
          { path: 'a', children: [{ path: 'b', children: [{ path: 'c' }, { path: 'd' }] }] },
        ],
      },
      { path: 'nextPageToken' },
    ]);
  });

  it('reads AIP-161 paths: dots, backticked keys (a backtick doubled inside), spaces', () => {
    const [a, b] = parseFieldMask(' labels.`a b` , reviews.`it``s`.stars ');
    expect(a?.path.map((s) => s.name)).toEqual(['labels', 'a b']);
    expect(b?.path.map((s) => s.name)).toEqual(['reviews', 'it`s', 'stars']);
    expect(a?.path[1]?.span).toEqual({ start: 8, end: 13 });
  });

  it('reads the empty mask as no selection', () => {
    expect(parseFieldMask('')).toEqual([]);
    expect(parseFieldMask('   ')).toEqual([]);
  });

  it.each([
    ['items(name', "expected ')' to close '(' at 6", 10],
    ['items()', "expected a field name inside '()'", 6],
    ['a,,b', "expected a field name, not ','", 2],
    ['a/', 'expected a field name at the end', 2],
    ['a)b', "unexpected ')'", 1],
    ['labels.`x', 'unterminated `quoted` key', 7],
  ])('refuses %j with its position', (text, message, at) => {
    const e = errorOf(() => parseFieldMask(text));
    expect(e.input).toBe('fields');
    expect(e.code).toBe('invalid_field_mask');
    expect(e.message).toBe(message);
    expect(e.span.start).toBe(at);
    expect(e.column).toBe(at + 1);
    expect(e.format()).toContain('^');
  });

  it('bounds length, depth and steps', () => {
    expect(errorOf(() => parseFieldMask('a'.repeat(9000))).code).toBe('too_long');
    expect(errorOf(() => parseFieldMask(`${'a('.repeat(40)}b${')'.repeat(40)}`)).code).toBe(
      'too_deep',
    );
    expect(errorOf(() => parseFieldMask(Array(2000).fill('a').join(','))).code).toBe('too_deep');
    // 100,000 levels: refused, never a stack overflow
    const deep = `${'a('.repeat(100_000)}b`;
    expect(
      errorOf(() => parseFieldMask(deep, { maxLength: 1e6, maxDepth: 1e6, maxSegments: 1e6 })).code,
    ).toBe('too_deep');
  });

  it('never throws anything but a ListkitError on any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', ',', '(', ')', '/', '.', '*', '`', ' ') }),
        (text) => {
          try {
            parseFieldMask(text);
          } catch (e) {
            expect(e).toBeInstanceOf(ListkitError);
          }
        },
      ),
    );
  });
});

describe('compileFieldMask', () => {
  it('keeps exactly the selected paths of a resource', () => {
    const mask = compileFieldMask('name,labels', schema);
    expect(mask.apply(rule)).toEqual({ name: 'fr-1', labels: rule.labels });
    expect(mask.paths).toEqual(['labels', 'name']);
    expect(mask.topLevelFields).toEqual(['labels', 'name']);
  });

  it('projects a whole list response: items(name,labels),nextPageToken', () => {
    const mask = compileFieldMask('items(name,labels),nextPageToken', page);
    const response = {
      kind: 'k',
      items: [rule, { ...rule, name: 'fr-2' }],
      nextPageToken: 'T',
      selfLink: 's',
    };
    expect(mask.apply(response)).toEqual({
      items: [
        { name: 'fr-1', labels: rule.labels },
        { name: 'fr-2', labels: rule.labels },
      ],
      nextPageToken: 'T',
    });
    expect(mask.paths).toEqual(['items.*.labels', 'items.*.name', 'nextPageToken']);
    expect(response.items[0]).toBe(rule); // the input is untouched
    expect(Object.keys(rule)).toHaveLength(8);
  });

  it('reads the same selection in every spelling', () => {
    const expected = compileFieldMask('items(name,backend/zone)', page).apply({ items: [rule] });
    for (const text of [
      'items/name,items/backend/zone',
      'items.name,items.backend.zone',
      'items.*.name,items.*.backend.zone',
      'items(name,backend(zone))',
      'items(name),items(backend.zone)',
    ]) {
      expect(compileFieldMask(text, page).apply({ items: [rule] })).toEqual(expected);
    }
    expect(expected).toEqual({ items: [{ name: 'fr-1', backend: { zone: 'z' } }] });
  });

  it('selects map keys, every value with *, and backticked keys', () => {
    expect(compileFieldMask('labels.env,labels.`app-name`', schema).apply(rule)).toEqual({
      labels: { env: 'prod', 'app-name': 'web' },
    });
    expect(compileFieldMask('labels.app-name', schema).apply(rule)).toEqual({
      labels: { 'app-name': 'web' },
    });
    expect(compileFieldMask('labels.`a b`,labels.missing', schema).apply(rule)).toEqual({
      labels: { 'a b': 'c' },
    });
    expect(compileFieldMask('reviews.*.stars', schema).apply(rule)).toEqual({
      reviews: { smith: { stars: '5' }, jones: { stars: '1' } },
    });
    expect(compileFieldMask('reviews.*.stars,reviews.smith.text', schema).apply(rule)).toEqual({
      reviews: { smith: { stars: '5', text: 'good' }, jones: { stars: '1' } },
    });
    expect(compileFieldMask('labels.*', schema).paths).toEqual(['labels']);
  });

  it('crosses repeated fields at any depth', () => {
    expect(compileFieldMask('metadataFilters/filterLabels/name', schema).apply(rule)).toEqual({
      metadataFilters: [{ filterLabels: [{ name: 'a' }] }, {}],
    });
  });

  it('keeps everything for "", "*" and a path covered by a wider one', () => {
    for (const text of ['', '*', ' * ']) {
      const mask = compileFieldMask(text, schema);
      expect(mask.selectsAll).toBe(true);
      expect(mask.paths).toEqual(['*']);
      expect(mask.topLevelFields).toBeUndefined();
      expect(mask.apply(rule)).toBe(rule);
    }
    expect(compileFieldMask('backend/zone,backend', schema).apply(rule)).toEqual({
      backend: rule.backend,
    });
    expect(compileFieldMask('backend/*', schema).apply(rule)).toEqual({ backend: rule.backend });
  });

  it('accepts proto (snake_case) names for JSON names', () => {
    expect(compileFieldMask('ip_version,i_p_address', schema).apply(rule)).toEqual({
      ipVersion: 'IPV4',
      IPAddress: '10.0.0.1',
    });
  });

  it('leaves out absent fields and keeps values of another shape as they are', () => {
    const mask = compileFieldMask('name,backend/zone,labels.env', schema);
    expect(mask.apply({ backend: 'not an object', labels: null })).toEqual({
      backend: 'not an object',
      labels: null,
    });
    expect(mask.apply('text')).toBe('text');
    expect(
      compileFieldMask('labels.__proto__', schema).apply({
        labels: JSON.parse('{"__proto__":"x"}'),
      }),
    ).toEqual(JSON.parse('{"labels":{"__proto__":"x"}}'));
    expect(compileFieldMask('labels.constructor', schema).apply({ labels: {} })).toEqual({
      labels: {},
    });
  });

  it('refuses an unknown path naming it, where it is, with a did-you-mean', () => {
    const e = errorOf(() => compileFieldMask('items(name,lables),nextPageToken', page));
    expect(e.input).toBe('fields');
    expect(e.code).toBe('unknown_field');
    expect(e.message).toBe("unknown field 'items.lables'; did you mean 'items.labels'?");
    expect(e.span).toEqual({ start: 11, end: 17 });
    expect(e.column).toBe(12);
    expect(e.format()).toBe(
      "items(name,lables),nextPageToken\n           ^~~~~~ unknown field 'items.lables'; did you mean 'items.labels'? (1:12)",
    );
    expect(errorOf(() => compileFieldMask('nmae', schema)).message).toBe(
      "unknown field 'nmae'; did you mean 'name'?",
    );
    expect(errorOf(() => compileFieldMask('zzzzzz', schema)).message).toBe(
      "unknown field 'zzzzzz'",
    );
  });

  it.each([
    ['ports.0', "'ports' is a repeated field: its elements cannot be selected by index", 6],
    ['name/first', "'name' is a string and has no field 'first'", 5],
    ['name(first)', "'name' has no fields to select", 0],
    ['backend/*/zone', "'*' on a message selects all of it and must end the path", 8],
  ])('refuses %j', (text, message, at) => {
    const e = errorOf(() => compileFieldMask(text, schema));
    expect(e.code).toBe('invalid_field_mask');
    expect(e.message).toBe(message);
    expect(e.span.start).toBe(at);
  });

  it('projects only selected paths, whatever the mask (property)', () => {
    const names = ['name', 'IPAddress', 'labels', 'ports', 'backend', 'backend/zone', 'labels.env'];
    fc.assert(
      fc.property(fc.subarray(names, { minLength: 1 }), (chosen) => {
        const out = compileFieldMask(chosen.join(','), schema).apply(rule) as Record<
          string,
          unknown
        >;
        const top = new Set(chosen.map((c) => c.split(/[/.]/)[0]));
        expect(new Set(Object.keys(out))).toEqual(top);
        for (const key of top) {
          if (chosen.includes(key!)) expect(out[key!]).toEqual(rule[key as keyof typeof rule]);
        }
      }),
    );
  });
});
