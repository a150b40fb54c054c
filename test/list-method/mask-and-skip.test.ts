// The list method's skip (AIP-158), read_mask (AIP-157) and fields (the system parameter):
// runListRequest over a Collection and over a function lister, walked across pages with tokens,
// from a query and from a request message as Connect and gRPC hand it over (a FieldMask message).
import { create } from '@bufbuild/protobuf';
import { FieldMaskSchema } from '@bufbuild/protobuf/wkt';
import { ListkitError } from '@listkit/query';
import {
  ListParameterError,
  readListRequest,
  runListRequest,
  toGoogleError,
} from '@listkit/query/list-method';
import { describe, expect, it } from 'vitest';
import { BOOKS, type Book, bookCollection, bookSchema } from '../support/list-method-books.js';

const NAMES = BOOKS.map((b) => b.name).sort();
type Page = { books?: Partial<Book>[]; nextPageToken?: string };

async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return e;
  }
  throw new Error('no error');
}

describe('skip (AIP-158)', () => {
  it('skips items, then pages; the token carries the position on; skip with a token skips from it', async () => {
    const books = await bookCollection();
    const q = (s: string) =>
      runListRequest(new URLSearchParams(s), books, { itemsField: 'books' }) as Promise<Page>;
    const first = await q('pageSize=5&skip=7');
    expect(first.books!.map((b) => b.name)).toEqual(NAMES.slice(7, 12));
    const second = await q(`pageSize=5&pageToken=${first.nextPageToken}`);
    expect(second.books!.map((b) => b.name)).toEqual(NAMES.slice(12, 17));
    const skipped = await q(`pageSize=5&skip=30&pageToken=${first.nextPageToken}`);
    expect(skipped.books!.map((b) => b.name)).toEqual(NAMES.slice(42, 47));
    // walk the rest: nothing repeated, nothing lost
    const rest: string[] = [];
    let token = skipped.nextPageToken;
    while (token) {
      const page = await q(`pageSize=5&pageToken=${token}`);
      rest.push(...page.books!.map((b) => b.name!));
      token = page.nextPageToken;
    }
    expect(rest).toEqual(NAMES.slice(47));
  });

  it('skips across a filter and an order, more items than a chunk of the lister', async () => {
    const books = await bookCollection();
    const all = (await runListRequest(
      new URLSearchParams('filter=year>1960&orderBy=year desc&pageSize=1000'),
      books,
      {
        itemsField: 'books',
      },
    )) as Page;
    const page = (await runListRequest(
      new URLSearchParams('filter=year>1960&orderBy=year desc&pageSize=4&skip=9'),
      books,
      { itemsField: 'books' },
    )) as Page;
    expect(page.books).toEqual(all.books!.slice(9, 13));
  });

  it('past the end answers an empty page without a token (200, not an error)', async () => {
    const books = await bookCollection();
    expect(
      await runListRequest(new URLSearchParams('skip=57'), books, { itemsField: 'books' }),
    ).toEqual({ books: [] });
    expect(
      await runListRequest(new URLSearchParams('skip=500&pageSize=3'), books, { dialect: 'aip' }),
    ).toEqual({
      items: [],
    });
  });

  it.each([
    ['-1', 'skip must not be negative, not -1'],
    ['1.5', 'skip must be an integer, not "1.5"'],
    ['x', 'skip must be an integer, not "x"'],
    ['10001', 'skip must be at most 10000, not 10001'],
  ])('refuses skip=%s as INVALID_ARGUMENT naming skip', async (value, message) => {
    const books = await bookCollection();
    const error = await thrown(() => runListRequest(new URLSearchParams(`skip=${value}`), books));
    expect(error).toBeInstanceOf(ListkitError);
    expect((error as ListkitError).code).toBe('invalid_skip');
    expect((error as ListkitError).message).toBe(message);
    const google = toGoogleError(error);
    expect(google.status).toBe('INVALID_ARGUMENT');
    expect(google.body.error.details[0]).toMatchObject({
      fieldViolations: [{ field: 'skip', reason: 'INVALID_SKIP' }],
    });
  });

  it('is not a Compute Engine parameter: the compute dialect does not read it (strict: refused)', async () => {
    expect(
      readListRequest(new URLSearchParams('skip=3'), { dialect: 'compute' }).skip,
    ).toBeUndefined();
    expect(() =>
      readListRequest(new URLSearchParams('skip=3'), { dialect: 'compute', strict: true }),
    ).toThrow(ListParameterError);
    expect(readListRequest(new URLSearchParams('skip=3&read_mask=name'), { strict: true })).toEqual(
      {
        pageSize: 50,
        skip: 3,
        readMask: 'name',
      },
    );
  });
});

describe('read_mask (AIP-157) and fields', () => {
  it('read_mask keeps those fields of every resource, on every page', async () => {
    const books = await bookCollection();
    let token: string | undefined;
    const seen: string[] = [];
    do {
      const page = (await runListRequest(
        new URLSearchParams(
          `pageSize=20&read_mask=name,title${token ? `&pageToken=${token}` : ''}`,
        ),
        books,
        { itemsField: 'books' },
      )) as Page;
      for (const book of page.books!) {
        expect(Object.keys(book).sort()).toEqual(['name', 'title']);
        seen.push(book.name!);
      }
      token = page.nextPageToken;
    } while (token);
    expect(seen).toEqual(NAMES);
  });

  it('fields selects from the whole response, after the read mask', async () => {
    const books = await bookCollection();
    const page = await runListRequest(
      new URLSearchParams('pageSize=2&fields=books(name,year)&readMask=name'),
      books,
      { itemsField: 'books' },
    );
    expect(page).toEqual({ books: [{ name: NAMES[0] }, { name: NAMES[1] }] });
    const compute = await runListRequest(
      new URLSearchParams('maxResults=2&$fields=nextPageToken'),
      books,
      {
        dialect: 'compute',
      },
    );
    expect(Object.keys(compute)).toEqual(['nextPageToken']);
  });

  it('a request message as Connect and gRPC deliver it: int32 skip, a FieldMask with proto paths', async () => {
    const books = await bookCollection();
    const message = {
      $typeName: 'library.v1.ListBooksRequest',
      pageSize: 3,
      pageToken: '',
      skip: 4,
      readMask: create(FieldMaskSchema, { paths: ['name', 'create_time'] }),
    };
    const page = (await runListRequest(message, books, {
      itemsField: 'books',
      strict: true,
    })) as Page;
    expect(page.books).toEqual(
      BOOKS.slice(4, 7).map((b) => ({ name: b.name, createTime: b.createTime })),
    );
    const next = (await runListRequest(
      { ...message, skip: 0, pageToken: page.nextPageToken },
      books,
      {
        itemsField: 'books',
      },
    )) as Page;
    expect(next.books!.map((b) => b.name)).toEqual(NAMES.slice(7, 10));
  });

  it('an unknown path is INVALID_ARGUMENT naming it with its position, before anything is read', async () => {
    let read = 0;
    const books = await bookCollection();
    const lister = (request: Parameters<typeof books.list>[0]) => {
      read++;
      return books.list(request);
    };
    const error = await thrown(() =>
      runListRequest(new URLSearchParams('read_mask=name,titel'), lister, { schema: bookSchema }),
    );
    expect(read).toBe(0);
    expect((error as ListkitError).message).toBe("unknown field 'titel'; did you mean 'title'?");
    expect((error as ListkitError).column).toBe(6);
    const proto = toGoogleError(error, { fieldNames: 'proto' });
    expect(proto.details[0]).toMatchObject({
      fieldViolations: [{ field: 'read_mask', reason: 'UNKNOWN_FIELD' }],
    });
    expect(proto.message).toBe(
      "Invalid read_mask: unknown field 'titel'; did you mean 'title'? (1:6)",
    );
    expect((error as ListkitError).input).toBe('readMask');
    expect(toGoogleError(error).message).toBe(
      "Invalid readMask: unknown field 'titel'; did you mean 'title'? (1:6)",
    );
  });

  it('a function lister needs the schema to check a mask (a programmer error, said plainly)', async () => {
    const books = await bookCollection();
    const error = await thrown(() =>
      runListRequest(new URLSearchParams('read_mask=name'), (r) => books.list(r)),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('pass options.schema');
    // and works with it
    const page = await runListRequest(
      new URLSearchParams('read_mask=name&pageSize=1'),
      (r) => books.list(r),
      {
        schema: bookSchema,
      },
    );
    expect(page.items).toEqual([{ name: NAMES[0] }]);
  });
});
