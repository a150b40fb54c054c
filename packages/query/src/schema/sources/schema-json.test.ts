import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inferSchema } from './infer-schema.js';
import { schemaFromJsonSchema } from './json-schema.js';
import { parseSchemaJson } from './schema-json.js';

describe('parseSchemaJson', () => {
  it('round-trips what the sources produce', () => {
    const inferred = inferSchema([
      {
        name: 'a',
        n: 1,
        at: '2025-01-01T00:00:00Z',
        tags: ['x'],
        labels: { a: 'b' },
        o: { p: true },
      },
      {
        name: 'b',
        n: 2.5,
        at: '2025-01-02T00:00:00Z',
        tags: [],
        labels: { c: 'd' },
        o: { p: false },
      },
    ]);
    expect(parseSchemaJson(JSON.parse(JSON.stringify(inferred)))).toEqual(inferred);
    const fromJsonSchema = schemaFromJsonSchema(
      { type: 'object', properties: { id: { type: 'string' }, s: { enum: ['A', 'B'] } } },
      { searchable: ['id'], orderings: ['', 'id desc'] },
    );
    expect(parseSchemaJson(JSON.parse(JSON.stringify(fromJsonSchema)))).toEqual(fromJsonSchema);
  });

  it('round-trips any inferred schema (property)', () => {
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        fc.boolean(),
        fc.dictionary(fc.stringMatching(/^[a-z]{1,4}$/), tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.stringMatching(/^[a-z]{1,4}$/), value), {
          minLength: 1,
          maxLength: 5,
        }),
        (rows) => {
          const records = rows.map((row, i) => ({ ...row, name: `r${i}` }));
          const schema = inferSchema(records, { warnings: [] });
          expect(parseSchemaJson(JSON.parse(JSON.stringify(schema)))).toEqual(schema);
        },
      ),
    );
  });

  it.each([
    [[], ''],
    [{ key: 1, fields: {} }, '/key'],
    [{ key: 'name', fields: { name: { kind: 'text' } } }, '/fields/name/kind'],
    [
      { key: 'name', fields: { name: { kind: 'string', sortable: 'yes' } } },
      '/fields/name/sortable',
    ],
    [
      { key: 'name', fields: { name: { kind: 'string' }, e: { kind: 'enum', values: [] } } },
      '/fields/e/values',
    ],
    [
      { key: 'name', fields: { name: { kind: 'string' }, 'a/b': { kind: 'map' } } },
      '/fields/a~1b/value',
    ],
    [{ key: 'name', fields: { name: { kind: 'string', extra: 1 } } }, '/fields/name/extra'],
    [{ key: 'nope', fields: { name: { kind: 'string' } } }, '/key'],
    [{ key: 'name', fields: { name: { kind: 'string' } }, orderings: 'name' }, '/orderings'],
  ])('refuses %j at %s', (value, pointer) => {
    expect(() => parseSchemaJson(value)).toThrow(
      expect.objectContaining({ code: 'invalid_source', at: pointer }),
    );
  });
});
