import { describe, expect, it } from 'vitest';
import { ListkitError } from '../errors.js';
import { Collection } from '../list/collection.js';
import { PageTokenCodec } from '../page-token/page-token-codec.js';
import { defineSchema, t } from '../schema/field-type.js';
import { toGoogleError } from './google-error.js';
import { runListRequest, toListResponse } from './list-response.js';
import { ListParameterError, readListRequest } from './read-list-request.js';

const caught = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
};

describe('readListRequest', () => {
  it('reads a query string in lowerCamel or snake_case, empty values absent', () => {
    expect(
      readListRequest(new URLSearchParams('filter=a%3D1&order_by=title&page_size=7&pageToken=')),
    ).toEqual({ filter: 'a=1', orderBy: 'title', pageSize: 7 });
    expect(readListRequest(new URLSearchParams(''))).toEqual({ pageSize: 50 });
  });

  it('applies AIP-158: default, coerced to the maximum, negative refused', () => {
    const options = { defaultPageSize: 10, maxPageSize: 100 };
    expect(readListRequest({ pageSize: '0' }, options).pageSize).toBe(10);
    expect(readListRequest({ pageSize: '5000' }, options).pageSize).toBe(100);
    const negative = caught(() => readListRequest({ pageSize: '-1' }, options));
    expect(negative).toBeInstanceOf(ListkitError);
    expect(negative).toMatchObject({ input: 'pageSize', code: 'invalid_page_size' });
    expect(caught(() => readListRequest({ page_size: 'ten' }))).toMatchObject({
      input: 'pageSize',
    });
    expect(caught(() => readListRequest({ pageSize: 1.5 }))).toMatchObject({ input: 'pageSize' });
  });

  it('reads a request message: proto3 defaults are absent, int64 sizes are bigints', () => {
    const message = {
      $typeName: 'x.ListBooksRequest',
      filter: '',
      orderBy: 'title desc',
      pageSize: 0,
      pageToken: '',
    };
    expect(readListRequest(message, { strict: true })).toEqual({
      orderBy: 'title desc',
      pageSize: 50,
    });
    expect(readListRequest({ page_size: 20n })).toEqual({ pageSize: 20 });
  });

  it('reads Compute maxResults: default and maximum 500', () => {
    expect(readListRequest({}, { style: 'compute' }).pageSize).toBe(500);
    expect(readListRequest({ maxResults: '900' }, { style: 'compute' }).pageSize).toBe(500);
    expect(readListRequest({ maxResults: '9', pageSize: '3' }, { style: 'compute' }).pageSize).toBe(
      9,
    );
  });

  it('still reads the deprecated dialect option, and style wins over it', () => {
    expect(readListRequest({ maxResults: '9' }, { dialect: 'compute' }).pageSize).toBe(9);
    expect(readListRequest({}, { style: 'aip', dialect: 'compute' }).pageSize).toBe(50);
    expect(toListResponse({ items: [] }, { dialect: 'compute' })).toEqual({});
    const error = caught(() => readListRequest({ maxResults: '-3' }, { dialect: 'compute' }));
    expect(toGoogleError(error, { dialect: 'compute' }).details[0]).toMatchObject({
      fieldViolations: [{ field: 'maxResults' }],
    });
  });

  it('refuses unknown and repeated parameters only when strict', () => {
    expect(readListRequest(new URLSearchParams('fliter=x&filter=a&filter=b'))).toEqual({
      filter: 'a',
      pageSize: 50,
    });
    const unknown = caught(() =>
      readListRequest(new URLSearchParams('fliter=x'), { strict: true }),
    );
    expect(unknown).toBeInstanceOf(ListParameterError);
    expect(unknown).toMatchObject({ code: 'unknown_parameter', parameter: 'fliter' });
    expect(readListRequest({ parent: 'shelves/1' }, { strict: true, allow: ['parent'] })).toEqual({
      pageSize: 50,
    });
    expect(caught(() => readListRequest({ filter: ['a', 'b'] }, { strict: true }))).toMatchObject({
      code: 'duplicate_parameter',
      parameter: 'filter',
    });
    expect(
      caught(() => readListRequest({ orderBy: 'a', order_by: 'b' }, { strict: true })),
    ).toMatchObject({ code: 'duplicate_parameter', parameter: 'order_by' });
  });

  it('refuses a filter, orderBy or token that is not a string (a qs object)', () => {
    expect(caught(() => readListRequest({ filter: { a: 'b' } }))).toMatchObject({
      input: 'filter',
    });
    expect(caught(() => readListRequest({ orderBy: 5n }))).toMatchObject({ input: 'orderBy' });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(caught(() => readListRequest({ pageToken: cycle }))).toMatchObject({
      input: 'pageToken',
      code: 'malformed_page_token',
    });
  });
});

describe('toGoogleError', () => {
  it('answers a ListkitError as INVALID_ARGUMENT with a BadRequest naming the input', () => {
    const error = ListkitError.of(
      'orderBy',
      'unknown_field',
      "unknown field 'nmae'",
      { start: 0, end: 4 },
      'nmae',
    );
    const e = toGoogleError(error);
    expect(e).toMatchObject({ httpStatus: 400, grpcCode: 3, status: 'INVALID_ARGUMENT' });
    expect(e.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(e.body.error.details[0]).toEqual({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [
        { field: 'orderBy', description: "unknown field 'nmae' (1:1)", reason: 'UNKNOWN_FIELD' },
      ],
    });
    expect(e.body.error.details[1]).toMatchObject({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'UNKNOWN_FIELD',
    });
    const proto = toGoogleError(error, { fieldNames: 'proto' });
    expect(proto.details[0]).toMatchObject({ fieldViolations: [{ field: 'order_by' }] });
  });

  it('names the page size as the style does', () => {
    const error = caught(() => readListRequest({ maxResults: '-3' }, { style: 'compute' }));
    expect(toGoogleError(error, { style: 'compute' }).details[0]).toMatchObject({
      fieldViolations: [{ field: 'maxResults' }],
    });
  });

  it('answers a timeout as DEADLINE_EXCEEDED and anything else as INTERNAL without its message', () => {
    const timeout = ListkitError.of(
      'filter',
      'query_timeout',
      'ran out of time',
      { start: 0, end: 0 },
      '',
    );
    expect(toGoogleError(timeout)).toMatchObject({ httpStatus: 504, grpcCode: 4 });
    const internal = toGoogleError(new Error('password=hunter2 at db.internal'));
    expect(internal).toMatchObject({ httpStatus: 500, grpcCode: 13, status: 'INTERNAL' });
    expect(JSON.stringify(internal.body)).not.toContain('hunter2');
    expect(toGoogleError('a string')).toMatchObject({ status: 'INTERNAL' });
  });

  it('recognises a ListkitError from another copy of the class (a CommonJS entry bundles its own)', () => {
    const original = ListkitError.of(
      'pageToken',
      'tampered_page_token',
      'tampered',
      { start: 0, end: 0 },
      '',
    );
    class ListkitError2 extends Error {
      override readonly name = 'ListkitError';
      readonly code = original.code;
      readonly input = original.input;
      readonly problems = original.problems;
    }
    const e = toGoogleError(new ListkitError2('tampered'));
    expect(e).toMatchObject({ httpStatus: 400, status: 'INVALID_ARGUMENT' });
    expect(e.details[0]).toMatchObject({ fieldViolations: [{ field: 'pageToken' }] });
  });

  it('answers a ListParameterError naming the parameter', () => {
    const e = toGoogleError(
      new ListParameterError('unknown_parameter', 'fliter', "unknown parameter 'fliter'"),
    );
    expect(e.details[0]).toMatchObject({
      fieldViolations: [{ field: 'fliter', reason: 'UNKNOWN_PARAMETER' }],
    });
  });
});

describe('runListRequest and toListResponse', () => {
  interface Book {
    name: string;
    year: number;
  }
  const schema = defineSchema({ key: 'name', fields: { name: t.string(), year: t.int64() } });

  it('walks the pages of a Collection in the AIP shape', async () => {
    const books = new Collection<Book>(schema, { pageTokens: await PageTokenCodec.create() });
    for (let i = 0; i < 7; i++) books.put({ name: `books/${i}`, year: 1990 + i });
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const query = new URLSearchParams({ filter: 'year >= 1992', pageSize: '2' });
      if (token) query.set('pageToken', token);
      const response = await runListRequest(query, books, { itemsField: 'books' });
      seen.push(...(response.books ?? []).map((b) => b.name));
      token = response.nextPageToken;
      if (!token) expect(Object.keys(response)).toEqual(['books']);
    } while (token);
    expect(seen).toEqual(['books/2', 'books/3', 'books/4', 'books/5', 'books/6']);
  });

  it('writes Compute pages without an empty items field', () => {
    expect(toListResponse({ items: [] }, { style: 'compute' })).toEqual({});
    expect(toListResponse({ items: [] }, { itemsField: 'books' })).toEqual({ books: [] });
  });
});
