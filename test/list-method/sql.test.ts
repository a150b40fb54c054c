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
} from '../support/list-method-books.js';
import { openPglite, type TestDatabase } from '../support/sql-databases.js';

describe('runListRequest over listFromSql', () => {
  let db: TestDatabase;
  const table = sqlTable(bookSchema, { table: `listkit_books_${process.pid}` });
  const pageTokens = PageTokenCodec.create();

  beforeAll(async () => {
    db = await openPglite();
    await db.exec(table.createTable());
    for (const book of BOOKS) {
      await db.query(
        `INSERT INTO ${table.name} (${table.insertColumns.join(', ')}) VALUES (${table.insertColumns.map((_, i) => `$${i + 1}`).join(', ')})`,
        table.row(book),
      );
    }
  }, 120_000); // PGlite compiles its WebAssembly: slow on a loaded machine
  afterAll(async () => {
    await db?.close();
  }, 120_000);

  const fromSql =
    (run: SqlRunner = db.run) =>
    async (request: Parameters<typeof listFromSql>[0]) =>
      listFromSql<Book>(request, { table, pageTokens: await pageTokens, run });

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
      const response = await runListRequest(query, fromSql(), { itemsField: 'books' });
      names.push(...(response.books ?? []).map((b) => b.name));
      pageToken = response.nextPageToken;
    } while (pageToken);
    expect(names).toEqual(expectedRecentNotHistory());
  });

  it('accepts a token from the in-memory Collection with the same codec', async () => {
    const shared = await bookCollection(await pageTokens);
    const query = { filter: 'year >= 1970', pageSize: '5' };
    const first = await runListRequest(query, shared, { itemsField: 'books' });
    const second = await runListRequest({ ...query, pageToken: first.nextPageToken }, fromSql(), {
      itemsField: 'books',
    });
    const all = await runListRequest({ ...query, pageSize: '10' }, shared, { itemsField: 'books' });
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
