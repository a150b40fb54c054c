import { describe, expect, it } from 'vitest';
import { type ListInput, ListkitError } from './errors.js';
import { checkFilter } from './filter/checker.js';
import { compileFilter } from './filter/compile.js';
import { parseFilter } from './filter/parser.js';
import { Collection } from './list/collection.js';
import { resolvePageSize } from './list/page-size.js';
import { parseOrderBy } from './order-by/order-by.js';
import { PageTokenCodec } from './page-token/page-token-codec.js';
import { defineSchema, t } from './schema/field-type.js';
import { listFromSql } from './sql/list-from-sql.js';
import { planListQuery } from './sql/plan.js';
import { sqlTable } from './sql/table.js';

// Every problem says which input of the list call it is in, set where it is raised: an API maps
// problems to its parameters by this field alone (the service's one mapping to the envelope).

const schema = defineSchema({
  key: 'name',
  fields: { name: t.string(), size: t.int64(), labels: t.map(t.string()) },
  orderings: ['', 'name', 'size desc'],
});

/** The error `run` throws, which must be a ListkitError. */
async function thrown(run: () => unknown): Promise<ListkitError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ListkitError) return error;
    throw error;
  }
  throw new Error('expected a ListkitError');
}

/** The error's input, and that every one of its problems agrees. */
function inputOf(error: ListkitError): ListInput {
  for (const p of error.problems) expect(p.input).toBe(error.input);
  return error.input;
}

describe('the input of a problem', () => {
  it.each([
    ['an unbalanced parenthesis', 'name = a )'],
    ['an unterminated string', 'name = "a'],
    ['a bad escape', 'name = "\\q"'],
    ['an unexpected end', 'name ='],
    ['mixed styles', 'name eq a AND size = 1'],
  ])('is filter for a parse error: %s', async (_what, filter) => {
    expect(inputOf(await thrown(() => parseFilter(filter)))).toBe('filter');
  });

  it('is filter for every problem the checker finds', () => {
    const result = checkFilter(parseFilter('nmae = a AND size = x AND labels = 1'), schema);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.length).toBeGreaterThan(1);
    expect(result.problems.map((p) => p.input)).toEqual(result.problems.map(() => 'filter'));
  });

  it.each([
    ['an unknown field', 'nmae = a'],
    ['a bad regex', 'name eq "a("'],
  ])('is filter when compileFilter refuses %s', async (_what, filter) => {
    expect(inputOf(await thrown(() => compileFilter(filter, schema)))).toBe('filter');
  });

  it.each([
    ['invalid_order_by', 'name sideways'],
    ['unknown_field', 'nmae'],
    ['unsortable_field', 'labels'],
    ['duplicate_order_by_field', 'name, name'],
    ['unsupported_order_by', 'size'],
  ])('is orderBy for %s', async (code, orderBy) => {
    const error = await thrown(() => parseOrderBy(orderBy, schema));
    expect(error.code).toBe(code);
    expect(inputOf(error)).toBe('orderBy');
  });

  it('is pageToken for a malformed, tampered, mismatched or expired token', async () => {
    let now = 0;
    const codec = await PageTokenCodec.create({ ttlMs: 1000, now: () => now });
    const binding = { filter: '', orderBy: '' };
    const token = await codec.seal(['a'], binding);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const cases: [string, () => Promise<unknown>][] = [
      ['malformed_page_token', () => codec.open('!', binding)],
      ['tampered_page_token', () => codec.open(tampered, binding)],
      ['page_token_query_mismatch', () => codec.open(token, { filter: 'x', orderBy: '' })],
      [
        'expired_page_token',
        () => {
          now = 5000;
          return codec.open(token, binding);
        },
      ],
    ];
    for (const [code, open] of cases) {
      const error = await thrown(open);
      expect(error.code).toBe(code);
      expect(inputOf(error)).toBe('pageToken');
    }
  });

  it('is pageToken when a cursor does not fit the ordering of an SQL plan', async () => {
    const table = sqlTable(schema, { table: 'items' });
    const error = await thrown(() =>
      planListQuery(table, {
        filter: compileFilter('', schema),
        order: parseOrderBy('', schema),
        cursor: ['a', 'b', 'c'],
        pageSize: 10,
      }),
    );
    expect(error.code).toBe('page_token_query_mismatch');
    expect(inputOf(error)).toBe('pageToken');
  });

  it('is pageSize for a page size the collection, listFromSql or resolvePageSize refuses', async () => {
    const pageTokens = await PageTokenCodec.create();
    const collection = new Collection(schema, { pageTokens });
    const table = sqlTable(schema, { table: 'items' });
    const errors = [
      await thrown(() => collection.list({ pageSize: 0 })),
      await thrown(() => collection.plan({ pageSize: 1.5 })),
      await thrown(() => listFromSql({ pageSize: -1 }, { table, pageTokens, run: async () => [] })),
      await thrown(() => resolvePageSize(-3, { default: 10, max: 100 })),
    ];
    for (const error of errors) {
      expect(error.code).toBe('invalid_page_size');
      expect(inputOf(error)).toBe('pageSize');
    }
  });

  it('is the input each of a list call’s inputs fails in, whichever fails', async () => {
    const pageTokens = await PageTokenCodec.create();
    const collection = new Collection(schema, { pageTokens });
    collection.put({ name: 'a' });
    const inputs = await Promise.all(
      [
        { pageSize: 1, filter: 'name = (' },
        { pageSize: 1, orderBy: 'nmae' },
        { pageSize: 1, pageToken: 'nonsense' },
        { pageSize: -1 },
      ].map(async (request) => (await thrown(() => collection.list(request))).input),
    );
    expect(inputs).toEqual(['filter', 'orderBy', 'pageToken', 'pageSize']);
  });
});
