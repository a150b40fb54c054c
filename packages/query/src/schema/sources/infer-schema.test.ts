import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../filter/compile.js';
import { inferSchema } from './infer-schema.js';
import { SchemaSourceError, type SchemaWarning } from './schema-source.js';

const issues = [
  {
    id: 101,
    title: 'Crash on start',
    state: 'open',
    score: 3,
    weight: 0.5,
    locked: false,
    createdAt: '2025-03-01T10:00:00Z',
    labels: { bug: 'yes' },
    user: { login: 'ada', id: 7 },
    assignees: [{ login: 'bob' }],
    meta: { 'app.kubernetes.io/name': 'web' },
  },
  {
    id: 102,
    title: 'Docs typo',
    state: 'closed',
    score: 1,
    weight: 2,
    locked: true,
    createdAt: '2025-04-01T09:30:00.25+02:00',
    labels: { docs: 'yes', easy: 'yes' },
    user: { login: 'eve', id: 9 },
    assignees: [],
    meta: {},
  },
];

describe('inferSchema', () => {
  it('reads types off the data, and the result filters that data', () => {
    const schema = inferSchema(issues);
    expect(schema.key).toBe('id');
    expect(schema.fields).toEqual({
      id: { kind: 'int64' },
      title: { kind: 'string' },
      state: { kind: 'string' },
      score: { kind: 'int64' },
      weight: { kind: 'double' }, // 0.5 in one record makes the field a double
      locked: { kind: 'bool' },
      createdAt: { kind: 'timestamp' },
      labels: { kind: 'map', value: { kind: 'string' } }, // keys vary between records
      user: { kind: 'message', fields: { login: { kind: 'string' }, id: { kind: 'int64' } } },
      assignees: {
        kind: 'repeated',
        element: { kind: 'message', fields: { login: { kind: 'string' } } },
      },
      meta: { kind: 'map', value: { kind: 'string' } }, // keys that are not identifiers
    });
    const match = (filter: string) => {
      const compiled = compileFilter(filter, schema);
      return issues.filter((i) => compiled.matches(i)).map((i) => i.id);
    };
    expect(match('labels:docs')).toEqual([102]);
    expect(match('createdAt > 2025-03-15T00:00:00Z')).toEqual([102]);
    expect(match('user.login = ada AND locked = false')).toEqual([101]);
    expect(match('assignees.login:bob')).toEqual([101]);
    expect(match('weight < 1')).toEqual([101]);
  });

  it('keeps a string a string unless every sampled value is an RFC 3339 date-time', () => {
    const schema = inferSchema([
      { name: 'a', when: '2025-01-01T00:00:00Z', day: '2025-01-01' },
      { name: 'b', when: 'yesterday', day: '2025-01-02' },
    ]);
    expect(schema.fields.when).toEqual({ kind: 'string' });
    expect(schema.fields.day).toEqual({ kind: 'string' }); // a date alone is not a timestamp
  });

  it('makes objects with many keys maps, and objects with the same few keys messages', () => {
    const wide = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    const schema = inferSchema([
      { name: 'a', wide, point: { x: 1, y: 2 } },
      { name: 'b', wide, point: { x: 3, y: 4 } },
    ]);
    expect(schema.fields.wide).toEqual({ kind: 'map', value: { kind: 'int64' } });
    expect(schema.fields.point).toMatchObject({ kind: 'message' });
    expect(inferSchema([{ name: 'a', wide }], { mapKeys: 100 }).fields.wide).toMatchObject({
      kind: 'message',
    });
  });

  it('reports conflicting types with the field and two records, or skips them when asked', () => {
    const records = [
      { name: 'a', v: 'x' },
      { name: 'b', v: 1 },
      { name: 'c', v: { deep: true } },
    ];
    expect(() => inferSchema(records)).toThrow(
      expect.objectContaining({
        code: 'unsupported_construct',
        at: 'v',
        message: 'v: records disagree on its type: string in record 0, number in record 1',
      }),
    );
    const warnings: SchemaWarning[] = [];
    expect(Object.keys(inferSchema(records, { warnings }).fields)).toEqual(['name']);
    expect(warnings).toHaveLength(1);
    const nulls: SchemaWarning[] = [];
    inferSchema([{ name: 'a', gone: null, none: [] }], { warnings: nulls });
    expect(nulls.map((w) => w.field)).toEqual(['gone', 'none']);
  });

  it('refuses records that are not objects and data without a key', () => {
    expect(() => inferSchema([{ name: 'a' }, 3])).toThrow(
      expect.objectContaining({ code: 'invalid_source', at: '[1]' }),
    );
    expect(() => inferSchema([{ name: 'a' }, { name: 'a' }])).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(
      inferSchema(
        [
          { name: 'a', uid: 'x' },
          { name: 'a', uid: 'y' },
        ],
        { key: 'uid' },
      ).key,
    ).toBe('uid');
  });

  it('reads at most sampleSize records, however many there are', () => {
    let read = 0;
    function* many() {
      for (let i = 0; i < 1_000_000; i++) {
        read++;
        yield { name: `r${i}`, n: i };
      }
    }
    expect(inferSchema(many()).fields.n).toEqual({ kind: 'int64' });
    expect(read).toBe(10_000);
    read = 0;
    inferSchema(many(), { sampleSize: 50 });
    expect(read).toBe(50);
  });

  it('is deterministic: the same records give the same schema', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            name: fc.uuid(),
            v: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
          }),
          { minLength: 1 },
        ),
        (records) => {
          const warnings: SchemaWarning[] = [];
          expect(JSON.stringify(inferSchema(records, { warnings }))).toBe(
            JSON.stringify(inferSchema(structuredClone(records), { warnings: [] })),
          );
        },
      ),
    );
    expect(SchemaSourceError).toBeTypeOf('function');
  });
});
