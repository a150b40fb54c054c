import { describe, expect, it } from 'vitest';
import { ListkitError } from '../errors.js';
import { defineSchema, t } from '../schema/field-type.js';
import { parseOrderBy } from './order-by.js';

const schema = defineSchema({
  key: 'name',
  fields: {
    name: t.string(),
    created: t.timestamp(),
    size: t.int64(),
    ratio: t.double(),
    enabled: t.bool(),
    state: t.enum(['UP', 'DOWN']),
    ttl: t.duration(),
    secret: t.string({ sortable: false }),
    labels: t.map(t.string()),
    ports: t.repeated(t.string()),
    scheduling: t.message({ zone: t.string() }),
  },
});

function failure(text: string, options = {}) {
  try {
    parseOrderBy(text, schema, options);
  } catch (e) {
    if (e instanceof ListkitError) return { code: e.code, span: [e.span.start, e.span.end] };
    throw e;
  }
  throw new Error(`expected '${text}' to fail`);
}

const sorted = (orderBy: string, items: Record<string, unknown>[]) =>
  [...items].sort(parseOrderBy(orderBy, schema).compare).map((i) => i.name);

describe('orderBy syntax', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    ['name', 'name'],
    ['size desc, name', 'size desc, name'],
    [' size , name desc ', 'size, name desc'],
    ['size,name desc', 'size, name desc'],
    ['size   desc', 'size desc'],
    ['size asc', 'size'],
    ['scheduling.zone', 'scheduling.zone'],
  ])('%j → %j', (text, canonical) => {
    expect(parseOrderBy(text, schema).canonical).toBe(canonical);
  });

  it.each([
    ['size,', 'invalid_order_by', [5, 5]],
    [',size', 'invalid_order_by', [0, 0]],
    ['size,,name', 'invalid_order_by', [5, 5]],
    ['size descending', 'invalid_order_by', [5, 15]],
    ['size DESC', 'invalid_order_by', [5, 9]],
    ['size desc name', 'invalid_order_by', [10, 14]],
    ['nmae', 'unknown_field', [0, 4]],
    ['a/b', 'invalid_order_by', [0, 3]],
    ['a..b', 'invalid_order_by', [0, 4]],
    ['size, size desc', 'duplicate_order_by_field', [6, 10]],
    ['secret', 'unsortable_field', [0, 6]],
    ['labels', 'unsortable_field', [0, 6]],
    ['ports', 'unsortable_field', [0, 5]],
    ['scheduling', 'unsortable_field', [0, 10]],
  ])('%j → %s', (text, code, span) => {
    expect(failure(text)).toEqual({ code, span });
  });

  it('restricts orderings when asked, naming the supported ones', () => {
    const allowed = ['', 'name', 'created desc'];
    expect(parseOrderBy('created  desc', schema, { allowed }).canonical).toBe('created desc');
    expect(failure('created', { allowed }).code).toBe('unsupported_order_by');
    expect(() => parseOrderBy('size', schema, { allowed })).toThrow(
      "unsupported orderBy 'size'; supported orderings are (default), 'name', 'created desc'",
    );
  });

  it('suggests a field for a typo', () => {
    expect(() => parseOrderBy('nmae', schema)).toThrow(
      "unknown field 'nmae'; did you mean 'name'?",
    );
  });
});

describe('the comparator', () => {
  it('orders timestamps as instants, whatever their offset', () => {
    const items = [
      { name: 'a', created: '2024-01-01T00:00:00.000000002Z' },
      { name: 'b', created: '2023-12-31T19:00:00.000000001-05:00' },
      { name: 'c', created: '2024-01-01T01:00:00+02:00' },
    ];
    expect(sorted('created', items)).toEqual(['c', 'b', 'a']);
    expect(sorted('created desc', items)).toEqual(['a', 'b', 'c']);
  });

  it('orders int64 exactly', () => {
    const items = [
      { name: 'a', size: '9007199254740993' },
      { name: 'b', size: '9007199254740992' },
      { name: 'c', size: '-9223372036854775808' },
    ];
    expect(sorted('size', items)).toEqual(['c', 'b', 'a']);
  });

  it('orders durations as quantities, strings by code point, bools false before true, enums by declaration', () => {
    expect(
      sorted('ttl', [
        { name: 'a', ttl: '20s' },
        { name: 'b', ttl: '1.5s' },
        { name: 'c', ttl: '-1s' },
      ]),
    ).toEqual(['c', 'b', 'a']);
    expect(
      sorted('name', [{ name: '\uffff' }, { name: '😀' }, { name: 'Z' }, { name: 'a' }]),
    ).toEqual(['Z', 'a', '\uffff', '😀']);
    expect(
      sorted('enabled', [
        { name: 'a', enabled: true },
        { name: 'b' },
        { name: 'c', enabled: false },
      ]),
    ).toEqual(['b', 'c', 'a']);
    expect(
      sorted('state', [
        { name: 'a', state: 'DOWN' },
        { name: 'b', state: 'UP' },
      ]),
    ).toEqual(['b', 'a']);
  });

  it('puts unset values first ascending and last descending', () => {
    const items = [{ name: 'a', created: '2024-01-01T00:00:00Z', state: 'DOWN' }, { name: 'b' }];
    expect(sorted('created', items)).toEqual(['b', 'a']);
    expect(sorted('created desc', items)).toEqual(['a', 'b']);
    expect(sorted('state', items)).toEqual(['b', 'a']);
  });

  it('breaks ties with the unique key, so the order is total', () => {
    const items = [
      { name: 'c', size: '1' },
      { name: 'a', size: '1' },
      { name: 'b', size: '0' },
    ];
    expect(sorted('size', items)).toEqual(['b', 'a', 'c']);
    expect(sorted('size desc', items)).toEqual(['a', 'c', 'b']);
    expect(parseOrderBy('size desc', schema).keyTerms.map((t) => t.path)).toEqual(['size', 'name']);
    expect(parseOrderBy('name desc', schema).keyTerms.map((t) => t.path)).toEqual(['name']);
  });
});
