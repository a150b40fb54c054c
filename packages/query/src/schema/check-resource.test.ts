import { describe, expect, it } from 'vitest';
import { ListkitError } from '../errors.js';
import { Collection } from '../list/collection.js';
import { PageTokenCodec } from '../page-token/page-token-codec.js';
import { checkResource } from './check-resource.js';
import { defineSchema, t } from './field-type.js';
import { parseInt64 } from './int64.js';

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string(),
    title: t.string(),
    pages: t.int64(),
    area: t.double(),
    independent: t.bool(),
    published: t.timestamp(),
    loan: t.duration(),
    genre: t.enum(['FANTASY', 'MYSTERY']),
    shelf: t.message({ row: t.int64(), open: t.bool() }),
    labels: t.map(t.string()),
    ratings: t.repeated(t.double()),
  },
});

const pageTokens = await PageTokenCodec.create();
const books = (coerce: boolean) =>
  new Collection<Record<string, unknown>>(schema, { pageTokens, coerce });

/** Puts `{ name, [field]: value }` and returns the stored item, or the error thrown. */
function put(field: string, value: unknown, coerce = false): unknown {
  const collection = books(coerce);
  try {
    collection.put({ name: 'shelves/1/books/1', [field]: value });
  } catch (error) {
    return error;
  }
  return collection.get('shelves/1/books/1');
}

/** The refusal of a value: a ListkitError naming the path, the value and the type expected. */
function refusal(error: unknown) {
  expect(error).toBeInstanceOf(ListkitError);
  const e = error as ListkitError;
  return { input: e.input, code: e.code, path: e.source, message: e.message };
}

// One row per kind: a value of the schema's JSON form, a value of the wrong type and what the
// message expects, and (where a driver produces one) a driver's shape and what coerce makes of it.
const KINDS: {
  field: string;
  path?: string;
  good: unknown;
  bad: unknown;
  expected: string;
  driver?: unknown;
  coerced?: unknown;
}[] = [
  { field: 'title', good: 'Dune', bad: 12, expected: 'a string' },
  {
    field: 'pages',
    good: '9007199254740993',
    bad: 'many',
    expected: 'an int64',
    driver: 9007199254740993n,
    coerced: '9007199254740993',
  },
  { field: 'area', good: 12.5, bad: 'abc', expected: 'a number', driver: '12.50', coerced: 12.5 },
  { field: 'independent', good: true, bad: 'yes', expected: 'a boolean', driver: 1, coerced: true },
  {
    field: 'published',
    good: '2024-01-01T00:00:00Z',
    bad: '2024-13-01',
    expected: 'an RFC 3339 timestamp',
    driver: new Date('2024-01-01T00:00:00Z'),
    coerced: '2024-01-01T00:00:00.000Z',
  },
  { field: 'loan', good: '1.5s', bad: 90, expected: 'a duration' },
  { field: 'genre', good: 'MYSTERY', bad: 'ROMANCE', expected: 'one of FANTASY, MYSTERY' },
  {
    field: 'shelf',
    path: 'shelf.open',
    good: { row: 3, open: false },
    bad: { row: 3, open: 'no' },
    expected: 'a boolean',
    driver: { row: 3, open: 0 },
    coerced: { row: 3, open: false },
  },
  {
    field: 'labels',
    path: 'labels.team',
    good: { env: 'prod' },
    bad: { env: 'prod', team: 7 },
    expected: 'a string',
    driver: { env: 'prod', team: null },
    coerced: { env: 'prod' },
  },
  {
    field: 'ratings',
    path: 'ratings[1]',
    good: [4.5, 3],
    bad: [4.5, '3 stars'],
    expected: 'a number',
    driver: [4.5, '3'],
    coerced: [4.5, 3],
  },
];

describe('Collection.put checks each value against the schema', () => {
  describe.each(KINDS)('$field', ({ field, path, good, bad, expected, driver, coerced }) => {
    it('stores a value of the field’s type as given, with or without coerce', () => {
      expect(put(field, good)).toEqual({ name: 'shelves/1/books/1', [field]: good });
      expect(put(field, good, true)).toEqual({ name: 'shelves/1/books/1', [field]: good });
    });

    it('refuses a value of another type, naming the path, the value and the type', () => {
      for (const coerce of [false, true]) {
        const r = refusal(put(field, bad, coerce));
        expect(r).toMatchObject({ input: 'resource', code: 'invalid_resource_value' });
        expect(r.path).toBe(path ?? field);
        expect(r.message).toContain(`${path ?? field}: expected ${expected}`);
      }
    });

    if (driver !== undefined) {
      it('refuses a driver’s shape without coerce, and converts it with coerce', () => {
        const r = refusal(put(field, driver));
        expect(r.path).toBe(path ?? field);
        expect(put(field, driver, true)).toEqual({ name: 'shelves/1/books/1', [field]: coerced });
      });
    }
  });

  it('refuses JSON null without coerce, and leaves the field unset with it', () => {
    const r = refusal(put('independent', null));
    expect(r.message).toBe(
      'independent: expected a boolean, got null (leave the field out to unset it, or pass coerce: true)',
    );
    expect(put('independent', null, true)).toEqual({ name: 'shelves/1/books/1' });
  });

  it('refuses 2 as a boolean and an invalid Date as a timestamp even with coerce', () => {
    expect(refusal(put('independent', 2, true)).message).toBe(
      'independent: expected a boolean, got 2',
    );
    expect(refusal(put('published', new Date('nope'), true)).message).toContain(
      'got Date(invalid)',
    );
  });

  it('keeps the item that was refused out of the collection, and the one before it in', () => {
    const collection = books(false);
    collection.put({ name: 'shelves/1/books/1', area: 1 });
    expect(() => collection.put({ name: 'shelves/1/books/1', area: '12' })).toThrow(ListkitError);
    expect(collection.get('shelves/1/books/1')).toEqual({ name: 'shelves/1/books/1', area: 1 });
  });

  it('leaves fields the schema does not declare alone, and does not copy a valid item', () => {
    const item = { name: 'shelves/1/books/1', extra: { anything: null } };
    expect(checkResource(schema, item)).toBe(item);
    expect(checkResource(schema, item, { coerce: true })).toBe(item);
  });

  it('stores items as given with validate: false', () => {
    const collection = new Collection<Record<string, unknown>>(schema, {
      pageTokens,
      validate: false,
    });
    collection.put({ name: 'shelves/1/books/1', area: '12' });
    expect(collection.get('shelves/1/books/1')).toEqual({ name: 'shelves/1/books/1', area: '12' });
  });

  it('cuts a long value short in the message', () => {
    const message = refusal(put('title', 'x'.repeat(1000).split(''))).message;
    expect(message.length).toBeLessThan(200);
  });
});

describe('int64 text at the bounds', () => {
  // The check compiled per schema reads int64 text without BigInt; it must accept exactly what
  // the filter engine (parseInt64) can compare.
  it.each([
    ['9223372036854775807', true],
    ['9223372036854775808', false],
    ['-9223372036854775808', true],
    ['-9223372036854775809', false],
    ['+9223372036854775807', true],
    ['000009223372036854775807', false],
    ['009223372036854775807', true],
    ['-0', true],
    ['12345678901234567890', false],
    ['1e3', false],
    ['+', false],
    ['', false],
    [' 1', false],
  ])('%j: %s', (text, accepted) => {
    expect(parseInt64(text) !== undefined).toBe(accepted);
    const stored = put('pages', text);
    if (accepted) expect(stored).toEqual({ name: 'shelves/1/books/1', pages: text });
    else expect(refusal(stored).path).toBe('pages');
  });
});
