import { describe, expect, it } from 'vitest';
import { ListkitError } from '../errors.js';
import { defineSchema, t } from '../schema/field-type.js';
import { sqlTable } from './table.js';

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string(),
    pages: t.int64(),
    area: t.double(),
    independent: t.bool(),
    published: t.timestamp(),
    genre: t.enum(['FANTASY', 'MYSTERY']),
    labels: t.map(t.string()),
  },
});
const columns = {
  pages: {},
  area: {},
  independent: {},
  published: {},
  genre: {},
  labels: {},
};
const strict = sqlTable(schema, { table: 'books', document: false, columns });
const lenient = sqlTable(schema, { table: 'books', document: false, columns, coerce: true });

function refused(read: () => unknown) {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ListkitError);
    return { path: (error as ListkitError).source, message: (error as ListkitError).message };
  }
  throw new Error('expected the row to be refused');
}

describe('SqlTable.readRow of a table of your own', () => {
  it('reads the canonical text the planner selects', () => {
    expect(
      strict.readRow({
        name: 'b',
        pages: '9007199254740993',
        area: '12.5',
        independent: 'true',
        published: '2024-01-01T00:00:00.000000Z',
        genre: 'MYSTERY',
        labels: '{"env":"prod"}',
      }),
    ).toEqual({
      name: 'b',
      pages: '9007199254740993',
      area: 12.5,
      independent: true,
      published: '2024-01-01T00:00:00.000000Z',
      genre: 'MYSTERY',
      labels: { env: 'prod' },
    });
    expect(strict.readRow({ name: 'b', area: 'NaN', independent: 'f' })).toEqual({
      name: 'b',
      area: Number.NaN,
      independent: false,
    });
  });

  it.each([
    ['independent', 1, 'independent: expected a boolean, got 1'],
    ['area', 'abc', 'area: expected a number, got "abc"'],
    ['pages', '12.5', 'pages: expected an int64 (decimal text or a safe integer), got "12.5"'],
    [
      'published',
      '2024-02-30T00:00:00Z',
      'published: expected an RFC 3339 timestamp such as "2024-01-01T00:00:00Z", got "2024-02-30T00:00:00Z"',
    ],
    ['genre', 'ROMANCE', 'genre: expected one of FANTASY, MYSTERY, got "ROMANCE"'],
    ['labels', '{"env":', 'labels: expected JSON text, got "{\\"env\\":"'],
    ['labels', '{"env":3}', 'labels.env: expected a string, got 3'],
  ])('refuses %s = %j, naming the path, the value and the type', (field, value, expected) => {
    const { path, message } = refused(() => strict.readRow({ name: 'b', [field]: value }));
    expect(path.startsWith(field)).toBe(true);
    expect(message).toBe(expected);
  });

  it.each([
    ['independent', 1, true],
    ['independent', '0', false],
    ['pages', 12n, '12'],
    ['published', new Date('2024-01-01T00:00:00Z'), '2024-01-01T00:00:00.000Z'],
  ])('with coerce reads the driver shape %s = %s', (field, value, read) => {
    expect(() => strict.readRow({ name: 'b', [field]: value })).toThrow(ListkitError);
    expect(lenient.readRow({ name: 'b', [field]: value })).toEqual({ name: 'b', [field]: read });
  });

  it('refuses what coerce does not convert', () => {
    expect(refused(() => lenient.readRow({ name: 'b', independent: 2 })).path).toBe('independent');
    expect(refused(() => lenient.readRow({ name: 'b', area: 'abc' })).path).toBe('area');
  });
});
