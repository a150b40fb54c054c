// A tiny Express app serving GET /v1/books with @listkit/query/list-method, tested over HTTP.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runListRequest, toGoogleError } from '@listkit/query/list-method';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOOKS,
  type Book,
  bookCollection,
  SHELF_TWO,
  twoShelves,
  walkPages,
} from '../support/list-method-books.js';
import { describeBooksApp } from '../support/list-method-http-suite.js';

describeBooksApp('Express', async () => {
  const books = await bookCollection();
  const app = express();
  app.get('/v1/books', async (req, res) => {
    try {
      res.json(
        await runListRequest(req.query, books, {
          itemsField: 'books',
          defaultPageSize: 10,
          maxPageSize: 50,
          strict: true,
        }),
      );
    } catch (error) {
      const e = toGoogleError(error, { domain: 'library.example.com' });
      res.status(e.httpStatus).json(e.body);
    }
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});

describe('Express: the Compute style and internal errors', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const books = await bookCollection();
    const app = express();
    // Compute Engine's names and rules: maxResults (default and maximum 500), `items`.
    app.get('/compute/v1/books', async (req, res) => {
      try {
        res.json(await runListRequest(req.query, books, { style: 'compute' }));
      } catch (error) {
        const e = toGoogleError(error, { style: 'compute' });
        res.status(e.httpStatus).json(e.body);
      }
    });
    app.get('/v1/broken', async (_req, res) => {
      try {
        await runListRequest({}, () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7')));
      } catch (error) {
        const e = toGoogleError(error);
        res.status(e.httpStatus).json(e.body);
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }, 120_000);

  it('pages with maxResults and answers an empty page without items', async () => {
    const first = (await (await fetch(`${url}/compute/v1/books?maxResults=50`)).json()) as {
      items: Book[];
      nextPageToken: string;
    };
    expect(first.items).toHaveLength(50);
    const second = (await (
      await fetch(`${url}/compute/v1/books?maxResults=50&pageToken=${first.nextPageToken}`)
    ).json()) as { items: Book[]; nextPageToken?: string };
    expect([...first.items, ...second.items].map((b) => b.name)).toEqual(BOOKS.map((b) => b.name));
    expect(second).not.toHaveProperty('nextPageToken');
    const all = (await (await fetch(`${url}/compute/v1/books`)).json()) as { items: Book[] };
    expect(all.items).toHaveLength(BOOKS.length); // default 500
    const none = await fetch(`${url}/compute/v1/books?filter=${encodeURIComponent('year < 0')}`);
    expect(await none.json()).toEqual({});
  });

  it('names maxResults when it is negative', async () => {
    const response = await fetch(`${url}/compute/v1/books?maxResults=-5`);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as {
      error: { details: { fieldViolations?: { field: string }[] }[] };
    };
    expect(error.details[0]?.fieldViolations?.[0]?.field).toBe('maxResults');
  });

  it('answers an unknown error 500 INTERNAL without its message', async () => {
    const response = await fetch(`${url}/v1/broken`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL', details: [] },
    });
    expect(text).not.toContain('10.0.0.7');
  });
});

describe('Express: a shelf’s list never holds another shelf’s books', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const books = await twoShelves();
    const app = express();
    // The parent comes from the path, as AIP-127 maps it: GET /v1/{parent=shelves/*}/books.
    app.get('/v1/shelves/:shelf/books', async (req, res) => {
      try {
        res.json(
          await runListRequest(req.query, books, {
            itemsField: 'books',
            parent: `shelves/${req.params.shelf}`,
            strict: true,
          }),
        );
      } catch (error) {
        const e = toGoogleError(error);
        res.status(e.httpStatus).json(e.body);
      }
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }, 120_000);

  const shelf = (id: string, query: Record<string, string>) =>
    walkPages(async (pageToken) => {
      const params = new URLSearchParams({ ...query, pageSize: '7' });
      if (pageToken) params.set('pageToken', pageToken);
      const response = await fetch(`${url}/v1/shelves/${id}/books?${params}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { books: Book[]; nextPageToken?: string };
      return { books: body.books, nextPageToken: body.nextPageToken ?? '' };
    });

  it('lists each shelf’s books, all of them and only them, filtered or not', async () => {
    const queries: Record<string, string>[] = [
      {},
      { filter: 'year >= 1970' },
      { orderBy: 'year desc, title' },
    ];
    for (const query of queries) {
      const one = await shelf('1', query);
      const two = await shelf('2', query);
      expect(one.length).toBeGreaterThan(0);
      expect(one.every((n) => n.startsWith('shelves/1/books/'))).toBe(true);
      expect(two.every((n) => n.startsWith('shelves/2/books/'))).toBe(true);
      expect(two.map((n) => n.replace('shelves/2/', 'shelves/1/'))).toEqual(one);
    }
    expect(await shelf('1', {})).toEqual(BOOKS.map((b) => b.name));
    expect(await shelf('2', {})).toEqual(SHELF_TWO.map((b) => b.name));
    expect(await shelf('3', {})).toEqual([]);
  });

  it('refuses one shelf’s page token on the other shelf', async () => {
    const first = (await (await fetch(`${url}/v1/shelves/1/books?pageSize=5`)).json()) as {
      nextPageToken: string;
    };
    const response = await fetch(
      `${url}/v1/shelves/2/books?pageSize=5&pageToken=${first.nextPageToken}`,
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: { details: [{ fieldViolations: [{ field: string }] }] };
    };
    expect(body.error.details[0].fieldViolations[0].field).toBe('pageToken');
  });
});
