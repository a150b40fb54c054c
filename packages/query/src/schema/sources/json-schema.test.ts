import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileFilter } from '../../filter/compile.js';
import { parseOrderBy } from '../../order-by/order-by.js';
import { schemaFromJsonSchema } from './json-schema.js';
import { SchemaSourceError, type SchemaWarning } from './schema-source.js';

const matching = (
  filter: string,
  schema: ReturnType<typeof schemaFromJsonSchema>,
  rows: object[],
) => {
  const compiled = compileFilter(filter, schema);
  return rows.filter((row) => compiled.matches(row)).map((row) => (row as { name: string }).name);
};

const books = [
  {
    name: 'shelves/1/books/a',
    title: 'Dune',
    state: 'PUBLISHED',
    pages: 412,
    rating: 4.5,
    createTime: '2024-05-01T10:00:00Z',
    readTime: 'PT9H30M',
    tags: ['scifi', 'classic'],
    labels: { lang: 'en' },
    author: { displayName: 'Frank Herbert', born: 1920 },
  },
  {
    name: 'shelves/1/books/b',
    title: 'Emma',
    state: 'DRAFT',
    pages: 320,
    rating: 3.9,
    createTime: '2025-02-01T08:00:00.5+01:00',
    readTime: 'PT6H',
    tags: ['classic'],
    labels: { lang: 'en', era: 'regency' },
    author: { displayName: 'Jane Austen', born: 1775 },
  },
];

describe('schemaFromJsonSchema on what real tools emit', () => {
  const zodBook = z.object({
    name: z.string(),
    title: z.string(),
    state: z.enum(['DRAFT', 'PUBLISHED', 'OUT_OF_PRINT']),
    pages: z.number().int(),
    rating: z.number().nullable(),
    createTime: z.iso.datetime({ offset: true }),
    readTime: z.iso.duration(),
    tags: z.array(z.string()),
    labels: z.record(z.string(), z.string()),
    author: z.object({ displayName: z.string(), born: z.number().int().optional() }),
  });

  it("maps Zod 4's z.toJSONSchema (draft 2020-12) and filters its data", () => {
    const schema = schemaFromJsonSchema(z.toJSONSchema(zodBook));
    expect(schema.key).toBe('name');
    expect(schema.fields).toMatchObject({
      state: { kind: 'enum', values: ['DRAFT', 'PUBLISHED', 'OUT_OF_PRINT'] },
      pages: { kind: 'int64' },
      rating: { kind: 'double' },
      createTime: { kind: 'timestamp' },
      readTime: { kind: 'duration' },
      tags: { kind: 'repeated', element: { kind: 'string' } },
      labels: { kind: 'map', value: { kind: 'string' } },
      author: { kind: 'message', fields: { born: { kind: 'int64' } } },
    });
    expect(matching('state = PUBLISHED', schema, books)).toEqual(['shelves/1/books/a']);
    expect(matching('createTime > 2025-01-01T00:00:00Z', schema, books)).toEqual([
      'shelves/1/books/b',
    ]);
    expect(matching('readTime > 25200s', schema, books)).toEqual(['shelves/1/books/a']);
    expect(matching('tags:scifi', schema, books)).toEqual(['shelves/1/books/a']);
    expect(matching('labels.era:*', schema, books)).toEqual(['shelves/1/books/b']);
    expect(matching('author.born < 1900 AND rating >= 3.5', schema, books)).toEqual([
      'shelves/1/books/b',
    ]);
    const order = parseOrderBy('createTime desc', schema);
    expect([...books].sort(order.compare).map((b) => b.title)).toEqual(['Emma', 'Dune']);
    // Enums order by their declared position, not alphabetically.
    const byState = parseOrderBy('state desc', schema);
    expect([...books].sort(byState.compare).map((b) => b.state)).toEqual(['PUBLISHED', 'DRAFT']);
  });

  it('maps TypeBox schemas (draft-07 style, nullable as anyOf)', () => {
    const book = Type.Object({
      id: Type.Integer(),
      title: Type.String(),
      state: Type.Union([Type.Literal('DRAFT'), Type.Literal('PUBLISHED')]),
      createTime: Type.String({ format: 'date-time' }),
      subtitle: Type.Union([Type.String(), Type.Null()]),
      labels: Type.Record(Type.String(), Type.String()),
    });
    const schema = schemaFromJsonSchema(book);
    expect(schema.key).toBe('id');
    expect(schema.fields).toMatchObject({
      id: { kind: 'int64' },
      state: { kind: 'enum', values: ['DRAFT', 'PUBLISHED'] },
      subtitle: { kind: 'string' },
      createTime: { kind: 'timestamp' },
      labels: { kind: 'map', value: { kind: 'string' } }, // patternProperties '^(.*)$'
    });
  });

  it('resolves $defs, draft-07 definitions and OpenAPI components, cutting recursion at maxDepth', () => {
    const folder = {
      $defs: {
        Folder: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            parent: { $ref: '#/$defs/Folder' },
          },
        },
      },
      $ref: '#/$defs/Folder',
    };
    const schema = schemaFromJsonSchema(folder, { maxDepth: 2 });
    expect(Object.keys(schema.fields)).toEqual(['name', 'parent']);
    const parent = schema.fields.parent as { kind: 'message'; fields: Record<string, unknown> };
    expect(Object.keys(parent.fields)).toEqual(['name', 'parent']);
    const grandparent = parent.fields.parent as { fields: Record<string, unknown> };
    expect(Object.keys(grandparent.fields)).toEqual(['name']); // cut: the third level is left out
    expect(compileFilter('parent.parent.name = root', schema)).toBeTruthy();
    expect(() => compileFilter('parent.parent.parent.name = root', schema)).toThrow(/parent/);

    const draft7 = {
      definitions: { Owner: { type: 'object', properties: { login: { type: 'string' } } } },
      type: 'object',
      properties: { id: { type: 'string' }, owner: { $ref: '#/definitions/Owner' } },
    };
    expect(schemaFromJsonSchema(draft7).fields.owner).toEqual({
      kind: 'message',
      fields: { login: { kind: 'string' } },
    });

    const openApi = {
      openapi: '3.1.0',
      components: {
        schemas: {
          Pet: {
            type: 'object',
            properties: { name: { type: 'string' }, kind: { $ref: '#/components/schemas/Kind' } },
          },
          Kind: { type: 'string', enum: ['CAT', 'DOG'] },
        },
      },
    };
    expect(
      schemaFromJsonSchema(openApi.components.schemas.Pet, { root: openApi }).fields.kind,
    ).toEqual({ kind: 'enum', values: ['CAT', 'DOG'] });
  });

  it('merges allOf of objects and takes the options', () => {
    const schema = schemaFromJsonSchema(
      {
        allOf: [
          { type: 'object', properties: { uid: { type: 'string' } } },
          { type: 'object', properties: { title: { type: 'string' } } },
        ],
      },
      { key: 'uid', searchable: ['title'], orderings: ['', 'title'] },
    );
    expect(schema.key).toBe('uid');
    expect(schema.fields.title).toEqual({ kind: 'string', searchable: true });
    expect(schema.orderings).toEqual(['', 'title']);
  });
});

describe('schemaFromJsonSchema refuses what it cannot map, by JSON pointer', () => {
  const wrap = (property: unknown) => ({
    type: 'object',
    properties: { name: { type: 'string' }, v: property },
  });

  it.each([
    [
      'oneOf over different types',
      { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      '/properties/v/oneOf',
    ],
    [
      'patternProperties over some keys',
      { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
      '/properties/v/patternProperties',
    ],
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's own keyword
    ['if/then', { if: { type: 'string' }, then: {} }, '/properties/v/if'],
    ['not', { not: { type: 'string' } }, '/properties/v/not'],
    ['tuples', { type: 'array', prefixItems: [{ type: 'string' }] }, '/properties/v/prefixItems'],
    ['a type list', { type: ['string', 'integer'] }, '/properties/v/type'],
    ['no type at all', {}, '/properties/v'],
    ['an array without items', { type: 'array' }, '/properties/v/items'],
    [
      'arrays of arrays',
      { type: 'array', items: { type: 'array', items: { type: 'string' } } },
      '/properties/v/items',
    ],
    ['an enum of numbers', { enum: [1, 2] }, '/properties/v/enum'],
    ['the boolean schema true', true, '/properties/v'],
  ])('%s', (_name, property, pointer) => {
    const error = (() => {
      try {
        schemaFromJsonSchema(wrap(property));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SchemaSourceError);
    expect(error).toMatchObject({ code: 'unsupported_construct', at: pointer });

    const warnings: SchemaWarning[] = [];
    const schema = schemaFromJsonSchema(wrap(property), { warnings });
    expect(Object.keys(schema.fields)).toEqual(['name']); // skipped, never a guessed type
    expect(warnings).toEqual([expect.objectContaining({ at: pointer, field: 'v' })]);
  });

  it('names unresolved and external references, a missing key and a non-object root', () => {
    expect(() => schemaFromJsonSchema(wrap({ $ref: '#/$defs/Nope' }))).toThrow(
      expect.objectContaining({ code: 'unresolved_reference', at: '/properties/v/$ref' }),
    );
    expect(() => schemaFromJsonSchema(wrap({ $ref: 'https://example.com/s.json' }))).toThrow(
      expect.objectContaining({ code: 'unresolved_reference' }),
    );
    expect(() =>
      schemaFromJsonSchema({ type: 'object', properties: { title: { type: 'string' } } }),
    ).toThrow(expect.objectContaining({ code: 'invalid_option' }));
    expect(() => schemaFromJsonSchema({ type: 'string' })).toThrow(
      expect.objectContaining({ code: 'invalid_source' }),
    );
    expect(() => schemaFromJsonSchema(wrap({ type: 'string' }), { key: 'missing' })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
    expect(() => schemaFromJsonSchema(wrap({ type: 'integer' }), { searchable: ['v'] })).toThrow(
      /searchable 'v' must name a string field/,
    );
  });
});
