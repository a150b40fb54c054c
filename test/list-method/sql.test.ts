// runListRequest over listFromSql (PGlite): the same pages as the in-memory Collection, tokens
// from one accepted by the other, and a statement timeout answered DEADLINE_EXCEEDED.
import { PageTokenCodec } from '@listkit/query';
import { runListRequest, toGoogleError } from '@listkit/query/list-method';
import { listFromSql, type SqlRunner, sqlTable } from '@listkit/query/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOOKS,
  type Book,
  bookCollection,
  bookSchema,
  expectedRecentNotHistory,
  SHELF_TWO,
  walkPages,
} from '../support/list-method-books.js';
import { openPglite, type TestDatabase } from '../support/sql-databases.js';

describe('runListRequest over listFromSql', () => {
  let db: TestDatabase;
  const table = sqlTable(bookSchema, { table: `listkit_books_${process.pid}` });
  const pageTokens = PageTokenCodec.create();

  beforeAll(async () => {
    db = await openPglite();
    await db.exec(table.createTable());
    for (const book of [...BOOKS, ...SHELF_TWO]) {
      await db.query(
        `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) VALUES (${table.insertColumns.map((_, i) => `$${i + 1}`).join(', ')})`,
        table.row(book),
      );
    }
    // The same rows with their parent in a column of its own, for `parentColumn`.
    await db.exec(`ALTER TABLE ${table.name} ADD COLUMN shelf text`);
    await db.exec(`UPDATE ${table.name} SET shelf = substring(name from '^shelves/[^/]+')`);
  }, 120_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(async () => {
    await db?.close();
  }, 120_000);

  const fromSql =
    (run: SqlRunner = db.run, parentColumn?: string) =>
    async (request: Parameters<typeof listFromSql>[0]) =>
      listFromSql<Book>(request, {
        table,
        pageTokens: await pageTokens,
        run,
        ...(parentColumn ? { parentColumn } : {}),
      });

  it.each([
    ['the key as a resource name', undefined],
    ['a parent column', 'shelf'],
  ])('lists one shelf only, by %s', async (_, parentColumn) => {
    const shelf = (parent: string, query: Record<string, string> = {}) =>
      walkPages(async (pageToken) => {
        const response = await runListRequest(
          { ...query, pageSize: '8', pageToken },
          fromSql(db.run, parentColumn),
          { itemsField: 'books', parent },
        );
        return { books: response.books ?? [], nextPageToken: response.nextPageToken ?? '' };
      });
    expect(await shelf('shelves/1')).toEqual(BOOKS.map((b) => b.name));
    expect(await shelf('shelves/2')).toEqual(SHELF_TWO.map((b) => b.name));
    expect(
      await shelf('shelves/1', {
        filter: 'year >= 1970 AND genre != HISTORY',
        orderBy: 'year desc',
      }),
    ).toEqual(expectedRecentNotHistory());
    expect(await shelf('shelves/-')).toHaveLength(BOOKS.length + SHELF_TWO.length);
    expect(await shelf('shelves/3')).toEqual([]);
    expect(await shelf('shelves/1%')).toEqual([]);
  });

  it('walks the pages of a filtered, ordered list to the end', async () => {
    const names: string[] = [];
    let pageToken: string | undefined;
    do {
      const query = new URLSearchParams({
        filter: 'year >= 1970 AND genre != HISTORY',
        order_by: 'year desc',
        page_size: '4',
      });
      if (pageToken) query.set('page_token', pageToken);
      const response = await runListRequest(query, fromSql(), {
        itemsField: 'books',
        parent: 'shelves/1',
      });
      names.push(...(response.books ?? []).map((b) => b.name));
      pageToken = response.nextPageToken;
    } while (pageToken);
    expect(names).toEqual(expectedRecentNotHistory());
  });

  it('accepts a token from the in-memory Collection with the same codec', async () => {
    const shared = await bookCollection(await pageTokens);
    const query = { filter: 'year >= 1970', pageSize: '5' };
    const options = { itemsField: 'books', parent: 'shelves/1' } as const;
    const first = await runListRequest(query, shared, options);
    const second = await runListRequest(
      { ...query, pageToken: first.nextPageToken },
      fromSql(),
      options,
    );
    const all = await runListRequest({ ...query, pageSize: '10' }, shared, options);
    expect([...(first.books ?? []), ...(second.books ?? [])].map((b) => b.name)).toEqual(
      (all.books ?? []).map((b) => b.name),
    );
  });

  it('answers a statement that ran out of time DEADLINE_EXCEEDED', async () => {
    const timedOut: SqlRunner = async () => {
      throw Object.assign(new Error('canceling statement due to statement timeout'), {
        code: '57014',
      });
    };
    const error = await runListRequest({}, fromSql(timedOut)).catch((e: unknown) => e);
    expect(toGoogleError(error)).toMatchObject({
      httpStatus: 504,
      grpcCode: 4,
      status: 'DEADLINE_EXCEEDED',
    });
  });
});
